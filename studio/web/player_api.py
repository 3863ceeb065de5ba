"""The player API. The player is who the token says, never a field of the body.

    POST /api/player/join       {table_id}           -> session, table state, balance, history
    GET  /api/player/state                            -> table state, balance
    GET  /api/player/balance
    GET  /api/player/history?limit=20                 -> the cronologia, newest first
    POST /api/player/bets       {key, bets: [{position, kind, amount}]}
    POST /api/player/cancel     {key}
    POST /api/player/repeat     {key}                 Ripunta
    POST /api/player/autoplay   {key, rounds}         0 stops it
    POST /api/player/decide     {key, position, choice: "carta"|"stai"}
    POST /api/player/deal       {key, amount}         a private table's start button
    POST /api/player/leave
    GET  /ws/player?token=...&session=...             the WebSocket (ws.py)

Headers: `Authorization: Bearer <token>` and `X-Session: <session id>` (from join).

Every command carries an idempotency key. The same key with the same command is a replay:
the first answer comes back (with "replayed": true) and nothing happens again. The same key
with a different command is refused (`request.key_reused`), so a key can never make the table
repeat another command's answer.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from aiohttp import web

from studio.operators.limits import LimitsRefused
from studio.storage import StorageError
from studio.web import schemas as s
from studio.web import ws as wsmod
from studio.web.auth import Identity
from studio.web.context import STUDIO, Studio
from studio.web.errors import WebError, answer_response
from studio.web.sessions import PlayerSession
from studio.web.staff import same_site_only
from studio.web.tables import TableService

PLAYER_COOKIE = "studio_player"  # set by a launch (launch_api.py): HttpOnly, this site only


def player_token(request: web.Request) -> str | None:
    """The player's credential: a bearer token (the operator's, rehearsals, tests), else the
    session cookie a launch set."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[7:].strip()
    return request.cookies.get(PLAYER_COOKIE)


def player_of(request: web.Request, studio: Studio | None = None) -> Identity:
    """The player asking (`studio`: for a sub-application, which does not hold it)."""
    studio = studio or request.app[STUDIO]
    who = studio.signer.player(player_token(request))
    if not request.headers.get("Authorization"):  # the cookie: the studio's own pages only
        same_site_only(request, studio.web.allowed_origins)
    return who


def _session(request: web.Request) -> tuple[Studio, Identity, PlayerSession, TableService]:
    studio = request.app[STUDIO]
    who = player_of(request)
    session = studio.sessions.get(who.id, request.headers.get("X-Session"))
    return studio, who, session, studio.table(session.table_id)


async def _body(request: web.Request, model: type[s.M]) -> tuple[s.M, dict[str, Any]]:
    raw = await request.read()
    data = s.parse_json(raw)
    return s.validate(model, data), data


def _claim_key(studio: Studio, player: str, key: str, route: str, data: dict) -> bool:
    """Bind an idempotency key to one command; True if this exact command came before."""
    fingerprint = hashlib.sha256(
        json.dumps({"route": route, "body": data}, sort_keys=True).encode()).hexdigest()
    actor = f"web:player:{player}"
    with studio.store.reader() as tx:
        first = tx.recall(actor, key)
    if first is None:
        try:
            with studio.store.transaction() as tx:
                tx.remember(actor, key, {"fingerprint": fingerprint})
            return False
        except StorageError:  # the same key raced in at the same moment
            with studio.store.reader() as tx:
                first = tx.recall(actor, key)
    if first.get("fingerprint") != fingerprint:
        raise WebError(409, "request.key_reused",
                       "this idempotency key was used for another command")
    return True


async def _command(request: web.Request, model: type[s.M], route: str,
                   run: Any, stake: Any = None) -> web.Response:
    """Authenticate, rate-limit, validate, bind the key, check the player's responsible-gaming
    limits (`stake(studio, table, player, body)`: the cents the command stakes, None for a
    decision whose amount only the table knows), run on the table, answer."""
    try:
        studio, who, session, table = _session(request)
        studio.limiter.take(f"player:{who.id}")
        body, data = await _body(request, model)
        replay = _claim_key(studio, who.id, body.key, route, data)
        async with studio.rg.lock(who.id):
            amount = stake(studio, table, who.id, body) if stake is not None else 0
            if stake is not None and not replay and amount != 0:  # 0: stakes nothing
                _within_limits(studio, table, who.id, amount)
            answer = await _through_wallet(studio, table, who.id, body, amount, run)
            if answer.get("ok") and amount and not replay:
                studio.rg.record(who.id, amount)
    except WebError as e:
        return e.response()
    if answer.get("ok"):
        studio.sessions.touch(session)  # a game action: the inactivity countdown restarts
    if replay:
        answer = {**answer, "replayed": True}
    return answer_response(answer)


