"""A multiplayer cash table as one pure state machine around the banks.

`step(table, input)` -> (table, events, moves). Inputs are plain dicts (the table core logs
them and a replay feeds them again): a player's command (sit, rebuy, leave, sitout, accept,
refuse, join, stake, decide), a card or a shuffle from the table's RNG shoe, a timer's expiry.
What the table holds: the seats and each player's table credit, who is in sitout, who has bet
here (the bank's rotation skips the others), each player's consecutive skipped banks, the bank
offered or in play, and the decision timer of whoever must act.

Money: a `Move` is a transfer between the table's accounts, named for the core: ``seat:<p>``
(a player's table credit), ``pool`` (the piatto), ``rake`` and ``wallet:<p>`` (the player's
account). Moves are computed as the change of what the table holds (`holdings`) around each
part of a step, so a hand settles in ONE move: the punter's seat, the piatto and the rake at
once. A stake in play still counts as its owner's table credit until the hand ends, so a hand
never half-moves money, and a hand voided (a restart) moves nothing back (`void`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from studio.cards import parse_card
from studio.games.sette_e_mezzo_multiplayer import advance, classica, piatto
from studio.games.sette_e_mezzo_multiplayer.acceptance import tournament_refusal_penalty
from studio.games.sette_e_mezzo_multiplayer.advance import Presets
from studio.games.sette_e_mezzo_multiplayer.attendance import IDLE_SECONDS, after_bank
from studio.games.sette_e_mezzo_multiplayer.autoplay import AutoPlay, auto_hits
from studio.games.sette_e_mezzo_multiplayer.banker import next_banker, seat_of, to_the_right
from studio.games.sette_e_mezzo_multiplayer.classica import ClassicaBank
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError
from studio.games.sette_e_mezzo_multiplayer.piatto import PiattoBank
from studio.games.sette_e_mezzo_multiplayer.table_rules import TableRules, Variant
from studio.games.sette_e_mezzo_multiplayer.turns import Phase, require

Bank = PiattoBank | ClassicaBank
EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Setup:
    """What the configuration fixes for a table."""

    rules: TableRules
    seats: int
    buy_in_min: int
    buy_in_max: int
    decision_s: float
    idle_s: float = IDLE_SECONDS

    def __post_init__(self) -> None:
        require(2 <= self.seats <= 7, "mp.bad_seats", "a table has 2 to 7 seats")
        require(0 < self.buy_in_min <= self.buy_in_max, "mp.bad_limits", "buy-in limits")


@dataclass(frozen=True, slots=True)
class Move:
    """One transaction ticket: `legs` by account name, summing to zero."""

    ticket: int
    kind: str  # buy_in, rebuy, cash_out, bank, hand, void
    legs: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Table:
    setup: Setup
    seats: tuple[str | None, ...]
    # table credit between banks (while a bank plays, the bank's credits hold it)
    credits: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    sitout: frozenset[str] = frozenset()
    has_bet: frozenset[str] = frozenset()
    skips: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    autoplay: Mapping[str, AutoPlay] = field(default_factory=lambda: EMPTY)
    offer: str | None = None  # who is offered the bank now
    due_seat: int | None = None  # where the next offer starts; None: deal for the matta
    bank: Bank | None = None
    bank_no: int = 0
    # credit of players outside the bank in play (sat down, rebought): theirs at its end
    extra: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    leaving: frozenset[str] = frozenset()  # players of the bank who leave at its end
    tickets: int = 0
    awaiting: tuple[Any, ...] | None = None  # the decision the timer runs for
    deadline: float | None = None
    last_play: float = 0.0
    dealing: tuple[str, ...] = ()  # the matta deal in progress, players in turn
    dealt: int = 0
    fresh: bool = False  # the matta deal's deck is shuffled
    rake: int = 0  # rake of the banks closed
    results: tuple[dict[str, Any], ...] = ()  # the last hands, for the page
    # tournaments: the chips at the bank's start (who is eliminated ranks by them) and the
    # players eliminated at this table, in order
    start_credits: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    eliminated: tuple[dict[str, Any], ...] = ()
    moved_out: tuple[tuple[str, int], ...] = ()  # (player, chips) the tournament moved away
    presets: Presets = field(default_factory=lambda: EMPTY)  # decisions set in advance

    @property
    def players(self) -> list[str]:
        return [p for p in self.seats if p is not None]

    def credit(self, player: str) -> int:
        """Table credit now, outside any stake in play and rebuy pending."""
        b = self.bank
        return (b.credits.get(player, 0) if b is not None else self.credits.get(player, 0))

    def round_id(self, table_id: str) -> str | None:
        return f"{table_id}:b{self.bank_no}" if self.bank is not None else None


@dataclass
class Step:
    table: Table
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)


def new_table(setup: Setup) -> Table:
    return Table(setup, (None,) * setup.seats)


# --------------------------------------------------------------------------- what is held


def holdings(t: Table) -> dict[str, int]:
    """The money of the table by account: each seat (a stake in play and a pending rebuy
    counted as its owner's), the piatto, the rake taken."""
    out: dict[str, int] = {}

    def add(key: str, v: int) -> None:
        if v:
            out[key] = out.get(key, 0) + v

    b = t.bank
    for p, c in (t.credits if b is None else b.credits).items():
        add(f"seat:{p}", c)
    for p, c in t.extra.items():
        add(f"seat:{p}", c)
    rake = t.rake
    if b is not None:
        for p, c in b.rebuys.items():
            add(f"seat:{p}", c)
        if isinstance(b, PiattoBank):
            if b.stake and b.punter is not None:
                add(f"seat:{b.punter}", b.stake)
            add("pool", b.piatto)
        else:
            for p, s in b.stakes.items():
                add(f"seat:{p}", s)
        rake += b.rake
    add("rake", rake)
    return out


def _money_key(t: Table) -> tuple[Any, ...]:
    """What `holdings` reads, by identity: unchanged objects, unchanged money (most steps
    move none, and the states are immutable)."""
    b = t.bank
    if b is None:
        return (t.credits, t.extra, t.rake)
    inner = (b.piatto, b.stake) if isinstance(b, PiattoBank) else (b.stakes,)
    return (t.credits, t.extra, t.rake, b.credits, b.rebuys, b.rake, *inner)


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Mappings by identity (comparing their contents would cost what it saves), cents by
    value."""
    return len(a) == len(b) and all(x is y or (type(x) is int and x == y)
                                    for x, y in zip(a, b, strict=True))


class _Run:
    """One step being applied: its events and its money, marked part by part."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.moves: list[Move] = []
        self.base = t
        self._held: dict[str, int] | None = None  # holdings(base), when first needed
        self.key = _money_key(t)
        self.wallet: Mapping[str, int] = EMPTY  # the players' accounts' legs of the input

    @property
    def held(self) -> dict[str, int]:
        if self._held is None:
            self._held = holdings(self.base)
        return self._held

    def emit(self, type_: str, **data: Any) -> None:
        self.events.append((type_, data))

    def mark(self, kind: str, wallet: Mapping[str, int] = EMPTY) -> None:
        """The money moved since the last mark, as one ticket (nothing moved: no ticket)."""
        self._ticket(kind, self._moved(wallet))

    def mark_close(self, banker: str) -> None:
        """A piatto bank just ended: what the banker took back from the piatto is a ticket of
        its own ("bank_close"), after the hand that ended it (the pure bank does both in one
        step)."""
        legs = self._moved(EMPTY)
        back = legs.pop(f"seat:{banker}", 0)
        if back > 0:
            legs["pool"] = legs.get("pool", 0) + back
            self._ticket("hand", {k: v for k, v in legs.items() if v})
            self._ticket("bank_close", {f"seat:{banker}": back, "pool": -back})
        else:
            if back:
                legs[f"seat:{banker}"] = back
            self._ticket("hand", legs)

    def _moved(self, wallet: Mapping[str, int]) -> dict[str, int]:
        key = _money_key(self.t)
        if not wallet and _same(key, self.key):
            return {}
        self.key = key
        now = holdings(self.t)
        held = self.held
        legs = {k: now.get(k, 0) - held.get(k, 0) for k in {*now, *held}}
        legs.update({f"wallet:{p}": v for p, v in wallet.items()})
        self._held = now
        return {k: v for k, v in legs.items() if v}

    def _ticket(self, kind: str, legs: dict[str, int]) -> None:
        if not legs:
            return
        if sum(legs.values()) != 0:  # a bug of this module: refuse rather than book it
            raise MultiplayerError("mp.money_unbalanced", f"legs {legs} do not sum to zero")
        self.t = replace(self.t, tickets=self.t.tickets + 1)
        self.moves.append(Move(self.t.tickets, kind, MappingProxyType(legs)))


def _m(mapping: Mapping[str, Any], **changes: Any) -> Mapping[str, Any]:
    out = {**mapping, **changes}
    return MappingProxyType({k: v for k, v in out.items() if v is not None})


# --------------------------------------------------------------------------- the step


def step(t: Table, inp: Mapping[str, Any]) -> Step:
    """Apply one input; a refusal raises `MultiplayerError` (code ``mp.*``), nothing changed."""
    run = _Run(t)
    kind = inp.get("type")
    handler = _HANDLERS.get(kind)  # type: ignore[arg-type]
    if handler is None:
        raise MultiplayerError("mp.unknown_command", f"unknown command {kind!r}")
    now = float(inp.get("now", 0.0))
    handler(run, inp, now)
    b = run.t.bank
    if isinstance(b, PiattoBank) and b.phase is Phase.OVER:
        run.mark_close(b.banker)
    run.mark({"sit": "buy_in", "rebuy": "rebuy", "accept": "bank"}.get(kind, "hand"),
             run.wallet)
    _flow(run, now)
    return Step(run.t, run.events, run.moves)


def _player(run: _Run, inp: Mapping[str, Any]) -> str:
    p = inp.get("player")
    require(isinstance(p, str) and p in run.t.seats, "mp.not_at_table", "not seated here")
    return p  # type: ignore[return-value]


def _amount(inp: Mapping[str, Any], key: str = "amount") -> int:
    v = inp.get(key)
    require(type(v) is int and v > 0, "mp.bad_amount", "an amount is a positive integer of cents")
    return v  # type: ignore[return-value]


def _in_bank(t: Table, p: str) -> bool:
    b = t.bank
    return b is not None and b.phase is not Phase.OVER and (p == b.banker or p in b.punters)


def _sit(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    t = run.t
    p = inp.get("player")
    require(isinstance(p, str) and bool(p), "mp.bad_player", "who sits down")
    require(p not in t.seats, "mp.already_seated", "already seated here")
    amount = _amount(inp)
    s = t.setup
    if s.rules.tournament:  # the tournament seats its players with their chips
        require(inp.get("director") is True, "mp.tournament_seats_drawn",
                "tournament seats are drawn by the tournament")
    else:
        require(s.buy_in_min <= amount <= s.buy_in_max, "mp.buy_in_range",
                f"the buy-in is {s.buy_in_min} to {s.buy_in_max} cents")
    seat = inp.get("seat")
    if seat is None:
        seat = next((i for i, x in enumerate(t.seats) if x is None), None)
        require(seat is not None, "mp.table_full", "no free seat")
    require(type(seat) is int and 0 <= seat < len(t.seats), "mp.bad_seat", "no such seat")
    require(t.seats[seat] is None, "mp.seat_taken", "the seat is taken")
    a = inp.get("autoplay") or {}
    settings = AutoPlay(a.get("punter", AutoPlay().punter), a.get("banker", AutoPlay().banker))
    seats = list(t.seats)
    seats[seat] = p
    t = replace(t, seats=tuple(seats), autoplay=_m(t.autoplay, **{p: settings}),
                skips=_m(t.skips, **{p: 0}), last_play=t.last_play or now)
    if t.bank is not None:
        t = replace(t, extra=_m(t.extra, **{p: amount}))
    else:
        t = replace(t, credits=_m(t.credits, **{p: amount}))
    run.t = t
    run.wallet = {p: -amount}
    run.emit("seat_taken", player=p, seat=seat, amount=amount)


def _rebuy(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    t = run.t
    p = _player(run, inp)
    require(not t.setup.rules.tournament, "mp.no_rebuy_in_tournament",
            "no rebuy in a tournament")
    amount = _amount(inp)
    if _in_bank(t, p):
        module = piatto if isinstance(t.bank, PiattoBank) else classica
        t = replace(t, bank=module.rebuy(t.bank, p, amount))  # type: ignore[arg-type]
    elif t.bank is not None:
        t = replace(t, extra=_m(t.extra, **{p: t.extra.get(p, 0) + amount}))
    else:
        t = replace(t, credits=_m(t.credits, **{p: t.credits.get(p, 0) + amount}))
    run.t = t
    run.wallet = {p: -amount}
    run.emit("rebuy", player=p, amount=amount)


def _leave(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    p = _player(run, inp)
    require(not run.t.setup.rules.tournament, "mp.tournament_leave",
            "a tournament player stays until it is eliminated")
    if run.t.offer == p:
        _pass_offer(run, p, skipped=False)
    if _in_bank(run.t, p):
        run.t = replace(run.t, leaving=run.t.leaving | {p})
        run.emit("leaving", player=p)
        return
    _stand_up(run, p, "left")


def _stand_up(run: _Run, p: str, reason: str) -> None:
    """The player leaves its seat with its table credit, back to its account."""
    run.mark("hand")
    t = run.t
    credit = t.extra.get(p, 0)
    b = t.bank
    if b is not None:
        credit += b.credits.get(p, 0)
        b = replace(b, credits=_m(b.credits, **{p: None}))
    else:
        credit += t.credits.get(p, 0)
    seats = tuple(None if x == p else x for x in t.seats)
    run.t = replace(t, seats=seats, bank=b, credits=_m(t.credits, **{p: None}),
                    extra=_m(t.extra, **{p: None}), sitout=t.sitout - {p},
                    skips=_m(t.skips, **{p: None}), leaving=t.leaving - {p},
                    has_bet=t.has_bet - {p}, autoplay=_m(t.autoplay, **{p: None}),
                    offer=None if t.offer == p else t.offer,
                    dealing=() if p in t.dealing else t.dealing)
    run.mark("cash_out", {p: credit} if credit else EMPTY)
    run.emit("seat_left", player=p, reason=reason, credit=credit)


def _transfer_out(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    """The tournament moves players to another table (balancing, merging): only between
    banks; each leaves with its chips (the `seat_left` events say how many)."""
    t = run.t
    require(t.setup.rules.tournament and inp.get("director") is True, "mp.director_only",
            "only the tournament moves players")
    require(t.bank is None, "mp.bank_in_play", "players move between banks")
    players = inp.get("players")
    require(isinstance(players, list) and all(p in t.seats for p in players),
            "mp.not_at_table", "players of this table")
    for p in players:
        chips = run.t.credits.get(p, 0) + run.t.extra.get(p, 0)
        _stand_up(run, p, "moved")
        run.t = replace(run.t, moved_out=(*run.t.moved_out, (p, chips)))


def _sitout(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    p = _player(run, inp)
    on = bool(inp.get("on", True))
    _set_sitout(run, p, on)


def _set_sitout(run: _Run, p: str, on: bool) -> None:
    t = run.t
    if (p in t.sitout) == on:
        return
    run.t = t = replace(t, sitout=t.sitout | {p} if on else t.sitout - {p})
    run.emit("sitout" if on else "back", player=p)
    if _in_bank(t, p):
        module = piatto if isinstance(t.bank, PiattoBank) else classica
        run.t = replace(t, bank=module.set_sitout(t.bank, p, on))  # type: ignore[arg-type]
    elif on and t.offer == p:
        if t.setup.rules.tournament:
            _tournament_refusal(run, p)
        else:
            _refuse_offer(run, p)


def _accept(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    t = run.t
    p = _player(run, inp)
    require(t.offer == p, "mp.not_offered", "the bank is not offered to you")
    rules = t.setup.rules
    amount = inp.get("amount")
    if rules.variant is Variant.PIATTO:
        require(type(amount) is int, "mp.bad_amount", "say the piatto")
        bank: Bank = piatto.open_bank(rules, t.seats, p, amount, t.credits, t.sitout)
    else:
        require(amount is None or type(amount) is int, "mp.bad_amount", "say the maximum bet")
        bank = classica.open_bank(rules, t.seats, p, amount, t.credits, t.sitout)
    require(bool(bank.punters), "mp.no_punters", "nobody to play against")
    run.t = replace(t, bank=bank, bank_no=t.bank_no + 1, offer=None, credits=EMPTY,
                    start_credits=t.credits)
    terms = ({"piatto": amount} if isinstance(bank, PiattoBank) else
             {"max_bet": bank.terms.max_bet, "max_loss": bank.terms.max_loss,
              "all_in": bank.terms.all_in})
    run.emit("bank_opened", banker=p, bank_no=t.bank_no + 1, punters=list(bank.punters),
             **terms)


def _refuse(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    p = _player(run, inp)
    require(run.t.offer == p, "mp.not_offered", "the bank is not offered to you")
    require(not run.t.setup.rules.tournament, "mp.must_bank_in_tournament",
            "a tournament bank cannot be refused")
    _refuse_offer(run, p)


def _refuse_offer(run: _Run, p: str) -> None:
    run.emit("bank_refused", player=p)
    _pass_offer(run, p, skipped=True)


def _tournament_refusal(run: _Run, p: str) -> None:
    """A tournament bank cannot be refused: in sitout or silent past the time limit, the
    player loses half the minimum piatto (or all its chips if less), shared among the others
    seated (from its right); the bank passes right."""
    t = run.t
    order = [x for i in to_the_right(t.seats, seat_of(t.seats, p))
             if (x := t.seats[i]) is not None and x != p]
    changes = tournament_refusal_penalty(t.setup.rules, t.credits.get(p, 0), p, order)
    credits = dict(t.credits)
    for x, c in changes.items():
        credits[x] = credits.get(x, 0) + c
    run.t = replace(t, credits=MappingProxyType(credits))
    run.emit("bank_refusal_penalty", player=p, shares={k: v for k, v in changes.items()
                                                       if k != p}, lost=-changes.get(p, 0))
    _pass_offer(run, p, skipped=False)


def _pass_offer(run: _Run, p: str, *, skipped: bool) -> None:
    """The bank passes right; a refusal is a skipped bank of the refuser's."""
    t = run.t
    seat = seat_of(t.seats, p)
    run.t = t = replace(t, offer=None, due_seat=(seat + 1) % len(t.seats))
    if skipped:
        run.t = t = replace(t, skips=_m(t.skips, **{p: t.skips.get(p, 0) + 1}))
        if t.skips[p] >= 3 and not t.setup.rules.tournament:
            _stand_up(run, p, "three_banks_skipped")


def _bank_call(run: _Run, name: str, *args: Any) -> None:
    t = run.t
    require(t.bank is not None and t.bank.phase is not Phase.OVER, "mp.no_bank",
            "no bank is in play")
    module = piatto if isinstance(t.bank, PiattoBank) else classica
    run.t = replace(t, bank=getattr(module, name)(t.bank, *args))


def _join(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    p = _player(run, inp)
    require(isinstance(run.t.bank, PiattoBank), "mp.wrong_phase", "not asked now")
    _bank_call(run, "join", p, bool(inp.get("plays", True)))


def _stake(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    p = _player(run, inp)
    v = inp.get("amount")
    require(type(v) is int, "mp.bad_amount", "the stake is an integer of cents")
    _bank_call(run, "stake", p, v, bool(inp.get("hit")))
    run.t = replace(run.t, has_bet=run.t.has_bet | {p}, last_play=now)
    run.emit("stake", player=p, amount=v, hit=bool(inp.get("hit")))


def _decide(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    p = _player(run, inp)
    _bank_call(run, "decide", p, bool(inp.get("hit")))
    run.emit("decision", player=p, hit=bool(inp.get("hit")))


def _preset(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    """A decision set in advance, while waiting for one's turn ("Remove" undoes it)."""
    p = _player(run, inp)
    b = run.t.bank
    require(b is not None, "mp.no_bank", "no bank is in play")
    amount = inp.get("amount")
    require(amount is None or type(amount) is int, "mp.bad_amount", "a stake in cents")
    presets = advance.set_preset(run.t.presets, b, p, advance.Preset(bool(inp.get("hit")),
                                                                      amount))
    run.t = replace(run.t, presets=presets)
    run.emit("preset", player=p)


def _remove_preset(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    p = _player(run, inp)
    run.t = replace(run.t, presets=advance.remove_preset(run.t.presets, p))
    run.emit("preset_removed", player=p)


def _shuffle(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    t = run.t
    if t.dealing:
        run.t = replace(t, fresh=True)
    else:
        require(t.bank is not None, "mp.no_bank", "nothing to shuffle for")
        _bank_call(run, "shuffled")
    run.emit("shuffled")


def _card(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    t = run.t
    card = parse_card(str(inp.get("card")))
    if t.dealing:
        require(t.fresh, "mp.shuffle_due", "shuffle first")
        to = t.dealing[t.dealt % len(t.dealing)]
        run.t = t = replace(t, dealt=t.dealt + 1)
        run.emit("matta_deal", to=to, card=card.code)
        if card.is_matta:
            run.t = replace(t, dealing=(), dealt=0, fresh=False, offer=to,
                            due_seat=seat_of(t.seats, to))
            run.emit("bank_offered", player=to)
        return
    b = t.bank
    require(b is not None and b.expecting is not None, "mp.no_card_expected", "no card is due")
    assert b is not None and b.expecting is not None
    to, face_up = b.expecting.player, b.expecting.face_up
    _bank_call(run, "deal", card)
    run.emit("card", to=to, face_up=face_up, card=card.code if face_up else None,
             hole=None if face_up else card.code)


def _timeout(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    t = run.t
    if t.deadline is not None and now >= t.deadline and t.awaiting is not None:
        who = t.awaiting[0]
        run.emit("decision_timed_out", player=who)
        run.t = replace(run.t, awaiting=None, deadline=None)
        # sitout: an offered bank is refused; in a bank the system plays for it from now on
        _set_sitout(run, who, True)
    t = run.t
    if t.sitout and now >= t.last_play + t.setup.idle_s and not t.setup.rules.tournament:
        run.t = replace(run.t, last_play=now)
        for p in sorted(t.sitout):
            if _in_bank(run.t, p):
                run.t = replace(run.t, leaving=run.t.leaving | {p})
            elif p in run.t.seats:
                _stand_up(run, p, "idle")


def _resume(run: _Run, inp: Mapping[str, Any], now: float) -> None:
    """The studio restarted: the time it was down is nobody's; whoever must act gets a full
    decision time, and the idle clock starts again."""
    run.t = replace(run.t, awaiting=None, deadline=None, last_play=now)
    run.emit("resumed")


_HANDLERS = {
    "sit": _sit, "rebuy": _rebuy, "leave": _leave, "sitout": _sitout, "accept": _accept,
    "refuse": _refuse, "join": _join, "stake": _stake, "decide": _decide, "shuffle": _shuffle,
    "card": _card, "timeout": _timeout, "transfer_out": _transfer_out, "preset": _preset,
    "remove_preset": _remove_preset, "resume": _resume,
}


# --------------------------------------------------------------------------- what follows


def _eligible(t: Table) -> list[str]:
    return [p for p in t.players if p not in t.sitout and t.credits.get(p, 0) > 0]


def _flow(run: _Run, now: float) -> None:
    """What follows by itself: automatic play for a player in sitout, the bank's end, the next
    offer or the matta deal; then the timer of whoever must act."""
    for _ in range(1000):  # each pass ends a decision or a bank: bounded all the same
        t = run.t
        b = t.bank
        if b is not None:
            if b.phase is Phase.OVER:
                _close_bank(run)
                continue
            if t.presets and b.expecting is None:
                played, presets = advance.apply(b, t.presets)
                run.t = replace(t, bank=played, presets=presets)
                if played is not b:
                    run.emit("preset_played", player=b.decider)
                    continue
            if (b.expecting is None and b.decider in b.sitout
                    and b.phase in (Phase.PUNTER, Phase.BANKER)):
                hit = auto_hits(b, t.autoplay)
                run.emit("automatic_play", player=b.decider, hit=hit)
                _bank_call(run, "decide", b.decider, hit)
                continue
            break
        if t.offer is not None or t.dealing:
            break
        eligible = _eligible(t)
        if len(eligible) < 2:
            break
        if t.due_seat is None:
            run.t = replace(t, dealing=tuple(eligible), dealt=0, fresh=False)
            run.emit("matta_deal_started", players=list(eligible))
            break
        n = len(t.seats)
        order = [(t.due_seat + k) % n for k in range(n)]
        who = next(t.seats[i] for i in order if t.seats[i] in eligible)
        run.t = replace(t, offer=who)
        run.emit("bank_offered", player=who)
        break
    run.mark("hand")
    _arm_timer(run, now)


def _close_bank(run: _Run) -> None:
    """The bank is over: credits back to the table, attendance, stand-ups, the next banker."""
    if isinstance(run.t.bank, PiattoBank):
        run.mark_close(run.t.bank.banker)
    run.mark("hand")
    t = run.t
    b = t.bank
    assert b is not None
    credits = dict(b.credits)
    for p, c in t.extra.items():
        credits[p] = credits.get(p, 0) + c
    played = {b.banker} | {r.punter for r in b.results}
    results = tuple({"punter": r.punter, "stake": r.stake, "banker_won": r.banker_won,
                     "rake": r.rake, "punter_cards": [c.code for c in r.punter_cards],
                     "banker_cards": [c.code for c in r.banker_cards]} for r in b.results)
    banker_seat = seat_of(t.seats, b.banker)
    nxt = next_banker(t.seats, banker_seat, t.has_bet | played)
    run.t = t = replace(t, bank=None, credits=MappingProxyType(credits), extra=EMPTY,
                        presets=EMPTY,
                        rake=t.rake + b.rake, results=results[-7:],
                        due_seat=seat_of(t.seats, nxt) if nxt else (banker_seat + 1) % len(
                            t.seats))
    run.emit("bank_closed", banker=b.banker, bank_no=t.bank_no, results=list(results),
             rake=b.rake, sitout_penalty=dict(getattr(b, "sitout_penalty", {})))
    run.mark("hand")
    if t.setup.rules.tournament:
        _eliminate(run, b.banker, banker_seat)
        return
    skips, up = after_bank(t.skips, t.players, played)
    run.t = replace(t, skips=MappingProxyType(skips))
    for p in [*up, *sorted(t.leaving - set(up))]:
        if p in run.t.seats:
            _stand_up(run, p, "three_banks_skipped" if p in up else "left")


def _eliminate(run: _Run, banker: str, banker_seat: int) -> None:
    """Tournament: who has no chips left at the bank's end is eliminated, with the chips it
    had at the bank's start and its place in turn from the banker's right (the ranking's
    tie-break)."""
    t = run.t
    order = [t.seats[i] for i in to_the_right(t.seats, banker_seat)]
    out = [p for p in order if p is not None and t.credits.get(p, 0) == 0]
    for p in out:
        e = {"player": p, "round": t.bank_no, "banker": banker,
             "chips_before": t.start_credits.get(p, 0), "seat_order": order.index(p)}
        run.t = replace(run.t, eliminated=(*run.t.eliminated, e))
        run.emit("eliminated", **e)
        _stand_up(run, p, "eliminated")
    run.t = replace(run.t, start_credits=EMPTY)


def _arm_timer(run: _Run, now: float) -> None:
    """The decision timer runs for whoever must act: a new decision gets the full time."""
    t = run.t
    b = t.bank
    awaiting: tuple[Any, ...] | None = None
    if t.offer is not None and t.offer not in t.sitout:
        awaiting = (t.offer, "offer", t.bank_no)
    elif b is not None and b.decider is not None and b.decider not in b.sitout:
        cards = (len(b.punter_cards) if isinstance(b, PiattoBank)
                 else sum(len(h) for h in b.hands.values()))
        awaiting = (b.decider, str(b.phase), t.bank_no, b.turn, len(b.banker_cards), cards)
    if awaiting == t.awaiting:
        return
    deadline = None if awaiting is None else now + t.setup.decision_s
    run.t = replace(t, awaiting=awaiting, deadline=deadline)
    if awaiting is not None:
        run.emit("turn", player=awaiting[0], what=awaiting[1], deadline=deadline)


# --------------------------------------------------------------------------- for the core


def needs(t: Table) -> str | None:
    """What the table's RNG shoe must do next: "shuffle", "card" or nothing."""
    if t.dealing:
        return "card" if t.fresh else "shuffle"
    b = t.bank
    if b is None or b.expecting is None or b.phase is Phase.OVER:
        return None
    return "shuffle" if b.shoe.shuffle_due else "card"


def card_usable(t: Table, code: str) -> bool:
    """A card the shoe may deal now (after a reshuffle mid-bank, the cards still in play
    are not in the new deck)."""
    b = t.bank
    return t.dealing != () or b is None or parse_card(code) not in b.shoe.dealt


def wake_at(t: Table) -> float | None:
    """When the table must look again: the decision timer, or the idle stand-up."""
    times = [w for w in (t.deadline, (t.last_play + t.setup.idle_s) if t.sitout else None)
             if w is not None]
    return min(times) if times else None


def at_checkpoint(t: Table) -> bool:
    """No hand in play: what a restart goes back to."""
    b = t.bank
    if b is None:
        return not t.dealing
    if isinstance(b, PiattoBank):
        return b.phase is Phase.JOIN and not b.punter_cards and not b.stake
    return False


def void(t: Table, checkpoint: Table, now: float = 0.0) -> Step:
    """The hand in play is void: the table as at `checkpoint` (the last hand completed).
    Stakes never left their seats, so only money that came in during the hand (a rebuy, a
    buy-in) goes back to its player's account, each with its ticket."""
    run = _Run(t)
    cp = replace(checkpoint, tickets=t.tickets, awaiting=None, deadline=None)
    for p in cp.players:
        if p not in t.seats:  # it left during the hand: it stays gone
            b = cp.bank
            cp = replace(cp, seats=tuple(None if x == p else x for x in cp.seats),
                         credits=_m(cp.credits, **{p: None}), extra=_m(cp.extra, **{p: None}),
                         bank=None if b is None else replace(b, credits=_m(b.credits,
                                                                           **{p: None})))
    run.t = cp
    back = holdings(run.t)
    wallet: dict[str, int] = {}
    for k in {*back, *run.held}:
        delta = back.get(k, 0) - run.held.get(k, 0)
        if delta and k.startswith("seat:"):
            wallet[k[5:]] = -delta
        elif delta:
            raise MultiplayerError("mp.void_moves_pool", f"{k} changed during the hand")
    run.mark("void", wallet)
    run.emit("hand_voided", reason="the studio restarted")
    _flow(run, now)  # the table goes on: the turn's timer again, or the matta deal again
    return Step(run.t, run.events, run.moves)
