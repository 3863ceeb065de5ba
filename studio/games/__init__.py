"""The games the studio serves, one package each (`studio/games/<game>/`).

`GAMES` maps a table's `game` (as in config/studio.toml) to the module holding its `GAME`, the
object the table core drives (`studio.table.seam.Game`). Adding a game adds a line here; the
core (actor, ledger, storage, audit, web) never names a game.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.table.seam import Game

GAMES: dict[str, str] = {
    "sette-e-mezzo-live": "studio.games.sette_e_mezzo_live.game",
    "sette-e-mezzo-quota-fissa": "studio.games.sette_e_mezzo_quota_fissa.game",
    "punto-e-banco": "studio.games.punto_e_banco.game",
    "punto-e-banco-live": "studio.games.punto_e_banco.live",
    "blackjack": "studio.games.blackjack.game",
    "blackjack-live": "studio.games.blackjack.live",
    # a seated table (players bank for each other): `studio.table.seated.SeatedGame`
    "sette-e-mezzo-multiplayer": "studio.games.sette_e_mezzo_multiplayer.game",
}


class UnknownGame(LookupError):
    """A table names a game the studio does not serve."""


def game_for(name: str) -> Game:
    """The game object of `name` (imported on first use)."""
    module = GAMES.get(name)
    if module is None:
        raise UnknownGame(f"no game called {name!r} is served (served: {', '.join(GAMES)})")
    return importlib.import_module(module).GAME  # type: ignore[no-any-return]


def served(name: str) -> bool:
    return name in GAMES
