"""How much one client may ask: token buckets, kept per address or per session, for the server's HTTP requests
(embedviz/app/request_limit.py) and for class mode.

A class is found by its join code alone, so codes can be guessed, and a class costs the store memory, so classes
can be hoarded. Both are bounded per client, never for everyone at once: one guesser must not slow the first
follower of another teacher's class, one flood of Start presses must not close class mode for a school.
A client is its address as the server sees it (the TCP peer, or the address nginx forwards from loopback): the
students of a school share one behind its NAT, so what a whole class does at once (joining, following) is never
charged to it, only what no class needs (codes no class here has, classes started) is.
"""
from __future__ import annotations

import collections
import hashlib
import ipaddress
import threading
import time


RETRY_FIRST, RETRY_MOST = 0.5, 3.0  # seconds: a client's first retry of a store that went away, the longest wait


def retry_delay(tries: int, first: float = RETRY_FIRST, most: float = RETRY_MOST) -> float:
    """Seconds to wait after the ``tries``-th failure in a row (0 = the first): ``first`` doubling, at most ``most``.
    A class of 30 tabs retrying a lost store every half second at first, then every few seconds, asks it ~10 times a
    second at most, and finds it within ``most`` seconds of its return."""
    return min(most, first * 2 ** tries)


class TokenBucket:
    """``rate`` events per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate, self.burst, self._clock = rate, burst, clock
        self._tokens, self._at = float(burst), clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now

    def take(self) -> bool:
        self._refill()
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def wait(self, max_wait: float) -> float | None:
        """Take a token that may not be there yet: how long to wait for it (0: it is there), or None, and nothing
        taken, when that is longer than ``max_wait``. Tokens may go below zero: the events already waiting hold
        them, so a new one waits behind them."""
        self._refill()
        wait = (1.0 - self._tokens) / self.rate if self._tokens < 1 else 0.0
        if wait > max_wait:
            return None
        self._tokens -= 1
        return wait

    def full(self) -> bool:
        """Whether the bucket has refilled to its burst (it can be forgotten: a new one is the same)."""
        return min(self.burst, self._tokens + (self._clock() - self._at) * self.rate) >= self.burst


class Buckets:
    """One TokenBucket per key (an address), at most ``keys`` of them: past that the least recently used full bucket
    is dropped (a new one starts full, so nothing is lost), and if none is full the oldest goes. Thread-safe: the page
    runs of a server share one."""

    def __init__(self, rate: float, burst: float, *, keys: int = 4_096, clock=time.monotonic):
        self.rate, self.burst, self._keys, self._clock = rate, burst, keys, clock
        self._buckets: collections.OrderedDict[str, TokenBucket] = collections.OrderedDict()
        self._lock = threading.Lock()

    def _bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self._clock)
            self._forget()
        self._buckets.move_to_end(key)
        return bucket

    def take(self, key: str) -> bool:
        with self._lock:
            return self._bucket(key).take()

    def wait(self, key: str, max_wait: float) -> float | None:
        """``TokenBucket.wait`` for this key's bucket."""
        with self._lock:
            return self._bucket(key).wait(max_wait)

    def _forget(self) -> None:
        if len(self._buckets) <= self._keys:
            return
        for key in list(self._buckets)[: len(self._buckets) // 4]:  # a quarter at a time: amortised O(1)
            if self._buckets[key].full():
                del self._buckets[key]
        while len(self._buckets) > self._keys:
            self._buckets.popitem(last=False)


def address_key(address: str | None) -> str:
    """The client a limit is kept for: an IPv4 address, an IPv6 one by its /64 (one host or home network is handed a
    whole /64, so its 2^64 addresses are one client), "local" for loopback or none (a notebook, a test; Streamlit's
    ``st.context.ip_address`` says None for loopback). Hashed, so the store never holds an address; the keys expire
    with their limit's window."""
    if not address:
        return "local"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        network = str(address)[:64]
    else:
        ip = getattr(ip, "ipv4_mapped", None) or ip  # ::ffff:10.0.0.1 is 10.0.0.1
        if ip.is_loopback:
            return "local"
        network = str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)
    return hashlib.sha256(network.encode()).hexdigest()[:16]


# Codes no class here has, asked for by the follow route or a page's join, per address: the route and the pages
# share one budget, so a guesser gains nothing by switching. A whole class joining or following costs none of it
# (their class is known open on the server), so a school behind one NAT is never slowed by it.
GUESS_RATE, GUESS_BURST = 1.0, 30
_guesses: Buckets | None = None
_guesses_lock = threading.Lock()


def guesses() -> Buckets:
    """This process's per-address budget for codes it does not know open."""
    global _guesses
    with _guesses_lock:
        if _guesses is None:
            _guesses = Buckets(GUESS_RATE, GUESS_BURST)
        return _guesses
