"""The card shoe reader: turns CARD frames into CardDrawn events, and nothing else into cards.

A card is delivered only when its frame is well framed, in sequence (no frames lost before it,
not a repeat), of the deck set the table told us (`set_deck_set`, normally the set the shuffler
announced), a card of the table's deck kind, not drawn more often from that set than the set has
copies of it (`decks`: an 8-deck baccarat shoe holds eight of each), and expected by the table
(`expecting_card`). Anything else is a DeviceFault with a stable code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from devices import protocol as p
from devices.events import CardDrawn, FaultCode, ShoeState, ShoeStatus
from devices.serial_link import DEFAULT_HEARTBEAT_TIMEOUT_S, DeviceReader, resolve_port
from studio.cards import Card, CardCodeError, DeckKind, deck, parse_card

_SHOE_STATES = {
    p.ShoeStatusCode.READY: ShoeState.READY,
    p.ShoeStatusCode.EMPTY: ShoeState.EMPTY,
    p.ShoeStatusCode.DOOR_OPEN: ShoeState.DOOR_OPEN,
    p.ShoeStatusCode.JAM: ShoeState.JAM,
    p.ShoeStatusCode.CUT_CARD: ShoeState.CUT_CARD,
}


class ShoeReader(DeviceReader):
    """Reads a card shoe on a serial port (see DeviceReader for the link arguments).

    deck_set: the deck set now in the shoe; None = refuse every card until `set_deck_set`.
    deck_kind: which cards exist (a 40-card deck has no 8, 9, 10).
    decks: how many decks one deck set holds (each card that many times).
    expecting_card: called when a card arrives; False makes it a CARD_UNEXPECTED fault. It is
        evaluated on arrival, so a table should count the cards it has been sent but not yet
        consumed.
    """

    kind = p.DeviceKind.SHOE
    accepted_types = frozenset({p.MsgType.CARD, p.MsgType.SHOE_STATUS})

    def __init__(
        self,
        port: str,
        baud: int = 115200,
        *,
        deck_set: str | None = None,
        deck_kind: DeckKind | str = DeckKind.ITALIAN_40,
        decks: int = 1,
        expecting_card: Callable[[], bool] | None = None,
        **link: Any,
    ) -> None:
        super().__init__(port, baud, **link)
        self.deck_kind = DeckKind(deck_kind)
        self._deck_cards = frozenset(deck(self.deck_kind))
        self.expecting_card = expecting_card
        if decks < 1:
            raise ValueError("a deck set holds at least one deck")
        self.decks = decks
        self.deck_set: str | None = None
        self._drawn: Counter[Card] = Counter()
        if deck_set is not None:
            self.set_deck_set(deck_set)

    @classmethod
    def from_config(cls, device: Any, *, table_id: str, **kw: Any) -> ShoeReader:
        """From a config SerialDevice (port "sim" = the simulator's link for this table)."""
        kw.setdefault("name", f"{table_id}/shoe")
        kw.setdefault("heartbeat_timeout_s",
                      getattr(device, "heartbeat_timeout_s", DEFAULT_HEARTBEAT_TIMEOUT_S))
        return cls(resolve_port(device.port, table_id, "shoe"), device.baud, **kw)

    def set_deck_set(self, deck_set: str) -> None:
        """The deck now in the shoe; cards of any other set are refused from now on."""
        if deck_set != self.deck_set:
            self.deck_set = deck_set
            self._drawn = Counter()

    @property
    def drawn(self) -> frozenset[Card]:
        """The cards drawn from the current deck set (delivered or refused as unexpected)."""
        return frozenset(self._drawn)

    @property
    def cards_drawn(self) -> int:
        """How many cards have left the current deck set (copies counted)."""
        return self._drawn.total()

    def _on_message(self, frame: p.Frame, msg: p.Message, gap: bool, now: float) -> bool:
        if isinstance(msg, p.ShoeStatusMsg):
            self._emit(ShoeStatus(self.name, _SHOE_STATES[msg.status], frame.seq, now))
            return True
        assert isinstance(msg, p.CardMsg)
        problem = self._check_card(msg)
        if isinstance(problem, tuple):
            self.fault(problem[0], problem[1], frame.raw, frame.seq, now)
            return False
        card = problem
        self._drawn[card] += 1  # it is out of the shoe, whatever the table makes of it
        if gap:
            return False  # the gap fault is out; a card after lost frames is never dealt
        if self.expecting_card is not None and not self.expecting_card():
            self.fault(FaultCode.CARD_UNEXPECTED, f"{card} while the table expects no card",
                       frame.raw, frame.seq, now)
            return False
        self.counters["cards"] += 1
        self._emit(CardDrawn(card, msg.deck_set, frame.seq, self.name, now, frame.raw))
        return True

    def _check_card(self, msg: p.CardMsg) -> Card | tuple[FaultCode, str]:
        try:
            card = parse_card(msg.code)
        except CardCodeError:
            return FaultCode.CARD_BAD_CODE, f"card code {msg.code!r}"
        if self.deck_set is None:
            return FaultCode.CARD_NO_DECK_SET, f"card of set {msg.deck_set!r}; no deck set told"
        if msg.deck_set != self.deck_set:
            return (FaultCode.CARD_WRONG_DECK_SET,
                    f"card of set {msg.deck_set!r}, the shoe holds {self.deck_set!r}")
        if card not in self._deck_cards:
            return FaultCode.CARD_NOT_IN_DECK, f"{card} is not in a {self.deck_kind} deck"
        if self._drawn[card] >= self.decks:
            times = "twice" if self.decks == 1 else f"{self.decks + 1} times"
            return FaultCode.CARD_REPEATED, f"{card} drawn {times} from set {self.deck_set!r}"
        return card
