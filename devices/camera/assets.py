"""Card scans shipped with the project (devices/assets/cards/<art>/) and how they were made.

The shared scans (/work/shared/cards) are 330-390 px wide. A card on the 1280x720 table image is
at most ~130 px wide, and the recogniser compares cards at 40x60 px, so the shipped copies are
downscaled to 300 px high (JPEG quality 90): recognition is unchanged and the repository holds
~2 MB instead of ~7 MB. `python -m devices.camera.assets SRC` remakes them.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from studio.cards import Card, DeckArt, DeckKind, deck, scan_file_name

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets" / "cards"
SCAN_HEIGHT = 300
JPEG_QUALITY = 90
BACK_FILE = "bg.jpg"


class AssetError(FileNotFoundError):
    """A card scan is missing from devices/assets/cards."""

    code = "camera.asset_missing"


def deck_cards(art: DeckArt | str, kind: DeckKind | str | None = None) -> list[Card]:
    """The cards of one art: Italian arts hold 40, the French art holds all 52 unless told."""
    art = DeckArt(art)
    if kind is None:
        kind = DeckKind.FRENCH_52 if art is DeckArt.FRENCH else DeckKind.ITALIAN_40
    return deck(kind)


@cache
def _read(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise AssetError(f"card scan missing or unreadable: {path}")
    image.setflags(write=False)
    return image


def card_scan(card: Card, art: DeckArt | str) -> np.ndarray:
    """The card's face scan (BGR, read-only, cached)."""
    return _read(ASSETS_DIR / DeckArt(art).value / scan_file_name(card, art))


def back_scan(art: DeckArt | str) -> np.ndarray:
    """The card back of this art (BGR, read-only, cached)."""
    return _read(ASSETS_DIR / DeckArt(art).value / BACK_FILE)


def import_scans(source: Path, target: Path = ASSETS_DIR) -> int:
    """Copy the napoletane, piacentine and french scans, downscaled; returns files written."""
    written = 0
    for art in DeckArt:
        (target / art.value).mkdir(parents=True, exist_ok=True)
        names = [scan_file_name(c, art) for c in deck_cards(art)] + [BACK_FILE]
        for name in names:
            image = cv2.imread(str(source / art.value / name), cv2.IMREAD_COLOR)
            if image is None:
                raise AssetError(f"source scan missing: {source / art.value / name}")
            h, w = image.shape[:2]
            size = (round(w * SCAN_HEIGHT / h), SCAN_HEIGHT)
            small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(target / art.value / name), small,
                        [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            written += 1
    return written


if __name__ == "__main__":
    print(import_scans(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/cards")))
