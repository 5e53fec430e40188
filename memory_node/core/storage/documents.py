"""What a search index holds of a record, the same on every backend: an entity's words (label, name, id,
room, location, states, attributes) and how many of a request's terms a document contains."""

from __future__ import annotations

import re
from collections.abc import Sequence

# Words the entity FTS documents may lack although ``entity_words`` has them: an attribute's value is
# indexed only when it has letters and is not 'true' or 'yes' (schema migration 2), so a word without
# letters, or one inside 'true' or 'yes', cannot be looked up through the index.
FTS_BLIND = frozenset({"tru", "rue", "true", "yes"})


def entity_words(data: dict) -> str:
    """An entity's searchable text (what its FTS document holds), lower case."""
    loc = data.get("location") or {}
    bits = [data.get("label", ""), data.get("name", ""), data.get("id", ""), data.get("room", ""),
            loc.get("predicate", ""), loc.get("object", ""), *data.get("states", [])]
    for key, value in (data.get("attributes") or {}).items():
        bits += [key, value]
    return " ".join(bits).lower()


def words_matched(terms: Sequence[str], doc: str) -> int:
    return sum(t in doc for t in terms)


def fts_blind(term: str) -> bool:
    """Whether an entity may contain the word where its FTS document does not (see ``FTS_BLIND``)."""
    return re.search("[a-z]", term) is None or term in FTS_BLIND
