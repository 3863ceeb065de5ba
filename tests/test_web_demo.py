"""`studio demo` (what scripts/run starts): the whole studio comes up on 127.0.0.1, prints
the three addresses and the logins, serves a table whose round is open, deals a card the shoe
reads and the camera confirms, and stops on SIGINT."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import uuid
from pathlib import Path

import aiohttp

STUDIO = Path(sys.executable).parent / "studio"
WAIT_S = 30.0  # safety net on reading the demo's output


async def test_demo_starts_the_studio_and_prints_the_three_addresses(tmp_path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # the simulators' pty links go here
    # the shipped config with a 2-second betting window: the test waits for it to close
    config = tmp_path / "studio.toml"
    shipped = (Path(__file__).parents[1] / "config" / "studio.toml").read_text()
    config.write_text(re.sub(r"(?m)^betting_window_s = .*$", "betting_window_s = 2", shipped))
    proc = await asyncio.create_subprocess_exec(
        str(STUDIO), "demo", "--config", str(config), "--port", "0", "--no-video",
        "--deal-every", "0",
        "--database", f"sqlite:///{tmp_path / 'demo.db'}",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env)
    lines: list[str] = []
    try:
        while not lines or "Ctrl-C" not in lines[-1]:
            line = await asyncio.wait_for(proc.stdout.readline(), WAIT_S)
            assert line, f"the demo exited: {''.join(lines)}"
            lines.append(line.decode())
        out = "".join(lines)
        player = re.search(r"Player:\s+(http://127\.0\.0\.1:\d+)/play\?token=(\S+)", out)
        dealer = re.search(r"Dealer:\s+(http://127\.0\.0\.1:\d+/dealer)", out)
        tech = re.search(r"Technicians:\s+(http://127\.0\.0\.1:\d+/technician)", out)
        login = re.search(r"dealer login: (\S+) / (\S+)", out)
        tech_login = re.search(r"technician login: (\S+) / (\S+)", out)
        assert player and dealer and tech and login and tech_login, out
        assert "sem-live-1 camera cross-check on" in out
        base, token = player.group(1), player.group(2)
        assert str(tmp_path) in out  # the simulated devices' links
        async with aiohttp.ClientSession() as s:
            for url in (f"{base}/play", dealer.group(1), tech.group(1)):
                async with s.get(url) as r:
                    assert r.status == 200 and "<html" in await r.text()
            async with s.post(f"{base}/api/player/join", json={"table_id": "sem-live-1"},
                              headers={"Authorization": f"Bearer {token}"}) as r:
                joined = await r.json()
            assert joined["ok"] and joined["player"] == "demo-player"
            assert joined["balance"]["available"] >= 100_000
            assert joined["table"]["round"]["phase"] == "betting"
            async with s.post(f"{base}/api/staff/login", json={
                    "username": login.group(1), "password": login.group(2)}) as r:
                assert (await r.json())["role"] == "dealer"
            await _a_card_through_shoe_and_camera(base, token, joined["session_id"],
                                                  login.groups(), tech_login.groups())
            assert re.search(r"Sette e Mezzo Quota Fissa: http://\S+/play\?table="
                             r"sem-quota-fissa-1&token=", out), out
            await _a_quota_fissa_hand(s, base, token)
            await _a_punto_e_banco_hand(s, base, token)
            await _a_blackjack_game(s, base, token)
            await _a_live_punto_e_banco_round(base, token, tech_login.groups())
            second = re.search(r"Second player \(a seat beside, a bet behind\): "
                               r"http://\S+/play\?token=(\S+)", out)
            assert second, out
            await _a_live_blackjack_round(base, token, second.group(1), tech_login.groups())
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
        code = await asyncio.wait_for(proc.wait(), WAIT_S)
    assert code == 0


async def _a_card_through_shoe_and_camera(base: str, token: str, session: str,
                                          dealer: tuple[str, ...], tech: tuple[str, ...]) -> None:
    """The demo player bets, the betting window closes, a technician deals from the simulated
    shoe until a card reaches the players: the live camera watch confirmed it."""
    player = {"Authorization": f"Bearer {token}", "X-Session": session}
    def staff() -> aiohttp.ClientSession:  # its own cookie jar, kept for an IP address
        return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    async with aiohttp.ClientSession() as p, staff() as d, staff() as t:
        ws = await p.ws_connect(f"{base}/ws/player?token={token}&session={session}",
                                headers={"Origin": base})
        async with p.post(f"{base}/api/player/bets", headers=player, json={
                "key": uuid.uuid4().hex, "bets": [{"position": 1, "kind": "main",
                                                   "amount": 100}]}) as r:
            assert (await r.json())["ok"]
        for session_, (user, password) in ((d, dealer), (t, tech)):
            async with session_.post(f"{base}/api/staff/login", json={
                    "username": user, "password": password}) as r:
                assert r.status == 200
        async with d.get(f"{base}/api/tables/sem-live-1/dealer/state") as r:
            assert (await r.json())["table"]["cross_check"]  # the dealer is told
        async with t.get(f"{base}/api/tables/sem-live-1/devices") as r:
            assert (await r.json())["simulators"]["camera"] is not None
        while True:  # the betting window closes on its timer
            msg = await asyncio.wait_for(ws.receive_json(), WAIT_S)
            if msg.get("event", msg).get("type") == "betting_closed":
                break
        sim = f"{base}/api/tables/sem-live-1/sim"
        async with t.post(sim, json={"device": "shoe", "action": "deal"}) as r:
            assert (await r.json())["ok"]  # the burn card (or the first card)
        async with t.post(sim, json={"device": "shoe", "action": "deal"}) as r:
            assert (await r.json())["ok"]
        seen: list[dict] = []
        try:
            while True:
                msg = await asyncio.wait_for(ws.receive_json(), WAIT_S)
                event = msg.get("event", msg)
                seen.append(event)
                if event.get("type") == "card_dealt":
                    break
        except TimeoutError:
            async with t.get(f"{base}/api/tables/sem-live-1/devices") as r:
                devices = await r.json()
            raise AssertionError(f"no card reached the players: {seen} {devices}") from None
        assert event["source"] == "shoe+camera", event
        async with t.get(f"{base}/api/tables/sem-live-1/devices") as r:
            camera = (await r.json())["simulators"]["camera"]
        assert camera["cards_seen"] >= 1 and camera["errors"] == 0
        await ws.close()


async def _a_quota_fissa_hand(s: aiohttp.ClientSession, base: str, token: str) -> None:
    """The demo player opens a private Quota Fissa table and plays a hand to its settlement
    (standing whenever the rules allow: the cards are the demo's RNG shoe's)."""
    async with s.get(f"{base}/play?table=sem-quota-fissa-1") as r:
        assert "quota_fissa.js" in await r.text()
    async with s.post(f"{base}/api/player/join", json={"table_id": "sem-quota-fissa-1"},
                      headers={"Authorization": f"Bearer {token}"}) as r:
        joined = await r.json()
    assert joined["ok"] and joined["table"]["table_id"] == "sem-quota-fissa-1/demo-player"
    headers = {"Authorization": f"Bearer {token}", "X-Session": joined["session_id"]}
    before = joined["balance"]["available"]
    async with s.post(f"{base}/api/player/deal", headers=headers,
                      json={"key": uuid.uuid4().hex, "amount": 500}) as r:
        assert (await r.json())["ok"]
    for _ in range(12):
        async with s.get(f"{base}/api/player/state", headers=headers) as r:
            rnd = (await r.json())["table"]["round"]
        if rnd["phase"] == "closed":
            break
        choice = "stai" if "stai" in rnd["choices"] else "carta"
        async with s.post(f"{base}/api/player/decide", headers=headers, json={
                "key": uuid.uuid4().hex, "position": 1, "choice": choice}) as r:
            assert (await r.json())["ok"]
    assert rnd["phase"] == "closed"
    async with s.get(f"{base}/api/player/history", headers=headers) as r:
        (hand,) = (await r.json())["rounds"]
    async with s.get(f"{base}/api/player/balance", headers=headers) as r:
        after = (await r.json())["balance"]["available"]
    assert after == before + hand["net"] and hand["results"][0]["result"] in (
        "win", "lose", "push")


async def _a_punto_e_banco_hand(s: aiohttp.ClientSession, base: str, token: str) -> None:
    """The demo player opens the virtual Punto e Banco table and plays a hand: the RNG deals
    it whole, and the balance moves by exactly what the history says."""
    async with s.get(f"{base}/play?table=pb-virtual-1") as r:
        assert "punto_e_banco.js" in await r.text()
    async with s.post(f"{base}/api/player/join", json={"table_id": "pb-virtual-1"},
                      headers={"Authorization": f"Bearer {token}"}) as r:
        joined = await r.json()
    headers = {"Authorization": f"Bearer {token}", "X-Session": joined["session_id"]}
    before = joined["balance"]["available"]
    async with s.post(f"{base}/api/player/deal", headers=headers, json={
            "key": uuid.uuid4().hex, "bets": [{"position": 1, "kind": "banco", "amount": 1000},
                                              {"position": 1, "kind": "pari", "amount": 100}]}
                      ) as r:
        dealt = await r.json()
    assert dealt["ok"], dealt
    async with s.get(f"{base}/api/player/history", headers=headers) as r:
        (hand,) = (await r.json())["rounds"]
    assert hand["status"] == "closed" and hand["outcome"] in ("punto", "banco", "pari")
    assert dealt["balance"]["available"] == before + hand["net"]


async def _a_live_punto_e_banco_round(base: str, token: str, tech: tuple[str, ...]) -> None:
    """The live Punto e Banco table of the demo: the player bets in the window, a technician
    deals from its simulated eight-deck shoe (the burn first) until the hand is settled, and
    the balance moves by exactly what the history says; the burn card is never published."""
    async with aiohttp.ClientSession() as p, aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True)) as t:
        async with p.get(f"{base}/play?table=pb-live-1") as r:
            assert "live.js" in await r.text()
        async with p.post(f"{base}/api/player/join", json={"table_id": "pb-live-1"},
                          headers={"Authorization": f"Bearer {token}"}) as r:
            joined = await r.json()
        session = joined["session_id"]
        player = {"Authorization": f"Bearer {token}", "X-Session": session}
        ws = await p.ws_connect(f"{base}/ws/player?token={token}&session={session}",
                                headers={"Origin": base})
        events: list[dict] = []
        while True:  # a window opens (the first may have closed while other tables played)
            async with p.get(f"{base}/api/player/state", headers=player) as r:
                state = await r.json()
            if (state["table"]["round"] or {}).get("phase") == "betting":
                break
            msg = await asyncio.wait_for(ws.receive_json(), WAIT_S)
            events.append(msg.get("event", msg))
        before = state["balance"]["available"]
        async with p.post(f"{base}/api/player/bets", headers=player, json={
                "key": uuid.uuid4().hex, "bets": [{"position": 1, "kind": "banco", "amount": 1000},
                                                  {"position": 1, "kind": "pari", "amount": 100}]}
                          ) as r:
            placed = await r.json()
        assert placed["ok"], placed
        ours = state["table"]["round"]["round_id"]
        async with t.post(f"{base}/api/staff/login", json={
                "username": tech[0], "password": tech[1]}) as r:
            assert r.status == 200
        while True:
            msg = await asyncio.wait_for(ws.receive_json(), WAIT_S)
            events.append(msg.get("event", msg))
            if events[-1].get("type") == "betting_closed":
                break
        while True:  # one card at a time, each once the one before has reached the players
            async with p.get(f"{base}/api/player/state", headers=player) as r:
                now = (await r.json())["table"]["round"] or {}
            if now.get("round_id") != ours or now.get("phase") == "closed":
                break  # (the next round may already be open)
            async with t.post(f"{base}/api/tables/pb-live-1/sim",
                              json={"device": "shoe", "action": "deal"}) as r:
                assert (await r.json())["ok"]
            while True:
                msg = await asyncio.wait_for(ws.receive_json(), WAIT_S)
                events.append(msg.get("event", msg))
                if events[-1].get("type") in ("card_dealt", "card_burned"):
                    break
        types = [e.get("type") for e in events]
        assert "card_burned" in types and "burn_card" not in types
        assert sum(1 for x in types if x == "card_dealt") in (4, 5, 6)
        async with p.get(f"{base}/api/player/history", headers=player) as r:
            hand = (await r.json())["rounds"][0]  # this table's newest hand
        async with p.get(f"{base}/api/player/balance", headers=player) as r:
            after = (await r.json())["balance"]["available"]
        assert hand["outcome"] in ("punto", "banco", "pari")
        assert after == before + hand["net"]
        await ws.close()


async def _a_blackjack_game(s: aiohttp.ClientSession, base: str, token: str) -> None:
    """The demo player opens the virtual Blackjack table and plays a game on two positions,
    declining insurance and standing: the balance moves by exactly what the history says."""
    async with s.get(f"{base}/play?table=bj-virtual-1") as r:
        assert "blackjack.js" in await r.text()
    async with s.post(f"{base}/api/player/join", json={"table_id": "bj-virtual-1"},
                      headers={"Authorization": f"Bearer {token}"}) as r:
        joined = await r.json()
    headers = {"Authorization": f"Bearer {token}", "X-Session": joined["session_id"]}
    before = joined["balance"]["available"]
    async with s.post(f"{base}/api/player/deal", headers=headers, json={
            "key": uuid.uuid4().hex, "bets": [{"position": 1, "kind": "main", "amount": 500},
                                              {"position": 2, "kind": "main", "amount": 500}]}
                      ) as r:
        dealt = await r.json()
    assert dealt["ok"], dealt
    for _ in range(12):
        async with s.get(f"{base}/api/player/state", headers=headers) as r:
            rnd = (await r.json())["table"]["round"]
        if rnd["phase"] == "closed":
            break
        assert len(rnd["dealer"]) == 2 and rnd["dealer"][0] is not None
        assert rnd["dealer"][1] is None  # the hole card face down while players decide
        choice = "no_insurance" if rnd["insurance"] else "stay"
        async with s.post(f"{base}/api/player/decide", headers=headers, json={
                "key": uuid.uuid4().hex, "position": rnd["deciding"], "choice": choice}) as r:
            assert (await r.json())["ok"]
    assert rnd["phase"] == "closed" and None not in rnd["dealer"]
    async with s.get(f"{base}/api/player/history", headers=headers) as r:
        (game,) = (await r.json())["rounds"]
    async with s.get(f"{base}/api/player/balance", headers=headers) as r:
        after = (await r.json())["balance"]["available"]
    assert after == before + game["net"]


async def _a_live_blackjack_round(base: str, seated: str, behind: str,
                                  tech: tuple[str, ...]) -> None:
    """The live Blackjack table of the demo: the demo player takes seat 1, the second demo
    player bets behind it, a technician deals from the simulated eight-deck shoe, the seated
    player stands whenever asked; both balances move by exactly what their histories say,
    and neither the burn card nor the hole card reaches a player before its time."""
    table = "bj-live-1"
    async with aiohttp.ClientSession() as p, aiohttp.ClientSession() as q, aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True)) as t:
        async with p.get(f"{base}/play?table={table}") as r:
            assert "/games/blackjack-live/live.js" in await r.text()
        heads = {}
        for s, token in ((p, seated), (q, behind)):
            async with s.post(f"{base}/api/player/join", json={"table_id": table},
                              headers={"Authorization": f"Bearer {token}"}) as r:
                joined = await r.json()
            assert joined["ok"], joined
            heads[token] = ({"Authorization": f"Bearer {token}",
                             "X-Session": joined["session_id"]}, joined["session_id"])
        player, session = heads[seated]
        second, _ = heads[behind]
        ws = await p.ws_connect(f"{base}/ws/player?token={seated}&session={session}",
                                headers={"Origin": base})
        async with t.post(f"{base}/api/staff/login", json={
                "username": tech[0], "password": tech[1]}) as r:
            assert r.status == 200
        events: list[dict] = []

        async def until(*types: str) -> dict:
            while True:
                msg = await asyncio.wait_for(ws.receive_json(), WAIT_S)
                events.append(msg.get("event", msg))
                if events[-1].get("type") in types:
                    return events[-1]

        async def balance(s: aiohttp.ClientSession, h: dict) -> int:
            async with s.get(f"{base}/api/player/balance", headers=h) as r:
                return (await r.json())["balance"]["available"]

        cards = ("card_dealt", "card_burned", "hole_card_dealt")  # one per card out of the shoe
        dealt = 0  # cards the technician has dealt since the seated bet went in

        async def play_out() -> None:
            """Deal and stand until the round is closed. A card is dealt only once the one
            before it has reached the players: a card the round does not want would hold it."""
            nonlocal dealt
            seen = sum(1 for e in events if e.get("type") in cards) - dealt
            ours = None
            while True:
                async with p.get(f"{base}/api/player/state", headers=player) as r:
                    rnd = (await r.json())["table"]["round"] or {}
                ours = ours or rnd.get("round_id")
                if rnd.get("round_id") != ours or rnd.get("phase") == "closed":
                    return  # (the next round may already be open)
                if len(rnd["dealer"]) >= 2 and rnd["phase"] in ("decisions", "insurance"):
                    assert rnd["dealer"][1] is None  # the hole card face down while they play
                if rnd["choices"]:  # the seated player's turn: stand (or no insurance)
                    choice = "no_insurance" if rnd["insurance"] else "stay"
                    async with p.post(f"{base}/api/player/decide", headers=player, json={
                            "key": uuid.uuid4().hex, "position": rnd["deciding"],
                            "choice": choice}) as r:
                        assert (await r.json())["ok"]
                elif rnd["phase"] in ("decisions", "insurance"):
                    await until(*cards, "hole_card_revealed", "decision_requested",
                                "round_closed")
                else:
                    async with t.post(f"{base}/api/tables/{table}/sim",
                                      json={"device": "shoe", "action": "deal"}) as r:
                        assert (await r.json())["ok"]
                    dealt += 1
                    while sum(1 for e in events if e.get("type") in cards) - seen < dealt:
                        await until(*cards)

        for _ in range(5):  # a window in which both bets go in (the demo's windows are short)
            async with p.get(f"{base}/api/player/state", headers=player) as r:
                rnd = (await r.json())["table"]["round"] or {}
            if rnd.get("phase") != "betting":
                await until("betting_opened")
                continue  # an event of before may have said so: ask the state again
            before = (await balance(p, player), await balance(q, second))
            async with p.post(f"{base}/api/player/bets", headers=player, json={
                    "key": uuid.uuid4().hex,
                    "bets": [{"position": 1, "kind": "main", "amount": 1000}]}) as r:
                took = await r.json()
            async with q.post(f"{base}/api/player/bets", headers=second, json={
                    "key": uuid.uuid4().hex,
                    "bets": [{"position": 1, "kind": "behind", "amount": 500}]}) as r:
                backed = await r.json()
            if took["ok"] and backed["ok"]:
                break
            assert "bet.window_closed" in (took.get("error", {}).get("code"),
                                           backed.get("error", {}).get("code")), (took, backed)
            if took["ok"]:  # the window closed between the two bets: play that round out
                await until("betting_closed")
                await play_out()
        else:
            raise AssertionError("no betting window took both bets")
        await until("betting_closed")
        await play_out()
        types = [e.get("type") for e in events]
        assert "burn_card" not in types and "hole_card" not in types
        for s, h, was in ((p, player, before[0]), (q, second, before[1])):
            async with s.get(f"{base}/api/player/history", headers=h) as r:
                hand = (await r.json())["rounds"][0]  # this table's newest round
            assert hand["status"] == "closed", hand
            assert await balance(s, h) == was + hand["net"]
        await ws.close()
