"""A simulated card shuffler: for each deck it announces "shuffling", then "deck ready <set id>".

Commands (besides those of DeviceSim):

    shuffle [SET]   shuffle a deck (set id SET, or the next generated one)
    error CODE      report an error state with a device error code (1..65535)
    idle            report idle
"""

from __future__ import annotations

from typing import Any

from devices import protocol as p
from devices.pty_pair import SimLink
from devices.sim_device import DeviceSim, SimError


class ShufflerSim(DeviceSim):
    kind = p.DeviceKind.SHUFFLER
    duplicate_type = p.MsgType.SHUFFLER_STATE

    def __init__(
        self,
        link: SimLink,
        *,
        set_prefix: str | None = None,
        shuffle_s: float = 0.0,
        **kw: Any,
    ) -> None:
        super().__init__(link, **kw)
        # A random prefix, so a restarted simulator never reuses an earlier run's set ids.
        self.set_prefix = set_prefix or f"S{self.rng.getrandbits(16):04X}"
        self.shuffle_s = shuffle_s
        self.decks_made = 0
        self.ready_deck_set: str | None = None

    def next_set_id(self) -> str:
        return f"{self.set_prefix}-{self.decks_made + 1}"

    async def shuffle(self, deck_set: str | None = None) -> str:
        """Shuffle one deck: SHUFFLING, (shuffle_s later) DECK_READY. Returns the set id."""
        deck_set = deck_set or self.next_set_id()
        if not p.DECK_SET_RE.match(deck_set):
            raise SimError("sim.bad_deck_set",
                           f"deck set {deck_set!r} must match {p.DECK_SET_RE.pattern}")
        await self.send(p.ShufflerStateMsg(p.ShufflerStateCode.SHUFFLING))
        if self.shuffle_s:
            await self._sleep(self.shuffle_s)
        await self.send(p.ShufflerStateMsg(p.ShufflerStateCode.DECK_READY, deck_set))
        self.decks_made += 1
        self.ready_deck_set = deck_set
        return deck_set

    async def error(self, code: int) -> int:
        if not 1 <= code <= 0xFFFF:
            raise SimError("sim.bad_argument", "error code must be 1..65535")
        return await self.send(p.ShufflerStateMsg(p.ShufflerStateCode.ERROR, error_code=code))

    async def idle(self) -> int:
        return await self.send(p.ShufflerStateMsg(p.ShufflerStateCode.IDLE))

    async def _command(self, verb: str, args: list[str]) -> str:
        if verb == "shuffle":
            return f"ok deck ready {await self.shuffle(args[0] if args else None)}"
        if verb == "error":
            try:
                code = int(args[0]) if args else 0
            except ValueError:
                raise SimError("sim.bad_argument", f"{args[0]!r} is not a number") from None
            return f"ok error seq={await self.error(code)}"
        if verb == "idle":
            return f"ok idle seq={await self.idle()}"
        return await super()._command(verb, args)

    def info(self) -> str:
        return f"{super().info()} ready_deck_set={self.ready_deck_set}"
