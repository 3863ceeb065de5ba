"""A simulated card shoe that speaks our wire protocol on a pty (or a real port).

It deals from a deck set of `decks` decks of its kind (one 40-card deck for Sette e Mezzo, eight
52-card decks for baccarat) shuffled with random.SystemRandom (or a seeded Random, or a script
of card codes), tagged with the deck set id the shuffler announced (`load_deck`). With a cut
card (`cut_card`: that many cards behind it), the shoe reports SHOE_STATUS cut_card as the cut
card comes out, right after the card before it. Commands (besides those of DeviceSim):

    deal              the next card of the deck (SHOE_STATUS empty when none is left)
    deal Kd           that card (taken out of the deck if it is in it)
    deal all          every card left
    deck SET [cards]  a new deck with set id SET: shuffled, or exactly these cards in order
    cut N             the cut card N cards from the end of the deck in the shoe (0: none)
    status STATE      ready | empty | door_open | jam
    fault foreign [SET]  a card of another deck set (default FOREIGN)
    fault repeat      the last card dealt again, with a new sequence number
    fault badcode     a card frame whose code is not a card
"""

from __future__ import annotations

from typing import Any

from devices import protocol as p
from devices.pty_pair import SimLink
from devices.sim_device import COMMON_FAULTS, DeviceSim, SimError
from studio.cards import Card, CardCodeError, DeckKind, deck, parse_card, parse_cards

_STATUS = {s.name.lower(): s for s in p.ShoeStatusCode}


class ShoeSim(DeviceSim):
    kind = p.DeviceKind.SHOE
    duplicate_type = p.MsgType.CARD
    faults = COMMON_FAULTS + ("foreign", "repeat", "badcode")

    def __init__(
        self,
        link: SimLink,
        *,
        deck_set: str = "D1",
        deck_kind: DeckKind | str = DeckKind.ITALIAN_40,
        script: list[Card] | None = None,
        decks: int = 1,
        cut_card: int | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(link, **kw)
        self.deck_kind = DeckKind(deck_kind)
        self.decks = decks
        self.cut_card = cut_card  # cards behind the cut card in each new deck; None: no cut card
        self.cut_at: int | None = None  # the cut card comes out when this many cards remain
        self.deck_set = deck_set
        self.remaining: list[Card] = []
        self.dealt: list[tuple[int, Card]] = []  # (seq, card), including lost frames
        self.load_deck(deck_set, script)

    def load_deck(self, deck_set: str, cards: list[Card] | None = None) -> None:
        """A new deck in the shoe: these cards in order, or a fresh shuffled deck."""
        if not p.DECK_SET_RE.match(deck_set):
            raise SimError("sim.bad_deck_set", f"deck set {deck_set!r} must match "
                           f"{p.DECK_SET_RE.pattern}")
        self.deck_set = deck_set
        if cards is None:
            cards = deck(self.deck_kind) * self.decks
            self.rng.shuffle(cards)
        self.remaining = list(cards)
        self.cut_at = self.cut_card if self.cut_card and self.cut_card < len(cards) else None

    async def _cut_card(self) -> None:
        """The card before the cut card has just left: the cut card comes out with it."""
        if self.cut_at is not None and len(self.remaining) == self.cut_at:
            self.cut_at = None
            await self.set_status(p.ShoeStatusCode.CUT_CARD)

    async def deal_next(self) -> Card | None:
        """Deal the top card; with the shoe empty, report EMPTY and return None."""
        if not self.remaining:
            await self.set_status("empty")
            return None
        card = self.remaining.pop(0)
        await self._send_card(card)
        await self._cut_card()
        return card

    async def deal(self, card: Card | str) -> Card:
        """Deal this card (the technician's choice); it leaves the deck if it was in it."""
        if isinstance(card, str):
            try:
                card = parse_card(card)
            except CardCodeError as e:
                raise SimError(e.code, str(e)) from None
        if card in self.remaining:
            self.remaining.remove(card)
        await self._send_card(card)
        await self._cut_card()
        return card

    async def _send_card(self, card: Card) -> int:
        seq = await self.send(p.CardMsg(card.code, self.deck_set))
        self.dealt.append((seq, card))
        return seq

    async def set_status(self, status: str | p.ShoeStatusCode) -> int:
        if isinstance(status, str):
            if status not in _STATUS:
                raise SimError("sim.bad_argument", f"status one of {', '.join(_STATUS)}")
            status = _STATUS[status]
        return await self.send(p.ShoeStatusMsg(status))

    async def _fault_foreign(self, arg: str | None) -> str:
        other = arg or "FOREIGN"
        card = self.rng.choice(deck(self.deck_kind))
        await self.send(p.CardMsg(card.code, other))
        return f"card of deck set {other}"

    async def _fault_repeat(self, arg: str | None) -> str:
        if not self.dealt:
            raise SimError("sim.nothing_to_repeat", "no card dealt yet")
        card = self.dealt[-1][1]
        await self._send_card(card)
        return "last card dealt again"

    async def _fault_badcode(self, arg: str | None) -> str:
        await self.send(p.CardMsg("Zz", self.deck_set))
        return "card frame with code Zz"

    async def _command(self, verb: str, args: list[str]) -> str:
        if verb == "deal":
            if not args:
                card = await self.deal_next()
                return f"ok dealt {card} seq={self.last_seq}" if card else "ok empty"
            if args[0].lower() == "all":
                n = 0
                while self.remaining:
                    await self.deal_next()
                    n += 1
                return f"ok dealt {n}"
            card = await self.deal(args[0])
            return f"ok dealt {card} seq={self.last_seq}"
        if verb == "deck":
            if not args:
                raise SimError("sim.missing_argument", "deck SET [cards...]")
            try:
                cards = parse_cards(args[1:]) if len(args) > 1 else None
            except CardCodeError as e:
                raise SimError(e.code, str(e)) from None
            self.load_deck(args[0], cards)
            return f"ok deck {self.deck_set} cards={len(self.remaining)}"
        if verb == "cut":
            try:
                n = int(args[0]) if args else -1
            except ValueError:
                n = -1
            if not 0 <= n < len(self.remaining):
                raise SimError("sim.bad_argument",
                               f"cut N: 0 to {len(self.remaining) - 1} cards behind the cut card")
            self.cut_at = n or None
            return f"ok cut card {n} from the end" if n else "ok no cut card"
        if verb == "status":
            if not args:
                raise SimError("sim.missing_argument", "status STATE")
            return f"ok status seq={await self.set_status(args[0].lower())}"
        return await super()._command(verb, args)

    def info(self) -> str:
        return f"{super().info()} deck_set={self.deck_set} remaining={len(self.remaining)}"
