"""The follow route: where a class is, for the tabs of its following students
(embedviz/app/browser/classroom_follow.js).

``GET /api/class/CODE/step`` answers ``{"lesson", "step", "revealed"}`` (and ``"vote": 2`` on a second vote,
``"shown": true`` while the teacher shows the spread): what every member may see (``ClassState.follow``), no
teacher token, no member, no answer. A tab reruns the app only when the answer is not
what its page shows, so a class that stays costs no script run.

With ``?seen=LESSON|STEP|REVEALED`` (what the tab's page shows) the answer waits while the class is still there, up
to ``HOLD_SECONDS``, and comes the moment the teacher moves: a teacher's Next on this replica wakes the requests it
holds at once (the store tells the route), one on another replica within ``WATCH_SECONDS`` (the route reads the
store that often while it holds requests for the class). Polled instead, every follower learnt of a move up to a
period late, and a class of a hundred cost the server 200 answers a second while nothing moved.

Bounded by what it reads and holds, and by who asks only where no class is concerned (a school's students share one
address behind its NAT):
- an open class is read from the store at most once per ``FRESH_SECONDS`` (and once per ``WATCH_SECONDS`` while
  requests wait for it) however many tabs ask; a code this process does not know open (no page of this server
  started, joined or read it) costs a token of its address's budget (``client_limits.guesses``, shared with the
  pages' joins), and of ``NEW_READS_PER_SECOND`` for all addresses together, which bounds the store's reads. A
  follower's own class is known open (their page joined it here), so a guesser slows only themselves;
- at most ``MAX_HELD`` requests are held per process (sized to its file limit); past it a request is answered at
  once, and its tab asks again a period later, as a poll;
- when the server is asked to stop, every held request is answered at once (uvicorn waits for open requests
  before it stops; ``answer_held_on_stop`` is called by the server's start-up).
Store reads run in a worker thread: a Redis call that waits (up to its 1 s timeout) must not stall the event loop
that carries every websocket. Whatever the read raises is a 503 (``{"error": "offline"}``), as a store that is down:
never a 500, never a traceback in the server's log.
"""
from __future__ import annotations

import asyncio
import collections
import json
import logging
import signal
import time

import anyio

from embedviz import client_limits
from embedviz.client_limits import TokenBucket

CLASS_ROUTE = "/api/class/{code}/step"
FRESH_SECONDS = 0.25  # an open class's position is read from the store at most this often per replica
HOLD_SECONDS = 20.0  # a request whose class stays where its tab is gets its answer after this (the tab asks again)
WATCH_SECONDS = 0.25  # while requests wait, their class is read this often (a teacher on another replica)


