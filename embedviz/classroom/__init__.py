"""A class following its teacher: join codes, the teacher's step, the students' seats and answers, the reveal.

State shared by the sessions of a class (and, behind a load balancer, by the replicas serving them) lives in a
store. ``store.ClassStore`` is the one code path; it talks to a backend through a handful of Redis-shaped calls
(backend.py): ``MemoryBackend`` keeps them in this process (one server), ``redis_backend.RedisBackend`` in Redis
(replicas). ``store.open_store`` picks one from ``EMBEDVIZ_REDIS_URL``.

What is kept, per class, and nothing on disk (Redis is started without persistence in the tests and the recipe):
- the class (state.py): lesson, step, which steps are revealed, a SHA-256 of the teacher's token (the token itself
  is only in the teacher's link), and the client that started it (a hash of its address:
  ``client_limits.address_key``);
- the seats (seats.py): a random id per student (no names) -> the browser session that holds it;
- per question step (votes.py): each member's option, a first and a second vote, whether the spread is shown.
limits.py bounds all of it; checks.py says what the store takes from outside and how it says no.

A class survives its store: a Redis restarted without persistence comes back empty, and the teacher's tab, which
keeps the last ``ClassSnapshot`` it read, writes the class back under the same code and key (``restore``). A class
that was closed is not written back; nor is one whose teacher this process never saw prove their key.

Nothing the store reads is trusted: a backend that fails, or a field of another type or shape than the store
writes (a step that is no number, a hash of megabytes), raises ``ClassError("offline")``, as a Redis that is down.
"""

from embedviz._exports import lazy

# its public functions by module (embedviz/_exports.py: each loaded when first asked for)
__all__, __getattr__, __dir__ = lazy(__name__, {
    "checks": ("normalize_code",),
    "seats": ("new_member_id", "seat_holder"),
    "store": ("open_store", "shared_store"),
    "votes": ("summary_csv",),
})
