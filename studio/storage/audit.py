"""Audit: prove the history is intact and the books balance.

Three independent checks, each returning `Problem`s (empty = all is well):

- `verify_chain`: every stream of the event log, from its first event to its last: sequence
  numbers without gaps, each ``prev_hash`` equal to the previous event's hash, each ``hash``
  equal to the hash of the event's content. The first broken link of each stream is reported.
  Optional ``anchors`` ({stream: (stream_seq, hash)} recorded elsewhere, e.g. printed at the end
  of a day) also catch a log cut short at its end, which no chain can reveal by itself.
- `verify_ledger`: the sum over all accounts is zero, no player or held balance is negative,
  every balance equals the sum of its entries, every movement's entries sum to zero, each
  player's held money equals their open reservations, and each post or release matches its
  reservation.
- `verify_replays`: the hook for "replay every round from the log to the same money". A
  *replayer* (one per game, supplied by the game's round controller) takes the events of one
  round and returns the ledger requests (`ledger.Reserve`, `ledger.Post`, `ledger.Release`) the
  round implies; the audit compares them, by movement id and content, with the
  movements the ledger holds for that round, and names each round that differs. Round ids are
  expected to be unique across tables (e.g. ``"<table>:<n>"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import and_, func, select

from studio import ledger
from studio.storage import event_log
from studio.storage.engine import Store, Tx
from studio.storage.event_log import GENESIS_HASH, StoredEvent, event_hash
from studio.storage.models import (
    NON_NEGATIVE_KINDS,
    EventRecord,
    LedgerAccount,
    LedgerEntry,
    LedgerMovement,
)

Replayer = Callable[[Sequence[StoredEvent]], Iterable[ledger.Request]]
MAX_PROBLEMS_PER_CHECK = 20  # enough to act on; the count says how bad it is

_EV = EventRecord.__table__
_ACC = LedgerAccount.__table__
_MOV = LedgerMovement.__table__
_ENT = LedgerEntry.__table__


@dataclass(frozen=True)
class Problem:
    """One finding. ``code`` is stable (``audit.*``); the message says what to look at."""

    code: str
    message: str
    stream_id: str | None = None
    stream_seq: int | None = None
    round_id: str | None = None
    account_id: str | None = None


@dataclass
class AuditReport:
    problems: list[Problem] = field(default_factory=list)
    events: int = 0
    streams: int = 0
    accounts: int = 0
    movements: int = 0
    rounds_replayed: int = 0
    replay_streams: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def broken_links(self) -> list[Problem]:
        return [p for p in self.problems if p.code.startswith("audit.chain")]

    @property
    def first_broken_link(self) -> Problem | None:
        links = self.broken_links
        return links[0] if links else None


# --- the chain -------------------------------------------------------------------------------


def verify_chain(
    tx: Tx, anchors: Mapping[str, tuple[int, str]] | None = None
) -> tuple[list[Problem], int, int]:
    """(problems, events checked, streams) for the whole log, one pass in ``seq`` order."""
    state: dict[str, tuple[int, str]] = {}  # stream -> (last stream_seq, last hash)
    broken: set[str] = set()
    problems: list[Problem] = []
    seen: dict[str, dict[int, str]] = {s: {} for s in (anchors or {})}
    count = 0
    for ev in event_log.iter_events(tx):
        count += 1
        if ev.stream_id in seen:
            seen[ev.stream_id][ev.stream_seq] = ev.hash
        if ev.stream_id in broken:
            continue
        last_seq, last_hash = state.get(ev.stream_id, (0, GENESIS_HASH))
        where = f"stream {ev.stream_id!r} event {ev.stream_seq} (seq {ev.seq})"
        problem: Problem | None = None
        if ev.stream_seq != last_seq + 1:
            problem = Problem("audit.chain_gap", f"{where}: expected event {last_seq + 1} "
                              "next; events are missing or reordered", ev.stream_id,
                              ev.stream_seq, ev.round_id)
        elif ev.prev_hash != last_hash:
            problem = Problem("audit.chain_link", f"{where}: does not link to event {last_seq} "
                              "(that event, or this link, was changed)", ev.stream_id,
                              ev.stream_seq, ev.round_id)
        else:
            expected = event_hash(
                stream_id=ev.stream_id, stream_seq=ev.stream_seq, round_id=ev.round_id,
                type=ev.type, payload=ev.payload_json, ts=ev.ts, prev_hash=ev.prev_hash,
            )
            if expected != ev.hash:
                problem = Problem("audit.chain_hash", f"{where}: content does not match its "
                                  "hash (the event was changed)", ev.stream_id, ev.stream_seq,
                                  ev.round_id)
        if problem is not None:
            problems.append(problem)
            broken.add(ev.stream_id)
        state[ev.stream_id] = (ev.stream_seq, ev.hash)
    for stream_id, (seq, digest) in (anchors or {}).items():
        got = seen[stream_id].get(seq)
        if got != digest:
            what = "is missing (the log was cut short)" if got is None else "has another hash"
            problems.append(Problem("audit.chain_anchor", f"stream {stream_id!r} event {seq} "
                                    f"{what}; the anchor recorded {digest[:16]}...",
                                    stream_id, seq))
    return problems, count, len(state)


# --- the books -------------------------------------------------------------------------------


def verify_ledger(tx: Tx) -> tuple[list[Problem], int, int]:
    """(problems, accounts, movements) for the double-entry books."""
    c = tx.conn
    problems: list[Problem] = []
    accounts = int(c.execute(select(func.count()).select_from(_ACC)).scalar_one())
    movements = int(c.execute(select(func.count()).select_from(_MOV)).scalar_one())
    total = ledger.total_balance(tx)
    if total != 0:
        problems.append(Problem("audit.ledger_sum", f"the accounts sum to {total} cents, not 0"))

    negative = c.execute(
        select(_ACC.c.id, _ACC.c.balance)
        .where(_ACC.c.kind.in_(NON_NEGATIVE_KINDS), _ACC.c.balance < 0)
        .order_by(_ACC.c.id).limit(MAX_PROBLEMS_PER_CHECK)
    )
    for account_id, value in negative:
        problems.append(Problem("audit.ledger_negative", f"account {account_id!r} is at "
                                f"{value} cents", account_id=account_id))

    sums = (
        select(_ENT.c.account_id, func.sum(_ENT.c.amount).label("total"))
        .group_by(_ENT.c.account_id).subquery()
    )
    mismatched = c.execute(
        select(_ACC.c.id, _ACC.c.balance, func.coalesce(sums.c.total, 0))
        .outerjoin(sums, sums.c.account_id == _ACC.c.id)
        .where(_ACC.c.balance != func.coalesce(sums.c.total, 0))
        .order_by(_ACC.c.id).limit(MAX_PROBLEMS_PER_CHECK)
    )
    for account_id, value, entries_total in mismatched:
        problems.append(Problem("audit.ledger_balance", f"account {account_id!r} shows {value} "
                                f"cents but its entries sum to {entries_total}",
                                account_id=account_id))

    unbalanced = c.execute(
        select(_ENT.c.movement_id, func.sum(_ENT.c.amount))
        .group_by(_ENT.c.movement_id).having(func.sum(_ENT.c.amount) != 0)
        .order_by(_ENT.c.movement_id).limit(MAX_PROBLEMS_PER_CHECK)
    )
    for movement_id, value in unbalanced:
        problems.append(Problem("audit.ledger_movement", f"movement {movement_id!r}: entries "
                                f"sum to {value}, not 0"))

    closer = _MOV.alias("closer")
    open_sums = (
        select(_MOV.c.player_id, func.sum(_MOV.c.amount).label("total"))
        .outerjoin(closer, closer.c.reservation_id == _MOV.c.id)
        .where(_MOV.c.kind == "reserve", closer.c.id.is_(None))
        .group_by(_MOV.c.player_id).subquery()
    )
    held = c.execute(
        select(_ACC.c.id, _ACC.c.balance, func.coalesce(open_sums.c.total, 0))
        .outerjoin(open_sums, open_sums.c.player_id == _ACC.c.player_id)
        .where(_ACC.c.kind == "held", _ACC.c.balance != func.coalesce(open_sums.c.total, 0))
        .order_by(_ACC.c.id).limit(MAX_PROBLEMS_PER_CHECK)
    )
    for account_id, value, open_total in held:
        problems.append(Problem("audit.ledger_held", f"account {account_id!r} holds {value} "
                                f"cents but open reservations total {open_total}",
                                account_id=account_id))

    reservation = _MOV.alias("reservation")
    bad_closers = c.execute(
        select(_MOV.c.id)
        .join(reservation, reservation.c.id == _MOV.c.reservation_id)
        .where(
            _MOV.c.reservation_id.is_not(None),
            ~and_(
                reservation.c.kind == "reserve",
                reservation.c.player_id == _MOV.c.player_id,
                reservation.c.amount == _MOV.c.amount,
            ),
        )
        .order_by(_MOV.c.id).limit(MAX_PROBLEMS_PER_CHECK)
    )
    for (movement_id,) in bad_closers:
        problems.append(Problem("audit.ledger_closer", f"movement {movement_id!r} does not "
                                "match the reservation it closes"))
    return problems, accounts, movements


# --- replay ----------------------------------------------------------------------------------


def verify_replays(
    tx: Tx, replayers: Mapping[str, Replayer], games: Mapping[str, str]
) -> tuple[list[Problem], int, int]:
    """(problems, rounds replayed, streams replayed). ``games`` maps stream id -> game name;
    ``replayers`` maps game name -> replayer. Streams without a replayer are skipped."""
    problems: list[Problem] = []
    rounds = streams = 0
    for stream_id in event_log.streams(tx):
        replayer = replayers.get(games.get(stream_id, ""))
        if replayer is None:
            continue
        streams += 1
        round_ids = [
            r[0] for r in tx.conn.execute(
                select(_EV.c.round_id)
                .where(_EV.c.stream_id == stream_id, _EV.c.round_id.is_not(None))
                .group_by(_EV.c.round_id).order_by(func.min(_EV.c.seq))
            )
        ]
        for round_id in round_ids:
            rounds += 1
            events = event_log.read(tx, stream_id=stream_id, round_id=round_id)
            problem = _replay_round(tx, stream_id, round_id, events, replayer)
            if problem is not None and len(problems) < MAX_PROBLEMS_PER_CHECK:
                problems.append(problem)
    return problems, rounds, streams


def _replay_round(
    tx: Tx, stream_id: str, round_id: str, events: Sequence[StoredEvent], replayer: Replayer
) -> Problem | None:
    try:
        expected = {r.movement_id: r.content() for r in replayer(events)}
    except Exception as e:  # noqa: BLE001 - a replayer that cannot replay is a finding
        return Problem("audit.replay_failed", f"round {round_id!r}: the replayer failed: {e!r}",
                       stream_id, round_id=round_id)
    actual = {m.id: m.content() for m in ledger.movements_for_round(tx, round_id)}
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    different = sorted(k for k in set(expected) & set(actual) if expected[k] != actual[k])
    if not (missing or extra or different):
        return None
    parts = []
    for label, ids in (("not in the ledger", missing), ("not implied by the log", extra),
                       ("different in the ledger", different)):
        if ids:
            parts.append(f"{label}: {', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}")
    return Problem("audit.replay_mismatch", f"round {round_id!r} of stream {stream_id!r}: "
                   "replaying its events gives other money movements (" + "; ".join(parts) + ")",
                   stream_id, round_id=round_id)


# --- everything ------------------------------------------------------------------------------


def verify(
    store: Store,
    *,
    replayers: Mapping[str, Replayer] | None = None,
    games: Mapping[str, str] | None = None,
    anchors: Mapping[str, tuple[int, str]] | None = None,
) -> AuditReport:
    """Run every check on one consistent snapshot of the database."""
    report = AuditReport()
    with store.reader() as tx:
        chain, report.events, report.streams = verify_chain(tx, anchors)
        books, report.accounts, report.movements = verify_ledger(tx)
        replays, report.rounds_replayed, report.replay_streams = verify_replays(
            tx, replayers or {}, games or {}
        )
    report.problems = chain + books + replays
    return report