def max_held() -> int:
    """Requests held per process: six classes of 300 at once, with room for reloads, and never more than half the
    connections this process's file limit lets the server keep (embedviz/app/connections.py): 448 under the 1,024
    files of a default ulimit, 2,000 under the systemd unit's LimitNOFILE."""
    from embedviz.app.connections import connection_cap

    return min(2_000, connection_cap() // 2)


MAX_HELD = max_held()
NEW_READS_PER_SECOND = 50  # store reads for codes not known open, all addresses together (each has its own budget)
NEW_READS_BURST = 100
KNOWN_CODES = 2 * 200  # positions kept (embedviz/classroom/limits.py: MAX_CLASSES open classes fit twice)
_LOG = logging.getLogger(__name__)


def follow_path(code: str) -> str:
    """The path a follower's tab asks for class ``code`` (a join code: letters and digits only)."""
    return CLASS_ROUTE.replace("{code}", code)


def position_text(lesson: str, step: int, revealed: bool, vote: int = 1, shown: bool = False) -> str:
    """A position as the tab's ``seen`` names it (classroom_follow.js writes the same string): a second vote and a
    shown spread are named only when there is one, so a class that uses neither reads as it always did."""
    return f"{lesson}|{step}|{'true' if revealed else 'false'}" + ("|v2" if vote > 1 else "") + (
        "|shown" if shown else "")


def position_body(lesson: str, step: int, revealed: bool, vote: int = 1, shown: bool = False) -> dict:
    """The route's answer for a position (``ClassState.follow``): the same fields ``position_text`` names."""
    return {"lesson": lesson, "step": step, "revealed": revealed, **({"vote": vote} if vote > 1 else {}),
            **({"shown": True} if shown else {})}


class ClassFollowRoute:
    """``GET CLASS_ROUTE``: 200 ``{"lesson", "step", "revealed"}``; 400 for a string that is no join code (no store
    read); 404 for no open class; 503 when the store cannot be reached; 429 (Retry-After) past the budget. With
    ``?seen=`` the answer is held while the class is where the tab is (the module's docstring says how long and how
    it learns of a move)."""

    def __init__(self, store=None, *, clock=time.monotonic, fresh: float = FRESH_SECONDS, hold: float = HOLD_SECONDS,
                 watch: float = WATCH_SECONDS, max_held: int = MAX_HELD, rate: float = NEW_READS_PER_SECOND,
                 burst: float = NEW_READS_BURST, known: int = KNOWN_CODES, guesses: client_limits.Buckets | None = None):
        self._store, self._clock, self._fresh, self._known = store, clock, fresh, known
        self._hold_seconds, self._watch_seconds, self._max_held = hold, watch, max_held
        self._bucket = TokenBucket(rate, burst, clock)
        self._guesses = guesses  # per address (None: the process's, shared with the pages' joins)
        # code -> (when read, answer body, the position it names)
        self._positions: collections.OrderedDict[str, tuple[float, bytes, str]] = collections.OrderedDict()
        self._reading: dict[str, asyncio.Future] = {}  # code -> the store read under way
        self._moves: dict[str, asyncio.Future] = {}  # code -> done when the class moves (every held request waits on it)
        self._held: collections.Counter[str] = collections.Counter()  # code -> requests held for it
        self._holding = 0  # requests held, all codes
        self._watching: set[asyncio.Task] = set()  # the loop keeps only weak references to tasks
        self._listening = False
        self._stopping = False

    # the store

    def _shared_store(self):
        from embedviz.classroom.store import shared_store

        if self._store is None:
            self._store = shared_store()
        return self._store

    def _read(self, code: str) -> tuple[int, bytes, str]:
        from embedviz.classroom.checks import ClassError

        try:
            follow = self._shared_store().state(code).follow
        except ClassError as error:
            status = 503 if error.code == "offline" else 404
            return status, json.dumps({"error": error.code}).encode(), ""
        except Exception as error:  # noqa: BLE001 - whatever the store did, the tab is told "offline", never a 500
            _LOG.warning("the follow route could not read class %s: %s", code, type(error).__name__)
            return 503, b'{"error":"offline"}', ""
        return 200, json.dumps(position_body(*follow), separators=(",", ":")).encode(), position_text(*follow)

    def _may_read(self, code: str, client: str) -> bool:
        """A code this process does not know open is read only with a token of the asker's address and one of all
        addresses' (a refused ask costs the store nothing)."""
        if self._shared_store().known_open(code):
            return True
        guesses = self._guesses if self._guesses is not None else client_limits.guesses()
        return guesses.take(client) and self._bucket.take()

    async def _position(self, code: str, *, fresh: float | None = None, client: str = "local"
                        ) -> tuple[int, bytes, str]:
        """(status, body, position) of ``code``, read from the store at most once per ``fresh`` seconds however
        many ask; a code not known open takes a token first (429 without one)."""
        known = self._positions.get(code)
        if known and self._clock() - known[0] < (self._fresh if fresh is None else fresh):
            self._positions.move_to_end(code)
            return 200, known[1], known[2]
        if code in self._reading:  # another request is reading it: share its answer
            return await asyncio.shield(self._reading[code])
        if known is None and not self._may_read(code, client):
            return 429, b'{"error":"rate"}', ""
        future = asyncio.get_running_loop().create_future()
        self._reading[code] = future
        try:
            answer = await anyio.to_thread.run_sync(self._read, code)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning when nobody was waiting
            raise
        finally:
            del self._reading[code]
        future.set_result(answer)
        if answer[0] == 200:
            self._positions[code] = (self._clock(), answer[1], answer[2])
            self._positions.move_to_end(code)
            while len(self._positions) > self._known:
                self._positions.popitem(last=False)
        else:
            self._positions.pop(code, None)  # closed or unreachable: the next ask reads again, with a token
        return answer

    # holding

    def _listen(self) -> None:
        """Once, on the event loop: the store tells this route when a teacher of this process moves a class."""
        if self._listening:
            return
        self._listening = True
        loop = asyncio.get_running_loop()

        def moved(code: str) -> None:  # called in the teacher's script thread
            if not loop.is_closed():
                loop.call_soon_threadsafe(self._move, code)

        self._shared_store().on_move(moved)

    def _move(self, code: str) -> None:
        """The class moved (or may have): its held requests read it again and answer. Its kept position goes stale,
        not away: a class known open is read again without a token, however fast its teacher clicks."""
        known = self._positions.get(code)
        if known is not None:
            self._positions[code] = (float("-inf"), *known[1:])
        future = self._moves.pop(code, None)
        if future is not None and not future.done():
            future.set_result(None)

    def stop(self) -> None:
        """Answer every held request now and hold no more (the server is stopping)."""
        self._stopping = True
        for code in list(self._moves):
            self._move(code)

    async def _watch(self, code: str, seen: str, moved: asyncio.Future) -> None:
        """While requests wait for ``code``: read it every ``WATCH_SECONDS``, for a teacher on another replica."""
        try:
            while not moved.done() and self._held[code]:
                await asyncio.sleep(self._watch_seconds)
                status, _, there = await self._position(code, fresh=self._watch_seconds)
                if status != 200 or there != seen:
                    self._move(code)
        except Exception:  # noqa: BLE001 - whatever failed, the held requests answer (and read again) now
            self._move(code)

    async def _until_moved(self, code: str, seen: str) -> None:
        moved = self._moves.get(code)
        if moved is None:
            moved = self._moves[code] = asyncio.get_running_loop().create_future()
            task = asyncio.get_running_loop().create_task(self._watch(code, seen, moved))
            self._watching.add(task)
            task.add_done_callback(self._watching.discard)
        self._held[code] += 1
        self._holding += 1
        try:
            await asyncio.wait_for(asyncio.shield(moved), self._hold_seconds)
        except TimeoutError:
            pass
        finally:
            self._holding -= 1
            self._held[code] -= 1
            if not self._held[code]:
                del self._held[code]

    # the route

    @staticmethod
    def _answer(status: int, body: bytes):
        from starlette.responses import Response

        headers = {"Cache-Control": "no-store", **({"Retry-After": "1"} if status == 429 else {})}
        return Response(body, status_code=status, media_type="application/json", headers=headers)

    async def endpoint(self, request):
        """The route's request -> response (Starlette calls a method as an endpoint, an instance as an ASGI app)."""
        from embedviz.classroom.checks import CODE_RE

        code = request.path_params.get("code", "")
        if not CODE_RE.fullmatch(code):
            return self._answer(400, b'{"error":"malformed"}')
        client = client_limits.address_key(request.client.host if request.client else None)
        status, body, there = await self._position(code, client=client)
        seen = request.query_params.get("seen")
        if seen is not None and status == 200 and there == seen and not self._stopping and self._holding < self._max_held:
            self._listen()
            await self._until_moved(code, seen)
            status, body, _ = await self._position(code)
        return self._answer(status, body)


_SERVED: list[ClassFollowRoute] = []  # the routes this process serves (routes() makes one)


def routes() -> list:
    """The HTTP routes serve.py adds to Streamlit's."""
    from starlette.routing import Route

    route = ClassFollowRoute()
    _SERVED.append(route)
    return [Route(CLASS_ROUTE, route.endpoint, methods=["GET"])]


def answer_held_on_stop() -> None:
    """On the server's event loop, at start: a stop signal (SIGTERM, SIGINT) first answers every request the routes
    hold, then goes on to the server's own handler, which waits for open requests before it stops. Wraps the
    handlers installed now (uvicorn's, while it serves); a server run in another thread than the main one (a test's)
    has no signals to wrap."""
    loop = asyncio.get_running_loop()

    def answer_all() -> None:
        for route in _SERVED:
            route.stop()

    try:
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous = signal.getsignal(sig)
            if callable(previous):
                def handler(signum, frame, previous=previous):
                    loop.call_soon_threadsafe(answer_all)
                    previous(signum, frame)

                signal.signal(sig, handler)
    except ValueError:  # not the main thread
        pass
