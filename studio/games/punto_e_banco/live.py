"""Punto e Banco's shared live table on the serial shoe ("punto-e-banco-live"): the same hand
as the virtual table (`round.py`), from a shoe of eight decks with a cut card and burn cards,
and the scoreboards baccarat players follow (bead plate, big road, the derived roads, the
shoe's counts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from studio.games.punto_e_banco.game import PuntoEBanco
from studio.games.punto_e_banco.roads import roads


class PuntoEBancoLive(PuntoEBanco):
    """The shared live table ("punto-e-banco-live"): the same hand, from the shoe."""

    name = "punto-e-banco-live"
    page = "live.html"
    cross_checks = True  # the recogniser knows the French 52 (eight decks: repeats allowed)
    camera_places: Mapping[str, int | str] = {"punto": 1, "banco": "dealer"}

    def shoe_view(self, closed: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The scoreboards of the shoe so far, from its hands' summaries (oldest first)."""
        hands = [c for c in closed if c.get("outcome")]
        view = roads([c["outcome"] for c in hands])
        view["pairs"] = {"punto_pair": sum(1 for c in hands if c.get("punto_pair")),
                         "banco_pair": sum(1 for c in hands if c.get("banco_pair"))}
        return view


GAME = PuntoEBancoLive()
