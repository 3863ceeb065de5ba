"""Property: whatever sequence of credits, bets, settlements, voids, cash-outs and repeats the
table sends, the books balance, nobody goes negative, and the ledger agrees with a plain model."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio import ledger as L
from studio.storage import Store
from studio.storage.audit import verify_ledger

PLAYERS = 3
amounts = st.integers(min_value=1, max_value=2_000)
op = st.one_of(
    st.tuples(st.just("credit"), st.integers(0, PLAYERS - 1), amounts),
    st.tuples(st.just("debit"), st.integers(0, PLAYERS - 1), amounts),
    st.tuples(st.just("reserve"), st.lists(st.tuples(st.integers(0, PLAYERS - 1), amounts),
                                           min_size=1, max_size=4), st.booleans()),
    st.tuples(st.just("post"), st.integers(0, 50), st.integers(0, 5_000)),
    st.tuples(st.just("release"), st.integers(0, 50)),
    st.tuples(st.just("repeat"), st.integers(0, 50)),
)
_examples = itertools.count()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(op, min_size=1, max_size=25))
def test_random_sequences_keep_the_books_balanced(store: Store, ops: list[tuple]) -> None:
    run = f"ex{next(_examples)}"
    players = [f"{run}-p{i}" for i in range(PLAYERS)]
    available = dict.fromkeys(players, 0)
    held = dict.fromkeys(players, 0)
    open_bets: list[tuple[str, str, int]] = []  # (reservation id, player, stake)
    done: list[tuple[object, object]] = []  # (request, first result) of applied movements
    ids = itertools.count()

    def new_id(kind: str) -> str:
        return f"{run}:{kind}:{next(ids)}"

    for step in ops:
        kind = step[0]
        with store.transaction() as tx:
            if kind in ("credit", "debit"):
                player, amount = players[step[1]], step[2]
                req = (L.Credit if kind == "credit" else L.Debit)(new_id(kind), player, amount)
                if kind == "debit" and amount > available[player]:
                    try:
                        L.credit_many(tx, [req])
                        raise AssertionError("a debit beyond the balance was accepted")
                    except L.LedgerError as e:
                        assert e.code == "ledger.insufficient_funds"
                    continue
                [mov] = L.credit_many(tx, [req])
                available[player] += amount if kind == "credit" else -amount
                assert mov.balance_after == available[player]
                done.append((req, mov))
            elif kind == "reserve":
                bets, grouped = step[1], step[2]
                group = new_id("group") if grouped else None
                reqs = [L.Reserve(new_id("bet"), players[p], a, run, group) for p, a in bets]
                outcomes = L.reserve_many(tx, reqs)
                if grouped:
                    need: dict[str, int] = {}
                    for r in reqs:
                        need[r.player_id] = need.get(r.player_id, 0) + r.amount
                    accept = [all(need[p] <= available[p] for p in need)] * len(reqs)
                else:
                    accept, left = [], dict(available)
                    for r in reqs:
                        accept.append(r.amount <= left[r.player_id])
                        if accept[-1]:
                            left[r.player_id] -= r.amount
                assert [o.ok for o in outcomes] == accept
                for r, o in zip(reqs, outcomes, strict=True):
                    if o.ok:
                        available[r.player_id] -= r.amount
                        held[r.player_id] += r.amount
                        open_bets.append((r.movement_id, r.player_id, r.amount))
                        done.append((r, o.movement))
                    else:
                        assert o.error is not None
                        assert o.error.code == "ledger.insufficient_funds"
            elif kind in ("post", "release") and open_bets:
                res_id, player, stake = open_bets.pop(step[1] % len(open_bets))
                if kind == "post":
                    req = L.Post(new_id("post"), res_id, step[2])
                    available[player] += step[2]
                else:
                    req = L.Release(new_id("void"), res_id)
                    available[player] += stake
                held[player] -= stake
                [mov] = L.settle_many(tx, [req])
                assert mov.balance_after == available[player]
                done.append((req, mov))
            elif kind == "repeat" and done:
                req, first = done[step[1] % len(done)]
                if isinstance(req, L.Reserve):
                    [again] = L.reserve_many(tx, [req])
                    assert again.duplicate and again.movement == first
                elif isinstance(req, L.Credit | L.Debit):
                    assert L.credit_many(tx, [req]) == [first]
                else:
                    assert L.settle_many(tx, [req]) == [first]

    with store.reader() as tx:
        got = L.balances(tx, players)
        assert got == {p: L.Balance(available[p], held[p]) for p in players}
        assert L.total_balance(tx) == 0
        assert verify_ledger(tx)[0] == []
        assert {m.id for m in L.open_reservations(tx, round_id=run)} == {b[0] for b in open_bets}
