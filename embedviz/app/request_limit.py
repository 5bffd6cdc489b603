"""Requests per client address, on the server itself: one client must not take the CPU a class's reruns need.

Measured on a bare server: 300 keep-alive connections asking ``/_stcore/health`` (or the follow route) as fast as
they could got about 4,500 answers a second, pinned a core, and a bystander's rerun went from 0.04 to 0.4-0.6 s.
nginx's ``limit_req`` does this in front of every recipe that faces a network (deploy/nginx.conf.template, the
Ingresses); this is what holds on a bare server (``make run`` on a classroom machine) with the same numbers.

Each address has a bucket of ``BURST`` requests refilled at ``RATE`` a second. A request past it waits for its turn
(the next token), so a client that keeps one request per connection open is slowed to ``RATE`` in all, not refused;
one that would wait more than ``MAX_WAIT_SECONDS`` is answered 429 with Retry-After at once. Sized for a class
behind one school NAT, where every student has the same address: a cold open of a page is about 100 HTTP requests
(Streamlit's bundle in ~90 chunks, fonts, host-config, health; benchmarks/first_open.py counts them), so 60
students opening at once fit in ``BURST``; afterwards a class asks a few requests a second (a page's component
files, the follow route's re-asks when the teacher moves), far under ``RATE``.

The address is ``scope["client"]``: uvicorn puts the X-Forwarded-For address there when the peer is a proxy it
trusts (``FORWARDED_ALLOW_IPS``, 127.0.0.1 by default: the nginx recipe; the Kubernetes Deployment sets it for the
Ingress controller), so behind a proxy each client has its own bucket, not the proxy. IPv6 addresses count per /64
(one host has a whole /64). Websockets are not counted here: a tab opens one, and its messages are Streamlit's.
"""
from __future__ import annotations

import asyncio

from embedviz import client_limits

COLD_OPEN_REQUESTS = 100  # HTTP requests of a cold open of Home (benchmarks/first_open.py measures it, and fails past it)
RATE = 300.0  # requests per second per address, refilled
BURST = 6_000  # requests at once per address: 60 students x COLD_OPEN_REQUESTS
MAX_WAIT_SECONDS = 5.0  # a request waits at most this for its turn, else 429
ADDRESSES = 4_096  # buckets kept (least recently used dropped; a dropped address starts full again)


def client_key(scope) -> str:
    """The bucket a request counts in: its client address (an IPv6 one by its /64), as class mode keys it too."""
    client = scope.get("client")
    return client_limits.address_key(str(client[0]).split("%")[0] if client else None)


class RequestLimit:
    """ASGI middleware: HTTP requests per client address (``client_limits.Buckets``); websockets and the lifespan pass."""

    def __init__(self, app, buckets: client_limits.Buckets | None = None) -> None:
        self.app = app
        self.buckets = buckets or client_limits.Buckets(RATE, BURST, keys=ADDRESSES)
        self.refused = 0

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            wait = self.buckets.wait(client_key(scope), MAX_WAIT_SECONDS)
            if wait is None:
                self.refused += 1
                await _too_many(send)
                return
            if wait:
                await asyncio.sleep(wait)
        await self.app(scope, receive, send)


async def _too_many(send) -> None:
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"retry-after", b"1"), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": b"Too many requests from this address; try again in a second."})
