"""embedviz as served: app.py's pages behind the response headers and start-up patches of embedviz/app/serving.py,
with the class follow route of embedviz/app/class_route.py.

    streamlit run serve.py          # what `make run`, deploy/launcher.py and the browser tests start

Streamlit serves a file that defines an ``st.App`` as that ASGI app; app.py stays the page script (AppTest runs
it directly). ``streamlit run app.py`` still works, without the headers and the class follow route (a following
student's tab then polls with a script run), and installs the patches on its first page run instead of at start.
"""
import streamlit as st
from starlette.middleware import Middleware

from embedviz.app.class_route import routes
from embedviz.app.serving import SecurityHeaders, lifespan

app = st.App("app.py", middleware=[Middleware(SecurityHeaders)], lifespan=lifespan, routes=routes())