async def _through_wallet(studio: Studio, table: TableService, player: str, body: Any,
                          amount: int | None, run: Any) -> dict[str, Any]:
    """The command at its table, funded from the player's operator wallet when it stakes (a
    decision that may add money: funded with what the player has on that position, the rest
    given back after it)."""
    actor = table.actor
    round_id = actor.state.round_id if actor.state is not None else "-"
    give_back = amount is None
    if give_back:  # a decision: only the words that may add money need funding
        choice = getattr(body, "choice", None)
        amount = sum(b["amount"] for b in actor.snapshot(f"player:{player}")["round"]
                     ["my_bets"] if b["position"] == body.position) \
            if choice in actor.game.choices_adding_money and actor.state is not None else 0
    return await studio.wallets.funded(
        player, amount or 0, body.key, table.table_id, round_id, actor.game.name,
        lambda: run(table, player, body), give_back=give_back)


def _within_limits(studio: Studio, table: TableService, player: str, amount: int | None
                   ) -> None:
    if studio.rg.session(player) is None:
        return  # no limits set for this player: nothing to read
    b = table.balance(player)
    try:
        studio.rg.check(player, amount, b["available"], b["reserved"], studio.clock.now())
    except LimitsRefused as e:
        raise WebError(403, e.code, e.message, **e.details) from None


def _no_autoplay_with_limits(studio: Studio, table: TableService, player: str,
                             b: s.AutoplayRequest) -> int:
    """Automatic play bets for the player unseen: not while an operator's limits apply."""
    if b.rounds and studio.rg.session(player) is not None:
        raise WebError(403, "rg.autoplay_off", "automatic play is off while your casino's "
                       "limits apply: place each bet yourself")
    return 0


# ----------------------------------------------------------------------------- handlers


