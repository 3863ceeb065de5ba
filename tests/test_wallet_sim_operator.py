"""The simulated operator's endpoints refuse bad input with a clear, stable code (never a 5xx
unless told to fail), and its signatures hold both ways."""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Iterator

import pytest

from studio.cli import build_parser
from studio.wallet import signing, wire
from studio.wallet.client import WalletClient
from studio.wallet.signing import SignatureError
from tests.wallet_harness import KEY, Operator, running_operator

DEBIT = {"transaction_id": "t1", "player_id": "alice", "amount": 100, "round_id": "R1",
         "table_id": "T1", "game": "blackjack"}


@pytest.fixture(scope="module")
def operator() -> Iterator[Operator]:
    with running_operator("alice=1000") as op:
        yield op


@pytest.mark.parametrize(("raw", "status", "code"), [
    (b"{not json", 400, "request.malformed_json"),
    (b"[" * 5000 + b"]" * 5000, 400, "request.too_deep"),
    (b'{"a":' * 40 + b"1" + b"}" * 40, 400, "request.too_deep"),
    (b"[]", 400, "request.invalid"),
    (b'"a string"', 400, "request.invalid"),
    (wire.encode({**DEBIT, "amount": -5}), 400, "wallet.invalid_amount"),
    (wire.encode({**DEBIT, "amount": 0}), 400, "wallet.invalid_amount"),
    (wire.encode({**DEBIT, "amount": 1.5}), 400, "wallet.invalid_amount"),
    (wire.encode({**DEBIT, "amount": "100"}), 400, "wallet.invalid_amount"),
    (wire.encode({**DEBIT, "amount": True}), 400, "wallet.invalid_amount"),
    (wire.encode({**DEBIT, "amount": 10**16}), 400, "wallet.invalid_amount"),
    (b'{"transaction_id":"t1","amount":1' + b"0" * 5000 + b"}", 400,
     "request.malformed_json"),  # an integer too long to read
    (wire.encode({**DEBIT, "player": "mallory"}), 400, "request.invalid"),
    (wire.encode({k: v for k, v in DEBIT.items() if k != "game"}), 400, "request.invalid"),
    (wire.encode({**DEBIT, "transaction_id": ""}), 400, "request.invalid"),
    (wire.encode({**DEBIT, "transaction_id": "x" * 201}), 400, "request.invalid"),
    (wire.encode({**DEBIT, "player_id": "ghost"}), 404, "wallet.unknown_player"),
    (b"{" + b'"a":1,' * 4000 + b'"b":2}', 413, "request.too_large"),
])
def test_bad_debit_bodies_are_refused_with_stable_codes(operator: Operator, raw: bytes,
                                                        status: int, code: str) -> None:
    reply = operator.post("/wallet/debit", raw)
    assert (reply.status, reply.code) == (status, code), reply.raw[:200]
    assert reply.body["status"] == "error" and reply.body["message"]
    reply.verify()  # a refusal is signed too
    assert operator.balances()["alice"] == 1000


def test_other_endpoints_refuse_bad_input(operator: Operator) -> None:
    ghost = operator.post("/wallet/balance", {"player_id": "ghost"})
    assert (ghost.status, ghost.code) == (404, "wallet.unknown_player")
    ghost.verify()
    assert operator.post("/wallet/balance", {"player_id": 7}).code == "request.invalid"
    bad_credit = operator.post("/wallet/credit", {**DEBIT, "transaction_id": "c9",
                                                  "reason": "bonus"})
    assert (bad_credit.status, bad_credit.code) == (400, "request.invalid")
    unknown = operator.post("/wallet/transfer", DEBIT)
    assert (unknown.status, unknown.code) == (404, "request.unknown_endpoint")
    elsewhere = operator.post("/nothing/here", DEBIT)
    assert (elsewhere.status, elsewhere.code) == (404, "request.unknown_endpoint")
    for period in ({"from": 1, "to": 2}, {"from": "yesterday", "to": "today"}, {}):
        report = operator.post("/wallet/transactions", period)
        assert (report.status, report.code) == (400, "request.invalid")
    fault = operator.post("/admin/faults", {"faults": [{"endpoint": "debit", "mode": "melt"}]})
    assert (fault.status, fault.code) == (400, "request.invalid")
    players = operator.post("/admin/players", {"players": {"bob": -1}})
    assert (players.status, players.code) == (400, "request.invalid")


