"""The words the parser reads structure from: verb senses, question words, spatial prepositions, states.

These are closed classes of English (prepositions, determiners, wh-words, number words) and the senses of
common verbs of a household robot's job (what "bring", "fetch" and "hand" have in common), not phrasings:
a new way of saying something combines these with a dependency parse, so it needs no new entry here. The
object vocabulary is not here at all: things are named by memory's labels, the category map and the
everyday-name table in ``config/language/names.yaml``.
"""

from __future__ import annotations

from .request import Intent

# Verb lemma -> the command it asks for. Particles and prepositions refine it (parser._command).
COMMAND_VERBS: dict[str, Intent] = {
    **dict.fromkeys(["bring", "fetch", "get", "grab", "pick", "give", "hand", "pass", "retrieve", "deliver", "carry",
                     "take", "collect", "toss", "throw", "pull", "remove", "extract", "grasp", "lift", "convey",
                     "procure", "obtain"], Intent.fetch),
    **dict.fromkeys(["put", "place", "set", "leave", "drop", "stick", "move", "lay", "stand", "hang", "pop",
                     "chuck", "shove", "plonk",
                     "store", "stash", "stow", "shift", "keep", "return", "transfer", "load", "relocate", "position"],
                    Intent.put),
    **dict.fromkeys(["tidy", "clean", "clear", "organize", "organise", "declutter"], Intent.put_away),
    **dict.fromkeys(["open", "unlock", "unseal"], Intent.open),
    **dict.fromkeys(["close", "shut", "lock", "seal"], Intent.close),
    **dict.fromkeys(["find", "locate", "search", "seek", "look", "check", "spot", "track", "hunt"], Intent.find),
    **dict.fromkeys(["go", "navigate", "drive", "head", "come", "walk", "proceed", "visit", "roll", "wait",
                     "stay", "park"], Intent.go),
    **dict.fromkeys(["make", "prepare", "fix", "mix", "pour", "brew", "serve"], Intent.drink),
}
# "bring me the mug" vs "bring the mug to the kitchen": fetch verbs whose object goes to someone.
RECIPIENT_PREPS = frozenset({"to", "for"})
# Verbs that wrap the real request: "can you tell me where ...", "I want you to bring ...".
WRAPPER_VERBS = frozenset({"tell", "know", "wonder", "remember", "recall", "show", "let", "mind", "want",
                           "need", "like", "love", "ask", "help", "think", "say", "figure", "guess", "try",
                           "see", "check", "mean", "request", "hope", "happen", "list", "name", "describe", "explain",
                           "wonder", "care", "bother", "manage", "able", "possible", "remind"})
# Where-is in disguise: "I can't find my keys", "I lost my phone", "I'm looking for the remote".
LOST_VERBS = frozenset({"find", "lose", "misplace", "locate", "look", "search", "seek", "miss"})
# Seeing and keeping verbs: "where did you see X", "have you seen X", "where do you keep X".
SEE_VERBS = frozenset({"see", "spot", "notice", "observe", "find", "come", "catch"})
PLACE_VERBS = frozenset({"leave", "put", "place", "set", "drop", "store", "keep", "stash", "hide", "move"})
GO_VERBS = frozenset({"go", "belong", "live", "stay", "sit"})  # "where does the fork go"
HABIT_ADVERBS = frozenset({"usually", "normally", "typically", "generally", "always", "often", "mostly",
                           "regularly", "habitually", "tend"})

WH_WORDS = frozenset({"where", "what", "which", "who", "whom", "whose", "when", "how", "why"})
ATTRIBUTE_NOUNS = {"colour": "color", "color": "color", "material": "material", "size": "size",
                   "shape": "shape", "brand": "brand", "kind": "kind", "type": "kind", "make": "brand"}
ROOM_NOUNS = frozenset({"room", "place", "area", "part"})  # "which room is X in", "what part of the house"

# State words as people say them -> memory's state names (core.models.STATE_FAMILIES).
STATE_WORDS = {"open": "open", "opened": "open", "closed": "closed", "shut": "closed",
               "locked": "locked", "lock": "locked", "unlocked": "unlocked", "on": "on", "off": "off",
               "clean": "clean", "dirty": "dirty", "full": "full", "empty": "empty", "plugged": "plugged_in",
               "unplugged": "unplugged", "broken": "broken", "working": "working", "running": "on",
               "switched": "on", "turned": "on", "ajar": "open", "free": "free", "occupied": "occupied",
               "wet": "wet", "dry": "dry", "hot": "hot", "cold": "cold"}
USABLE_WORDS = frozenset({"usable", "available", "working", "accessible", "reachable", "operational",
                          "functional", "openable", "ok", "okay", "fine", "free", "use", "reach", "access",
                          "work", "function", "operate", "usable", "good"})

# Spatial prepositions (closed class) -> request relation; multi-word ones are joined by the parser.
SPATIAL_PREPS = {
    "in": "in", "inside": "in", "into": "in", "within": "in", "in_side": "in",
    "on": "on", "onto": "on", "upon": "on", "atop": "on", "on_top": "on", "over": "above", "above": "above",
    "under": "under", "underneath": "under", "beneath": "under", "below": "under",
    "near": "near", "by": "near", "beside": "next_to", "next": "next_to", "next_to": "next_to",
    "closest": "next_to", "nearest": "next_to", "nearer": "near", "closer": "near",
    "close_to": "near", "alongside": "next_to", "nearby": "near", "around": "near",
    "behind": "behind", "in_front": "in_front_of", "front": "in_front_of",
    "at": "at", "from": "from", "out": "from", "off": "from", "out_of": "from",
}
DESTINATION_PREPS = frozenset({"in", "on", "into", "onto", "inside", "under", "next_to", "beside", "near",
                               "by", "on_top", "behind", "in_front", "above", "over", "to", "at", "upon",
                               "underneath", "beneath", "below", "next", "close_to", "in_side"})

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
                "forty": 40, "fifty": 50, "sixty": 60, "a": 1, "an": 1, "couple": 2, "few": 3, "half": 0.5}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1, "final": -1}
