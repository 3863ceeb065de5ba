"""The player API of seated tables (`studio.table.seated`): players who bank for each other.

    GET  /seated?table=...&token=...&lang=it|en     the table's page (its game's static page)
    GET  /api/seated                                 the seated tables
    GET  /api/seated/{table}                         the table as this player sees it
    GET  /api/seated/{table}/tickets                 the player's transaction tickets here
    POST /api/seated/{table}/act   {key, type, ...}  a command: sit {amount, seat?, autoplay?},
                                                     rebuy {amount}, leave, sitout {on},
                                                     accept {amount}, refuse, join {plays},
                                                     stake {amount, hit}, decide {hit},
                                                     preset {hit, amount?}, remove_preset
    GET  /ws/seated/{table}?token=...                the table's state, pushed on each change
    GET  /api/seated/tournaments/{id}                a tournament's lobby: tables, eliminated,
                                                     ranking, prizes
    POST /api/seated/tournaments/{id}/register       the buy-in (ledger players; a sit & go
                                                     starts when full:
                                                     its tables are seated tables, played here)

The player is who the token says (`Authorization: Bearer`, or ``token`` on the WebSocket),
never a field of the body. Every command carries an idempotency key: the table remembers the
first answer to (player, key). A refusal is an answer with a stable code (``mp.*``,
``ledger.*``) and changes nothing. Mounted by `add_routes` beside the studio's application.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from aiohttp import WSMsgType, web

from studio import ledger_transfers
from studio.ledger import LedgerError
from studio.table.seated import SeatedTable, SeatedTables, account_of
from studio.table.tournaments import Tournament, TournamentError
from studio.web.context import STUDIO
from studio.web.errors import WebError, answer_response
from studio.web.schemas import parse_json
from studio.web.ws import origin_allowed

SEATED = web.AppKey("seated", SeatedTables)
TOURNAMENTS = web.AppKey("tournaments", dict)
COMMANDS = frozenset({"sit", "rebuy", "leave", "sitout", "accept", "refuse", "join", "stake",
                      "decide", "preset", "remove_preset"})
MAX_QUEUE = 200


def _player(request: web.Request, token: str | None = None) -> str:
    if token is None:
        header = request.headers.get("Authorization", "")
        token = header[7:].strip() if header.startswith("Bearer ") else None
    return request.app[STUDIO].signer.player(token).id


def _table(request: web.Request) -> SeatedTable:
    table = request.app[SEATED].tables.get(request.match_info["table"])
    if table is None:
        raise WebError(404, "table.unknown", "no such seated table")
    return table


async def page(request: web.Request) -> web.FileResponse:
    from studio.web.app import game_static

    table = request.app[SEATED].tables.get(request.query.get("table", ""))
    path = game_static(table.game.name, "page.html") if table is not None else None
    if path is None or not path.is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(path)


async def tables(request: web.Request) -> web.Response:
    return web.json_response({"ok": True, "tables": [
        {"id": t.table_id, "name": t.cfg.name, "game": t.game.name, "pace": "seated",
         "players": len(t.view().get("players", []))}
        for t in request.app[SEATED].tables.values()]})


async def state(request: web.Request) -> web.Response:
    player = _player(request)
    return web.json_response({"ok": True, "state": _table(request).view(player)})


async def tickets(request: web.Request) -> web.Response:
    """Every money movement of the player at this table (buy-in, rebuy, each hand, cash-out),
    newest first, as tickets with their legs (its account, its table credit, the piatto, the
    rake)."""
    player = _player(request)
    table = _table(request)
    accounts = [account_of(table.table_id, f"seat:{player}")]
    with table.store.reader() as tx:
        found = ledger_transfers.tickets_of(tx, accounts, limit=50)
    names = {account_of(table.table_id, f"seat:{player}"): "table_credit",
             account_of(table.table_id, f"wallet:{player}"): "account",
             account_of(table.table_id, "pool"): "piatto",
             account_of(table.table_id, "rake"): "rake"}

    def named(legs: dict[str, int]) -> dict[str, int]:
        """Legs as this player may see them: other players' seats as one sum."""
        out: dict[str, int] = {}
        for account, cents in legs.items():
            name = names.get(account, "other_players")
            out[name] = out.get(name, 0) + cents
        return out

    return web.json_response({"ok": True, "tickets": [
        {**t, "legs": named(t["legs"])} for t in found]})


async def act(request: web.Request) -> web.Response:
    player = _player(request)
    table = _table(request)
    request.app[STUDIO].limiter.take(f"player:{player}")  # the studio's rate per client
    data = parse_json(await request.read())
    if not isinstance(data, dict):
        raise WebError(400, "request.invalid", "a JSON object")
    key, kind = data.pop("key", None), data.get("type")
    if not isinstance(key, str) or not 8 <= len(key) <= 100:
        raise WebError(400, "request.key_required", "an idempotency key of 8-100 characters")
    if kind not in COMMANDS:
        raise WebError(400, "request.invalid", f"type is one of {', '.join(sorted(COMMANDS))}")
    data.pop("player", None)
    data.pop("director", None)  # what a tournament does for its players is not theirs to ask
    if kind != "leave":  # leaving is never refused
        _within_limits(request, player)
    return answer_response(await _through_wallet(request, table, player, data, key))


