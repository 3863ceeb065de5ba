"""The card shuffler reader: SHUFFLER_STATE frames become ShufflerState events.

The shuffler announces "shuffling" and then "deck ready <set id>" for every deck it prepares.
The table decides when that deck goes into the shoe and then calls
`ShoeReader.set_deck_set(event.deck_set)`; `on_deck_ready` can wire that directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from devices import protocol as p
from devices.events import ShufflerPhase, ShufflerState
from devices.serial_link import DEFAULT_HEARTBEAT_TIMEOUT_S, DeviceReader, resolve_port

_PHASES = {
    p.ShufflerStateCode.IDLE: ShufflerPhase.IDLE,
    p.ShufflerStateCode.SHUFFLING: ShufflerPhase.SHUFFLING,
    p.ShufflerStateCode.DECK_READY: ShufflerPhase.DECK_READY,
    p.ShufflerStateCode.ERROR: ShufflerPhase.ERROR,
}


class ShufflerReader(DeviceReader):
    """Reads a shuffler on a serial port (see DeviceReader for the link arguments).

    on_deck_ready: optional, called with the set id of each deck the shuffler has made ready,
        before the ShufflerState event is queued.
    """

    kind = p.DeviceKind.SHUFFLER
    accepted_types = frozenset({p.MsgType.SHUFFLER_STATE})

    def __init__(
        self,
        port: str,
        baud: int = 115200,
        *,
        on_deck_ready: Callable[[str], None] | None = None,
        **link: Any,
    ) -> None:
        super().__init__(port, baud, **link)
        self.on_deck_ready = on_deck_ready
        self.state: ShufflerPhase | None = None
        self.ready_deck_set: str | None = None

    @classmethod
    def from_config(cls, device: Any, *, table_id: str, **kw: Any) -> ShufflerReader:
        """From a config SerialDevice (port "sim" = the simulator's link for this table)."""
        kw.setdefault("name", f"{table_id}/shuffler")
        kw.setdefault("heartbeat_timeout_s",
                      getattr(device, "heartbeat_timeout_s", DEFAULT_HEARTBEAT_TIMEOUT_S))
        return cls(resolve_port(device.port, table_id, "shuffler"), device.baud, **kw)

    def _on_message(self, frame: p.Frame, msg: p.Message, gap: bool, now: float) -> bool:
        assert isinstance(msg, p.ShufflerStateMsg)
        phase = _PHASES[msg.state]
        self.state = phase
        deck_set = msg.deck_set if phase is ShufflerPhase.DECK_READY else None
        error = msg.error_code if phase is ShufflerPhase.ERROR else None
        if deck_set is not None:
            self.ready_deck_set = deck_set
            if self.on_deck_ready is not None:
                self.on_deck_ready(deck_set)
        self._emit(ShufflerState(self.name, phase, deck_set, error, frame.seq, now))
        return True
