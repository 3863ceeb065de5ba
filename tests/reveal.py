"""Whether a card code (or a name, an amount) shows in text a player or a page receives.

A plain substring test flakes: session ids and tokens are random base64 and hold "Ab" or
"Tc" about once in a hundred messages. A card reaches a page or a message as a word of its
own (a JSON string, `data-card="Tc"`, `/cards/x/Tc.jpg`), never glued to letters or digits.
"""

from __future__ import annotations

import re


def shows(text: object, word: str) -> bool:
    """True when word appears in str(text) with no letter or digit on either side."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", str(text)) is not None
