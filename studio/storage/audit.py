"""Audit: prove the history is intact and the books balance.

Three independent checks, each returning `Problem`s (empty = all is well):

- `verify_chain`: every stream of the event log, from its first event to its last: sequence
  numbers without gaps, each ``prev_hash`` equal to the previous event's hash, each ``hash``
  equal to the hash of the event's content. The first broken link of each stream is reported.
  Optional ``anchors`` ({stream: (stream_seq, hash)} recorded elsewhere, e.g. printed at the end
  of a day) also catch a log cut short at its end, which no chain can reveal by itself.
- `verify_ledger`: the sum over all accounts is zero, no player or held balance is negative,
  every balance equals the sum of its legs over all movements, every movement's legs sum to
  zero and are the legs its kind and amounts imply, each player's held money equals their open
  reservations, and each post or release matches the reservation it closes; a transfer's
  legs (``ledger_leg``) sum to zero and name existing accounts.
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
from typing import Any

from sqlalchemy import func, select

from studio import ledger, ledger_transfers
from studio.storage import event_log
from studio.storage.engine import Store, Tx
from studio.storage.event_log import GENESIS_HASH, StoredEvent, event_hash
from studio.storage.models import (
    NON_NEGATIVE_KINDS,
    EventRecord,
    LedgerAccount,
    LedgerMovement,
)

Replayer = Callable[[Sequence[StoredEvent]], Iterable[ledger.Request]]
MAX_PROBLEMS_PER_CHECK = 20  # enough to act on; the count says how bad it is

_EV = EventRecord.__table__
_ACC = LedgerAccount.__table__
_MOV = LedgerMovement.__table__


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

    # Each account's balance against the sum of its legs: a player's two accounts against the
    # player's movements, the house and the cash desk against all movements.
    mismatched = c.exec_driver_sql(
        "WITH sums AS (SELECT player_id, SUM(player_leg) AS p, SUM(held_leg) AS h "
        "FROM ledger_movement GROUP BY player_id), "
        "totals AS (SELECT COALESCE(SUM(house_leg), 0) AS house, "
        "COALESCE(SUM(cash_leg), 0) AS cash FROM ledger_movement), "
        "moved AS (SELECT account_id, SUM(amount) AS total FROM ledger_leg "
        "GROUP BY account_id), "
        "legs AS (SELECT a.id, a.balance, CASE a.kind "
        "WHEN 'player' THEN COALESCE(s.p, 0) WHEN 'held' THEN COALESCE(s.h, 0) "
        "WHEN 'house' THEN t.house WHEN 'cash' THEN t.cash ELSE 0 END "
        "+ COALESCE(x.total, 0) AS total "
        "FROM ledger_account a CROSS JOIN totals t "
        "LEFT JOIN sums s ON s.player_id = a.player_id AND a.kind IN ('player', 'held') "
        "LEFT JOIN moved x ON x.account_id = a.id) "
        "SELECT id, balance, total FROM legs WHERE balance <> total ORDER BY id "
        f"LIMIT {MAX_PROBLEMS_PER_CHECK}"
    )
    for account_id, value, legs_total in mismatched:
        problems.append(Problem("audit.ledger_balance", f"account {account_id!r} shows {value} "
                                f"cents but its legs sum to {legs_total}",
                                account_id=account_id))

    # Legs of a player who has no account rows (money that no balance shows).
    orphans = c.exec_driver_sql(
        "SELECT m.player_id, SUM(m.player_leg), SUM(m.held_leg) FROM ledger_movement m "
        "WHERE m.kind <> 'transfer' AND NOT EXISTS "
        "(SELECT 1 FROM ledger_account a WHERE a.player_id = m.player_id) "
        f"GROUP BY m.player_id ORDER BY m.player_id LIMIT {MAX_PROBLEMS_PER_CHECK}"
    )
    for player_id, player_total, held_total in orphans:
        problems.append(Problem("audit.ledger_balance", f"player {player_id!r} has movements "
                                f"(legs {player_total} and {held_total} held) but no account",
                                account_id=ledger.player_account(player_id)))

    unbalanced = c.exec_driver_sql(
        "SELECT id, player_leg + held_leg + house_leg + cash_leg FROM ledger_movement "
        "WHERE player_leg + held_leg + house_leg + cash_leg <> 0 "
        f"ORDER BY id LIMIT {MAX_PROBLEMS_PER_CHECK}"
    )
    for movement_id, value in unbalanced:
        problems.append(Problem("audit.ledger_movement", f"movement {movement_id!r}: legs "
                                f"sum to {value}, not 0"))

    wrong_legs = c.exec_driver_sql(
        f"SELECT id, kind FROM ledger_movement WHERE NOT ({_LEGS_OF_KIND}) "
        f"ORDER BY id LIMIT {MAX_PROBLEMS_PER_CHECK}"
    )
    for movement_id, kind in wrong_legs:
        problems.append(Problem("audit.ledger_legs", f"movement {movement_id!r}: its legs are "
                                f"not those of a {kind} of its amount"))

    problems += _transfer_problems(c)

    held = c.exec_driver_sql(
        "WITH open_sums AS (SELECT m.player_id, SUM(m.amount) AS total FROM ledger_movement m "
        "WHERE m.kind = 'reserve' AND NOT EXISTS "
        "(SELECT 1 FROM ledger_movement x WHERE x.closes = m.seq) GROUP BY m.player_id) "
        "SELECT a.id, a.balance, COALESCE(o.total, 0) FROM ledger_account a "
        "LEFT JOIN open_sums o ON o.player_id = a.player_id "
        "WHERE a.kind = 'held' AND a.balance <> COALESCE(o.total, 0) "
        f"ORDER BY a.id LIMIT {MAX_PROBLEMS_PER_CHECK}"
    )
    for account_id, value, open_total in held:
        problems.append(Problem("audit.ledger_held", f"account {account_id!r} holds {value} "
                                f"cents but open reservations total {open_total}",
                                account_id=account_id))

    bad_closers = c.exec_driver_sql(
        "SELECT m.id FROM ledger_movement m LEFT JOIN ledger_movement r ON r.seq = m.closes "
        "WHERE m.closes IS NOT NULL AND (r.seq IS NULL OR r.kind <> 'reserve' "
        "OR r.player_id <> m.player_id OR r.amount <> m.amount) "
        f"ORDER BY m.id LIMIT {MAX_PROBLEMS_PER_CHECK}"
    )
    for (movement_id,) in bad_closers:
        problems.append(Problem("audit.ledger_closer", f"movement {movement_id!r} does not "
                                "match the reservation it closes"))
    return problems, accounts, movements


def _transfer_problems(c: Any) -> list[Problem]:
    """A transfer's legs (``ledger_leg``) sum to zero, there are two or more, they belong to
    a transfer, and each names an account that exists."""
    problems: list[Problem] = []
    unbalanced = c.exec_driver_sql(
        "SELECT m.id, COALESCE(SUM(l.amount), 0), COUNT(l.seq) FROM ledger_movement m "
        "LEFT JOIN ledger_leg l ON l.movement_seq = m.seq WHERE m.kind = 'transfer' "
        "GROUP BY m.id HAVING COALESCE(SUM(l.amount), 0) <> 0 OR COUNT(l.seq) < 2 "
        f"ORDER BY m.id LIMIT {MAX_PROBLEMS_PER_CHECK}")
    for movement_id, total, n in unbalanced:
        problems.append(Problem("audit.ledger_movement", f"transfer {movement_id!r}: {n} legs "
                                f"summing to {total}"))
    strays = c.exec_driver_sql(
        "SELECT l.seq, l.account_id FROM ledger_leg l "
        "LEFT JOIN ledger_movement m ON m.seq = l.movement_seq "
        "WHERE m.seq IS NULL OR m.kind <> 'transfer' OR NOT EXISTS "
        "(SELECT 1 FROM ledger_account a WHERE a.id = l.account_id) "
        f"ORDER BY l.seq LIMIT {MAX_PROBLEMS_PER_CHECK}")
    for seq, account_id in strays:
        problems.append(Problem("audit.ledger_legs", f"leg {seq} ({account_id}) belongs to no "
                                "transfer or to no account", account_id=account_id))
    return problems


# The legs each kind of movement must have (``ledger`` writes exactly these); a post or release
# names the reservation it closes, the others do not.
_LEGS_OF_KIND = (
    "(kind = 'credit' AND closes IS NULL AND player_leg = amount AND held_leg = 0 "
    "AND house_leg = 0 AND cash_leg = -amount) OR "
    "(kind = 'debit' AND closes IS NULL AND player_leg = -amount AND held_leg = 0 "
    "AND house_leg = 0 AND cash_leg = amount) OR "
    "(kind = 'reserve' AND closes IS NULL AND player_leg = -amount AND held_leg = amount "
    "AND house_leg = 0 AND cash_leg = 0) OR "
    "(kind = 'post' AND closes IS NOT NULL AND payout IS NOT NULL AND player_leg = payout "
    "AND held_leg = -amount AND house_leg = amount - payout AND cash_leg = 0) OR "
    "(kind = 'release' AND closes IS NOT NULL AND player_leg = amount AND held_leg = -amount "
    "AND house_leg = 0 AND cash_leg = 0) OR "
    "(kind = 'transfer' AND closes IS NULL AND player_leg = 0 AND held_leg = 0 "
    "AND house_leg = 0 AND cash_leg = 0)"
)


# --- replay ----------------------------------------------------------------------------------


def verify_replays(
    tx: Tx, replayers: Mapping[str, Replayer], games: Mapping[str, str]
) -> tuple[list[Problem], int, int]:
    """(problems, rounds replayed, streams replayed). ``games`` maps stream id -> game name;
    a private table's instances (``<stream>/<player>``) are the table's game. ``replayers``
    maps game name -> replayer. Streams without a replayer are skipped."""
    problems: list[Problem] = []
    rounds = streams = 0
    for stream_id in event_log.streams(tx):
        game = games.get(stream_id) or games.get(stream_id.split("/", 1)[0], "")
        replayer = replayers.get(game)
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
        for n, round_id in enumerate(round_ids):
            rounds += 1
            events = event_log.read(tx, stream_id=stream_id, round_id=round_id)
            problem = _replay_round(tx, stream_id, round_id, events, replayer)
            # Rounds run one after another: only a stream's last round can be in flight
            in_flight = n == len(round_ids) - 1 and not any(
                e.type in ROUND_ENDS for e in events)
            stuck = None if in_flight else _open_reservations(tx, stream_id, round_id)
            for p in (problem, stuck):
                if p is not None and len(problems) < MAX_PROBLEMS_PER_CHECK:
                    problems.append(p)
    return problems, rounds, streams


ROUND_ENDS = frozenset({"round_closed", "round_voided"})


def _open_reservations(tx: Tx, stream_id: str, round_id: str) -> Problem | None:
    """A round that is over holds no money: a reservation left open is stuck money."""
    stuck = ledger.open_reservations(tx, round_id=round_id)
    if not stuck:
        return None
    ids = [m.id for m in stuck]
    return Problem("audit.open_reservation",
                   f"round {round_id!r} of stream {stream_id!r} is over but holds "
                   f"{len(ids)} open reservation(s) ({sum(m.amount for m in stuck)} cents): "
                   f"{', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}",
                   stream_id, round_id=round_id)


def _replay_round(
    tx: Tx, stream_id: str, round_id: str, events: Sequence[StoredEvent], replayer: Replayer
) -> Problem | None:
    try:
        expected = {r.movement_id: r.content() for r in replayer(events)}
    except Exception as e:  # noqa: BLE001 - a replayer that cannot replay is a finding
        return Problem("audit.replay_failed", f"round {round_id!r}: the replayer failed: {e!r}",
                       stream_id, round_id=round_id)
    actual = {m.id: m.content() for m in ledger.movements_for_round(tx, round_id)}
    actual.update(ledger_transfers.transfers_for_round(tx, round_id))
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