def test_duplicates_and_rollbacks_keep_their_rules(operator: Operator) -> None:
    first = operator.post("/wallet/debit", {**DEBIT, "transaction_id": "dup"})
    assert first.status == 200
    again = operator.post("/wallet/debit", {**DEBIT, "transaction_id": "dup"})
    assert again.raw == first.raw  # the very same answer
    other = operator.post("/wallet/debit", {**DEBIT, "transaction_id": "dup", "amount": 101})
    assert (other.status, other.code) == (409, "wallet.duplicate_mismatch")
    as_credit = operator.post("/wallet/credit", {**DEBIT, "transaction_id": "dup",
                                                 "reason": "win"})
    assert as_credit.code == "wallet.duplicate_mismatch"
    credit = operator.post("/wallet/credit", {**DEBIT, "transaction_id": "c1", "reason": "win"})
    assert credit.status == 200
    rollback = {**{k: v for k, v in DEBIT.items() if k != "amount"}, "transaction_id": "r1",
                "debit_transaction_id": "c1"}
    refused = operator.post("/wallet/rollback", rollback)
    assert (refused.status, refused.code) == (409, "wallet.not_rollbackable")
    undo = operator.post("/wallet/rollback", {**rollback, "transaction_id": "r2",
                                              "debit_transaction_id": "dup"})
    assert undo.status == 200 and undo.body["refunded"] == 100
    twice = operator.post("/wallet/rollback", {**rollback, "transaction_id": "r3",
                                               "debit_transaction_id": "dup"})
    assert twice.status == 200 and twice.body["refunded"] == 0  # nothing left to give back
    assert operator.balances()["alice"] == 1000 + 100  # the credit; the debit was undone


def test_requests_without_a_good_signature_are_refused(operator: Operator) -> None:
    raw = wire.encode({**DEBIT, "transaction_id": "sig"})
    missing = operator.post("/wallet/debit", raw, headers={signing.SIGNATURE_HEADER: ""})
    assert (missing.status, missing.code) == (401, "auth.missing_signature")
    forged = operator.post("/wallet/debit", raw, key=b"someone-else's-secret-key")
    assert (forged.status, forged.code) == (401, "auth.bad_signature")
    stale = operator.post("/wallet/debit", raw, now=time.time() - signing.WINDOW_S - 5)
    assert (stale.status, stale.code) == (401, "auth.stale_timestamp")
    # A body changed after signing: the signature is over the original.
    headers = signing.sign(KEY, raw)
    tampered = operator.post("/wallet/debit", raw.replace(b'"amount":100', b'"amount":1'),
                             headers=headers)
    assert (tampered.status, tampered.code) == (401, "auth.bad_signature")
    assert operator.balances()["alice"] == 1000 + 100
    assert "sig" not in {e["transaction_id"] for e in operator.report()}
    admin = operator.post("/admin/players", {"players": {"alice": 10**9}},
                          key=b"someone-else's-secret-key")
    assert (admin.status, admin.code) == (401, "auth.bad_signature")  # admin is signed too
    assert operator.balances()["alice"] == 1000 + 100


def test_answers_are_signed_and_bound_to_their_request(operator: Operator) -> None:
    raw = wire.encode({"player_id": "alice"})
    headers = signing.sign(KEY, raw)
    reply = operator.post("/wallet/balance", raw, headers=headers)
    request_signature = headers[signing.SIGNATURE_HEADER]
    signing.verify(KEY, reply.headers, reply.raw, bound_to=request_signature)
    with pytest.raises(SignatureError) as e:  # the same answer offered for another request
        signing.verify(KEY, reply.headers, reply.raw, bound_to="v1=" + "0" * 64)
    assert e.value.code == "auth.bad_signature"
    with pytest.raises(SignatureError):  # or with its body changed
        signing.verify(KEY, reply.headers, reply.raw.replace(b"1100", b"9100"),
                       bound_to=request_signature)


