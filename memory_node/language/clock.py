"""Times of day said in a question ("where was the mug at nine?", "was the fridge open at half past seven?").

A clock time is read off the text before the parser sees it: the tagger takes "at nine" for a place ("I know
nothing called nine"). Only with a word that makes it a time ("at", "around", "about"), so "two mugs" and "the
top 3 shelves" stay quantities. An hour said without a.m. / p.m. is the latest past one of the two: that is the
one a person at home asks about ("at nine", said at 10:30 at night, is 21:00).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lexicon import NUMBER_WORDS

_HOUR = r"(?P<h>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_MINUTES = {"quarter": 15, "half": 30, "five": 5, "ten": 10, "twenty": 20, "twenty-five": 25, "twenty five": 25}
_CLOCK = re.compile(
    r"\b(?:at|around|about|round)\s+(?:(?:about|around|roughly|approximately)\s+)?(?:"
    r"(?P<noon>noon|midday|midnight)"
    r"|(?P<m>quarter|half|five|ten|twenty|twenty[- ]five)\s+(?P<dir>past|to|after)\s+" + _HOUR +
    r"|" + _HOUR.replace("?P<h>", "?P<h2>") + r"(?::(?P<mm>[0-5]\d))?\s*(?P<ap>a\.?m\.?|p\.?m\.?|o'?\s?clock)?"
    r"(?:\s+(?:in\s+the\s+)?(?P<part>morning|afternoon|evening|at\s+night|tonight))?"
    r")(?=\W|$)", re.I)


@dataclass(frozen=True)
class Clock:
    seconds: int  # seconds after midnight
    fixed: bool  # a.m. / p.m. said (or plain from 13:00): the hour is not to be read 12 hours later
    rest: str  # the text without the time
    said: str = ""  # the words of the time, as said ("at half past nine")
    start: int = 0  # where they start in the text


def read_clock(text: str) -> Clock | None:
    """The first clock time said in ``text`` and the text without it, or None."""
    m = _CLOCK.search(text)
    if m is None:
        return None
    fixed = False
    if m.group("noon"):
        h, minute, fixed = (0 if m.group("noon").lower() == "midnight" else 12), 0, True
    elif m.group("m"):
        h = _hour(m.group("h"))
        past = _MINUTES[m.group("m").lower().replace("-", " ") if "five" in m.group("m").lower()
                        and "twenty" in m.group("m").lower() else m.group("m").lower()]
        minute = past if m.group("dir").lower() in ("past", "after") else 60 - past
        if m.group("dir").lower() == "to":
            h -= 1
    else:
        h = _hour(m.group("h2"))
        minute = int(m.group("mm") or 0)
        ap = (m.group("ap") or "").lower().replace(".", "")
        part = (m.group("part") or "").lower()
        if m.group("mm") is None and not ap and not part and not m.group(0).lower().startswith(("at ", "around ",
                                                                                                   "round ")):
            return None
        if ap == "pm" or part in ("afternoon", "evening", "at night", "tonight"):
            h, fixed = (h % 12) + 12, True
        elif ap == "am" or part == "morning":
            h, fixed = h % 12, True
        fixed = fixed or h >= 13
    if h is None or not 0 <= h <= 23 or not 0 <= minute <= 59:
        return None
    rest = (text[:m.start()] + text[m.end():]).replace("  ", " ").strip()
    rest = re.sub(r"\s+([?.!,])", r"\1", rest)
    return Clock(seconds=(h % 24) * 3600 + minute * 60, fixed=fixed, rest=rest, said=m.group(0), start=m.start())


def _hour(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    n = NUMBER_WORDS.get(word.lower())
    return int(n) if n is not None else None


def latest_before(now_s: float, day_start_s: float, clock: int, fixed: bool) -> float:
    """The latest moment at or before ``now_s`` with this time of day (``day_start_s``: today's midnight)."""
    candidates = [day_start_s + clock] if fixed else [day_start_s + clock, day_start_s + (clock + 12 * 3600) % 86400]
    best = None
    for c in candidates:
        while c > now_s:
            c -= 86400
        best = c if best is None else max(best, c)
    return best
