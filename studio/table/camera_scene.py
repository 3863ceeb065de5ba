"""Mirror a table's round onto the simulated table camera, so the video players watch shows the
cards as they are dealt (the demo and rehearsals have no real table to film).

Only public events drive it: the burn card stays face down in the shoe, off camera.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from devices.camera.sim_camera import SceneError, SimCamera
from studio.table.hub import Hub

log = logging.getLogger(__name__)


def mirror_on_camera(hub: Hub, table_id: str, camera: SimCamera,
                     places: Mapping[str, int | str] | None = None) -> Callable[[], None]:
    """Lay each dealt card where it was dealt; clear the table when a new round opens.
    `places`: the camera area of each place of the game's own (Punto -> 1, Banco -> the
    dealer's box). Returns the unsubscribe function."""
    places = places or {}

    def on_event(table: str, audience: str, ev: dict[str, Any]) -> None:
        if table != table_id or audience != "public":
            return
        try:
            if ev["type"] == "betting_opened":
                camera.remove_cards()
            elif ev["type"] == "card_dealt" and ev.get("card"):
                to = ev.get("to")
                where = "dealer" if to == "dealer" else places[to] if to in places \
                    else int(ev["position"])
                camera.place_card(ev["card"], where)
        except SceneError as e:  # the picture may miss a card; the round never depends on it
            log.warning("table %s camera scene: %s", table_id, e)

    return hub.subscribe(on_event)