def _within_limits(request: web.Request, player: str) -> None:
    """The operator's session time and reality check, as at every table. A seated table's
    stakes are bounded by the table credit the player bought in (its loss there can never
    pass it): the amounts are not checked against the session's stake and loss limits."""
    from studio import ledger
    from studio.operators.limits import LimitsRefused

    studio = request.app[STUDIO]
    if studio.rg.session(player) is None:
        return
    with studio.store.reader() as tx:
        b = ledger.balance(tx, player)
    try:
        studio.rg.check(player, None, b.available + studio.wallets.outside(player),
                        b.reserved, studio.clock.now())
    except LimitsRefused as e:
        raise WebError(403, e.code, e.message, **e.details) from None


async def _through_wallet(request: web.Request, table: SeatedTable, player: str,
                          data: dict[str, Any], key: str) -> dict[str, Any]:
    """A launched player's money is in its operator's wallet: a buy-in or rebuy is debited
    from it first (back to it if the table refuses), and what the player takes from the
    table goes back to it (studio.wallet.bridge; a studio-ledger player is untouched)."""
    wallets = request.app[STUDIO].wallets
    amount = data.get("amount") if data["type"] in ("sit", "rebuy") else 0
    answer = await wallets.funded(
        player, amount if type(amount) is int else 0, key, table.table_id, "-",
        table.game.name, lambda: table.act(player, data, key))
    if data["type"] == "leave" and answer.get("ok"):
        await wallets.pay_out(player, table.table_id, "-", table.game.name)
    return answer


async def socket(request: web.Request) -> web.WebSocketResponse:
    player = _player(request, request.query.get("token") or "")
    table = _table(request)
    if not origin_allowed(request, request.app[STUDIO].web.allowed_origins):
        raise WebError(403, "ws.origin_forbidden", "connect from the studio's own pages")
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(MAX_QUEUE)
    mine = f"player:{player}"

    def listen(table_id: str, audience: str, event: dict[str, Any]) -> None:
        if table_id != table.table_id or audience not in (mine, "public"):
            return
        if audience == "public" and player in event.get("state", {}).get("players", ()):
            return  # a seated player gets its own view instead
        with contextlib.suppress(asyncio.QueueFull):
            queue.put_nowait(event)

    queue.put_nowait({"type": "table_state", "state": table.view(player)})
    unsubscribe = table.hub.subscribe(listen)

    async def send() -> None:
        while True:
            await ws.send_json(await queue.get())

    sender = asyncio.create_task(send())
    try:
        async for msg in ws:
            if msg.type == WSMsgType.TEXT and msg.data == '{"type":"resync"}':
                with contextlib.suppress(asyncio.QueueFull):
                    queue.put_nowait({"type": "table_state", "state": table.view(player)})
            elif msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                break
    finally:
        unsubscribe()
        sender.cancel()
    return ws


def _tournament(request: web.Request) -> Tournament:
    found = request.app[TOURNAMENTS].get(request.match_info["id"])
    if found is None:
        raise WebError(404, "tournament.unknown", "no such tournament")
    return found


async def tournament(request: web.Request) -> web.Response:
    return web.json_response({"ok": True, "tournament": _tournament(request).status()})


async def register(request: web.Request) -> web.Response:
    player = _player(request)
    cup = _tournament(request)
    request.app[STUDIO].limiter.take(f"player:{player}")
    try:
        ticket = cup.register(player)
    except (TournamentError, LedgerError) as e:
        return answer_response({"ok": False, "error": {"code": e.code, "message": str(e)}})
    if cup.full:
        await cup.start()
        cup.task = asyncio.create_task(cup.run(), name=f"tournament-{cup.setup.id}")
    return web.json_response({"ok": True, "ticket": ticket.movement_id,
                              "tournament": cup.status()})


def add_tournament(app: web.Application, cup: Tournament) -> None:
    """Serve a tournament's lobby and registration (its tables are the group's)."""
    app[TOURNAMENTS][cup.setup.id] = cup


def add_routes(app: web.Application, seated: SeatedTables) -> None:
    app[SEATED] = seated
    app[STUDIO].wallets.watch(seated.hub)  # round ends pay wallet players back
    app[TOURNAMENTS] = {}
    app.router.add_get("/api/seated/tournaments/{id}", tournament)
    app.router.add_post("/api/seated/tournaments/{id}/register", register)
    app.router.add_get("/seated", page)
    app.router.add_get("/api/seated", tables)
    app.router.add_get("/api/seated/{table}", state)
    app.router.add_get("/api/seated/{table}/tickets", tickets)
    app.router.add_post("/api/seated/{table}/act", act)
    app.router.add_get("/ws/seated/{table}", socket)