DETERMINERS = {"the": "the", "this": "the", "that": "the", "these": "the", "those": "the", "a": "a", "an": "a",
               "any": "any", "every": "every", "each": "every", "all": "all", "both": "both", "some": "some",
               "no": "no", "another": "a", "either": "any"}
PRONOUNS = frozenset({"it", "them", "that", "this", "those", "these", "one", "ones", "him", "her", "same"})
INDEFINITE_PRONOUNS = frozenset({"something", "anything", "stuff", "thing", "things", "somewhere", "anywhere"})

# Time words, all read against event time (the message stamps), never the wall clock.
UNIT_SECONDS = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600, "hr": 3600, "day": 86400,
                "week": 604800}
ORIGINAL_WORDS = frozenset({"originally", "initially", "first", "beginning", "start", "earlier", "before",
                            "previously", "formerly", "used", "once", "ago", "prior"})
PART_OF_DAY = frozenset({"morning", "afternoon", "evening", "night", "tonight"})
GREETINGS = frozenset({"hi", "hello", "hey", "thanks", "thank", "cheers", "bye", "goodbye", "ok", "okay"})
SPEAKER_WORDS = frozenset({"i", "me", "we", "us", "my", "our", "mine", "ours", "myself"})
ROBOT_WORDS = frozenset({"you", "robot", "yourself", "your"})
# Rooms of a home, as people name them: a room phrase on a command is a hint about where the thing is.
ROOM_WORDS = frozenset({"kitchen", "bedroom", "bathroom", "room", "hall", "hallway", "corridor", "office",
                        "study", "garage", "basement", "cellar", "attic", "nursery", "pantry", "lounge", "den",
                        "porch", "balcony", "laundry", "toilet", "washroom", "restroom", "kitchenette",
                        "livingroom", "diningroom", "entrance", "entryway", "foyer", "landing", "upstairs",
                        "downstairs", "patio", "terrace", "garden", "yard", "playroom", "library", "gym"})
# the rooms as a regex alternation, longest first (ties by name, so every process compiles the same pattern)
ROOMS_RE = "|".join(sorted(ROOM_WORDS | {"living room", "dining room"}, key=lambda r: (-len(r), r)))
# The whole home: "are there any stoves in the house?" names no room.
HOME_WORDS = frozenset({"house", "home", "apartment", "flat", "place", "building", "anywhere", "everywhere",
                        "somewhere"})
# Parts that name their whole: "the microwave door", "the fridge handle", "the drawer knob".
# parts inside a container that a thing is set on ("the top shelf of the fridge", "the rack in the dishwasher"):
# said of a container, they say where in it, not another place
INNER_PARTS = frozenset({"shelf", "shelves", "rack", "tray", "compartment", "drawer"})
PART_WORDS = frozenset({"door", "doors", "lid", "handle", "knob", "front", "top", "inside"})
# "my keys have gone missing", "the remote disappeared": where-is said as a complaint.
MISSING_WORDS = frozenset({"missing", "gone", "disappear", "vanish", "lost", "misplace", "misplaced", "walkabout"})
# Nouns after spatial prepositions that never name a place: time ("at the moment", "in a minute") and
# manner ("by any chance", "by the way", "by mistake").
NOT_PLACE_NOUNS = frozenset({"moment", "minute", "second", "time", "while", "present", "sec", "mo", "instant",
                             "chance", "way", "mistake", "accident", "luck", "means", "point", "stage"})
# Parts of a thing that name a place on it: "on top of the fridge", "at the foot of the bed".
PART_NOUNS = frozenset({"top", "side", "front", "back", "bottom", "middle", "edge", "end", "foot", "corner",
                        "centre", "center", "far"})
# ... and the sides of a thing ("to the left of the jug": beside it); together the words for a spot on or by a thing
SIDE_WORDS = frozenset({"left", "right"})
SPOT_WORDS = PART_NOUNS | SIDE_WORDS | {"rear"}
# the relations that say a spot by a thing rather than a place to set it on or in ("next to the mug")
BESIDE_RELATIONS = frozenset({"next_to", "near", "behind", "in_front_of", "above"})
# Colour words (closed class as far as a home robot's memory goes): a colour said before a noun is a modifier
# even where the tagger made it part of a compound ("the silver key", "the grey blanket").
COLOUR_WORDS = frozenset("""red orange yellow green blue purple violet pink brown black white grey gray silver gold
beige cream navy teal turquoise maroon""".split())

# how a person says they need something without naming it, and the use that meets the need ("I'm so thirsty,
# can you get me something": something to drink); the states a robot can serve by fetching, nothing more
NEED_STATES: dict[str, str] = {"thirsty": "drink", "parched": "drink", "dehydrated": "drink",
                               "hungry": "eat", "starving": "eat", "starved": "eat", "peckish": "eat",
                               "famished": "eat", "ravenous": "eat"}


def need_text(use: str) -> str:
    """How a thing wanted for a need is said, for grounding to rank by: hunger is met by something one eats as
    it is (a snack), not by what must first be cooked."""
    return "eat a snack" if use == "eat" else f"something to {use}"