async def join(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        who = player_of(request)
        studio.limiter.take(f"player:{who.id}")
        body, _ = await _body(request, s.JoinRequest)
        table = await studio.table_for(body.table_id, who.id)
        await prepared(table, who.id)
    except WebError as e:
        return e.response()
    session = studio.sessions.open(who.id, table.table_id)
    return web.json_response({
        "ok": True, "player": who.id, "session_id": session.id,
        "inactivity_s": studio.sessions.inactivity_s,
        "table": table.view(who.audience), "balance": table.balance(who.id),
        "history": table.history.for_player(who.id, 20)})


async def state(request: web.Request) -> web.Response:
    try:
        _, who, _, table = _session(request)
    except WebError as e:
        return e.response()
    return web.json_response({"ok": True, "table": table.view(who.audience),
                              "balance": table.balance(who.id)})


async def balance(request: web.Request) -> web.Response:
    try:
        _, who, _, table = _session(request)
    except WebError as e:
        return e.response()
    return web.json_response({"ok": True, "balance": table.balance(who.id)})


async def history(request: web.Request) -> web.Response:
    try:
        _, who, _, table = _session(request)
        limit = int(request.query.get("limit", "20"))
        if not 1 <= limit <= 100:
            raise ValueError
    except ValueError:
        return WebError(400, "request.invalid", "limit must be 1..100").response()
    except WebError as e:
        return e.response()
    return web.json_response({"ok": True, "rounds": table.history.for_player(who.id, limit)})


async def bets(request: web.Request) -> web.Response:
    async def run(t: TableService, player: str, b: s.BetRequest) -> dict:
        return await t.actor.place_bets(player, [i.model_dump() for i in b.bets], b.key)
    return await _command(request, s.BetRequest, "bets", run,
                          lambda _s, _t, _p, b: sum(i.amount for i in b.bets))


async def cancel(request: web.Request) -> web.Response:
    async def run(t: TableService, player: str, b: s.KeyedRequest) -> dict:
        return await t.actor.cancel_bets(player, b.key)
    return await _command(request, s.KeyedRequest, "cancel", run)


async def repeat(request: web.Request) -> web.Response:
    async def run(t: TableService, player: str, b: s.KeyedRequest) -> dict:
        return await t.actor.repeat_bets(player, b.key)
    return await _command(request, s.KeyedRequest, "repeat", run,  # the last round's bets
                          lambda _s, t, p, _b: sum(a for *_, a in t.actor.last_bets.get(p, ())))


async def autoplay(request: web.Request) -> web.Response:
    async def run(t: TableService, player: str, b: s.AutoplayRequest) -> dict:
        return await t.actor.set_autoplay(player, b.rounds, b.key)
    return await _command(request, s.AutoplayRequest, "autoplay", run, _no_autoplay_with_limits)


async def decide(request: web.Request) -> web.Response:
    async def run(t: TableService, player: str, b: s.DecideRequest) -> dict:
        return await t.actor.decide(player, b.position, b.choice, b.key)
    return await _command(request, s.DecideRequest, "decide", run,
                          lambda *_: None)  # a double or a split: time and reality check only


async def deal(request: web.Request) -> web.Response:
    async def run(t: TableService, player: str, b: s.DealRequest) -> dict:
        if b.bets is not None:
            return await t.actor.deal(player, None, b.key, [i.model_dump() for i in b.bets])
        return await t.actor.deal(player, b.amount, b.key) if b.position is None else \
            await t.actor.submit("deal", {"player": player, "amount": b.amount,
                                          "position": b.position}, f"player:{player}", b.key)
    return await _command(request, s.DealRequest, "deal", run,
                          lambda _s, _t, _p, b: sum(i.amount for i in b.bets)
                          if b.bets is not None else (b.amount or 0))


async def leave(request: web.Request) -> web.Response:
    try:
        studio, _, session, _ = _session(request)
    except WebError as e:
        return e.response()
    studio.sessions.close(session, "session.closed")
    return web.json_response({"ok": True})


async def websocket(request: web.Request) -> web.StreamResponse:
    studio = request.app[STUDIO]
    if not wsmod.origin_allowed(request, studio.web.allowed_origins):
        return WebError(403, "ws.origin_forbidden", "connect from the studio's own pages"
                        ).response()
    try:
        who = studio.signer.player(request.query.get("token") or
                                   request.cookies.get(PLAYER_COOKIE))
        session = studio.sessions.get(who.id, request.query.get("session"))
        table = studio.table(session.table_id)
    except WebError as e:
        return await wsmod.refuse(request, e)
    await prepared(table, who.id)
    # no permessage-deflate: a message shared by thousands of players is framed once and
    # the same bytes written to each (studio/web/frames.py); deflate would cost a compression
    # per player per message, the very cost the fan-out avoids
    ws = web.WebSocketResponse(heartbeat=30, compress=False)
    await ws.prepare(request)

    def state_message(with_balance: bool) -> str:
        """{"type": "state", "table", "session", "balance"?} as text: the table's part is
        built mostly once for all its players (`TableService.state_text`)."""
        info = {"id": session.id, "player": who.id, "last_action": session.last_action,
                "inactivity_s": studio.sessions.inactivity_s}
        text = ('{"type":"state","table":' + table.state_text(who.audience) + ',"session":'
                + json.dumps(info, separators=(",", ":")))
        if with_balance:
            text += ',"balance":' + json.dumps(table.balance(who.id), separators=(",", ":"))
        return text + "}"

    conn = wsmod.Connection(ws, table, who.audience, state_message, shared_state=True,
                            transport=None if ws.compress else request.transport)
    if session.closed:  # closed while we were shaking hands
        conn.close(session.closed)
    session.sockets.append(conn)  # a session holds a few sockets: a new one drops the oldest
    while len(session.sockets) > wsmod.MAX_SOCKETS_PER_SESSION:
        session.sockets.pop(0).close("ws.replaced")
    stop_listening = session.on_close(conn.close)

    def forget() -> None:
        if conn in session.sockets:
            session.sockets.remove(conn)
    stop_listening = _both(stop_listening, forget)
    private = studio.private_of(table)
    if private is None:
        table.actor.player_present(who.id, True)  # a seated player who leaves may stand
        try:
            return await wsmod.serve(request, conn, studio.limiter, [stop_listening])
        finally:
            table.actor.player_present(who.id, False)
    private.connected(who.id, id(conn))  # a private table outlives its player's absence
    try:                                 # only as the regulation's session rules say
        return await wsmod.serve(request, conn, studio.limiter, [stop_listening])
    finally:
        private.disconnected(who.id, id(conn))


async def prepared(table: TableService, player: str) -> None:
    """A table served by another process (an edge's `RemoteTable`) fetches the player's own
    view before the player's first state; a local table has it."""
    prepare = getattr(table, "prepare", None)
    if prepare is not None:
        await prepare(player)


def _both(first: Any, second: Any) -> Any:
    def run() -> None:
        first()
        second()
    return run


def add_routes(app: web.Application) -> None:
    app.router.add_post("/api/player/join", join)
    app.router.add_get("/api/player/state", state)
    app.router.add_get("/api/player/balance", balance)
    app.router.add_get("/api/player/history", history)
    app.router.add_post("/api/player/bets", bets)
    app.router.add_post("/api/player/cancel", cancel)
    app.router.add_post("/api/player/repeat", repeat)
    app.router.add_post("/api/player/autoplay", autoplay)
    app.router.add_post("/api/player/decide", decide)
    app.router.add_post("/api/player/deal", deal)
    app.router.add_post("/api/player/leave", leave)
    app.router.add_get("/ws/player", websocket)
