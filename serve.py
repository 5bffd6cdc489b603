"""embedviz as served: app.py's pages behind the response headers and start-up patches of embedviz/app/serving.py,
with the class follow route of embedviz/app/classroom_route.py.

    streamlit run serve.py          # what `make run`, deploy/launcher.py and the browser tests start

Streamlit serves a file that defines an ``st.App`` as that ASGI app; app.py stays the page script (AppTest runs
it directly). ``streamlit run app.py`` still works, without the headers and the class follow route (a following
student's tab then polls with a script run), and installs the patches on its first page run instead of at start.

The middleware, outermost first: the connection limits put on uvicorn at start (embedviz/app/connections.py), the
security headers (on every answer, a refusal or a 500 too), requests per client address
(embedviz/app/request_limit.py), gzip (embedviz/app/compression.py), and the base URL the page tells Streamlit's
frontend (serving.BaseUrl).
"""
import streamlit as st
from starlette.middleware import Middleware

from embedviz.app.classroom_route import routes
from embedviz.app.compression import Compression
from embedviz.app.connections import ServerLimits
from embedviz.app.request_limit import RequestLimit
from embedviz.app.serving import HEADERS, BaseUrl, SecurityHeaders, lifespan

app = st.App("app.py", middleware=[Middleware(ServerLimits, headers=HEADERS), Middleware(SecurityHeaders), Middleware(RequestLimit),
                                   Middleware(Compression), Middleware(BaseUrl)], lifespan=lifespan, routes=routes())