def test_client_takes_a_tampered_answer_for_no_answer() -> None:
    """Unit level: a 200 'ok' whose signature is not the operator's is unknown, not success."""
    client = WalletClient("http://127.0.0.1:9", KEY)
    body = {**DEBIT}
    raw = wire.encode(wire.ok(transaction_id="t1", balance=900))
    request_signature = "v1=" + "ab" * 32
    good = signing.sign(KEY, raw, bound_to=request_signature)
    assert client._judge(body, 200, raw, good, request_signature).kind == "ok"
    forged_mac = hmac.new(b"x" * 16, raw, hashlib.sha256).hexdigest()
    forged = {**good, signing.SIGNATURE_HEADER: "v1=" + forged_mac}
    assert client._judge(body, 200, raw, forged, request_signature).kind == "unknown"
    other_request = signing.sign(KEY, raw, bound_to="v1=" + "cd" * 32)
    assert client._judge(body, 200, raw, other_request, request_signature).kind == "unknown"
    wrong_id = wire.encode(wire.ok(transaction_id="t2", balance=900))
    headers = signing.sign(KEY, wrong_id, bound_to=request_signature)
    assert client._judge(body, 200, wrong_id, headers, request_signature).code == \
        "wallet.answer_mismatch"
    refused = wire.encode(wire.error("wallet.insufficient_funds", "no", transaction_id="t1"))
    headers = signing.sign(KEY, refused, bound_to=request_signature)
    assert client._judge(body, 409, refused, headers, request_signature).kind == "refused"
    failed = wire.encode(wire.error("server.failure", "down"))
    headers = signing.sign(KEY, failed, bound_to=request_signature)
    assert client._judge(body, 500, failed, headers, request_signature).kind == "unknown"


def test_operator_command_line() -> None:
    args = build_parser().parse_args(["sim", "operator", "--player", "a=5", "--fault",
                                      "debit:late:2:0.5"])
    assert args.func.__name__ == "run_operator" and args.port == 0
    from studio.wallet.operator_sim import parse_fault

    fault = parse_fault("debit:late:2:0.5")
    assert (fault.endpoint, fault.mode, fault.times, fault.delay) == ("debit", "late", 2, 0.5)
    with pytest.raises(ValueError):
        parse_fault("debit:melt")
    assert args.func(build_parser().parse_args(
        ["sim", "operator", "--player", "a=-5", "--secret-env", "NO_SUCH_VAR_X"])) == 2


def test_client_with_a_skewed_clock_gets_no_answer_it_trusts() -> None:
    """An answer stamped outside the replay window is unknown, even if genuinely signed."""
    skewed = WalletClient("http://127.0.0.1:9", KEY, now=lambda: time.time() + 120)
    raw = wire.encode(wire.ok(transaction_id="t1", balance=900))
    request_signature = "v1=" + "ab" * 32
    headers = signing.sign(KEY, raw, bound_to=request_signature)
    outcome = skewed._judge(DEBIT, 200, raw, headers, request_signature)
    assert (outcome.kind, outcome.code) == ("unknown", "wallet.answer_stale_timestamp")
    not_cents = wire.encode(wire.ok(transaction_id="t1", balance=9.5))
    headers = signing.sign(KEY, not_cents, bound_to=request_signature)
    client = WalletClient("http://127.0.0.1:9", KEY)
    assert client._judge(DEBIT, 200, not_cents, headers, request_signature).code == \
        "wallet.answer_malformed"


async def test_the_studio_sends_nothing_it_would_refuse() -> None:
    from studio.wallet.port import DebitRequest, WalletError

    common = {"player_id": "alice", "round_id": "R1", "table_id": "T1", "game": "g"}
    for amount in (0, -1, 1.5, True, 10**16):
        with pytest.raises(WalletError) as e:
            DebitRequest(transaction_id="t", amount=amount, **common).check()  # type: ignore[arg-type]
        assert e.value.code == "wallet.invalid_amount"
    with pytest.raises(WalletError) as e:
        DebitRequest(transaction_id="", amount=1, **common).check()
    assert e.value.code == "wallet.invalid_request"
    # Nothing listens on port 9: a connection refused is an unknown outcome, not an error.
    client = WalletClient("http://127.0.0.1:9", KEY, timeout=1)
    try:
        outcome = await client.call("balance", {"player_id": "a"})
    finally:
        await client.close()
    assert (outcome.kind, outcome.code) == ("unknown", "wallet.connection_failed")
