"""What bounds a class and a store, whatever strangers send: students, classes, answers, how long a class lives,
and how much of a class's keys the store reads. The store reads these at each call (``limits.MAX_STUDENTS``), so
a test can make a class small."""
from __future__ import annotations

TTL_SECONDS = 4 * 3600  # a class lives a few hours after its last activity (a lesson, with a break)
MAX_STUDENTS = 300  # per class: a lecture hall
MAX_CLASSES = 200  # open at once per store: bounds memory whatever strangers do
# per client (an address: a school's teachers share one behind its NAT): classes open at once, and classes started
# per START_WINDOW seconds. A Start/Leave loop made 193 classes in 16 s and closed class mode for everyone. A class
# whose teacher closed the tab without Leave stays open for TTL_SECONDS: a school's day of such classes fits.
OPEN_PER_CLIENT = 30
STARTS_PER_CLIENT = 20
START_WINDOW = 600
ANSWER_LIMIT = 20  # answers per member per RATE_WINDOW seconds: a person clicks a few times, a script many
RATE_WINDOW = 10
STEP_DIGITS = 6  # a step written with more digits is no step of any tour
REVEALED_MAX = 64  # question steps one class can reveal (a tour has a few)
CLASS_FIELDS, CLASS_BYTES = 10, 2_048  # what a class's own hash may hold (it holds 7 short fields)
ANSWER_BYTES = 128  # per answer: a member id, an option code and room
KNOWN_OPEN = 2 * MAX_CLASSES  # codes one process saw open, kept to spare their readers the guessing limits
