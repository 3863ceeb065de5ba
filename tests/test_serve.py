"""`studio serve`: the production studio on real processes. The simulated shoe and shuffler run
as `studio sim` programs on ptys where the config's port "sim" points; staff accounts come from
the config (made by `studio staff-account`), the player's token from `studio player-token`. A
round is dealt by the shoe program, the studio is killed (SIGKILL) with the bet in flight, and
the restarted studio has voided the round and refunded the bet exactly once."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import aiohttp

from studio import ledger
from studio.storage import Store

STUDIO = Path(sys.executable).parent / "studio"
WAIT_S = 30.0  # safety net on each read of a process's output or a socket
SECRET = "k" * 40
TABLE = "sem-live-1"


class Program:
    """A `studio` subprocess read line by line (and, for the simulators, written to)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []

    @classmethod
    async def start(cls, env: dict[str, str], *args: str) -> Program:
        return cls(await asyncio.create_subprocess_exec(
            str(STUDIO), *args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, env=env))

    async def until(self, text: str) -> str:
        while True:
            line = (await asyncio.wait_for(self.proc.stdout.readline(), WAIT_S)).decode()
            assert line, f"the program exited: {''.join(self.lines)}"
            self.lines.append(line)
            if text in line:
                return line

    async def say(self, command: str) -> str:
        """One simulator command, its one-line answer."""
        self.proc.stdin.write(f"{command}\n".encode())
        await self.proc.stdin.drain()
        line = (await asyncio.wait_for(self.proc.stdout.readline(), WAIT_S)).decode()
        assert line.startswith("ok"), line
        return line

    async def end(self, sig: int = signal.SIGTERM) -> int:
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
        return await asyncio.wait_for(self.proc.wait(), WAIT_S)


async def _run(env: dict[str, str], *args: str) -> tuple[int, str]:
    """A short `studio` command to its end: exit code and output."""
    proc = await asyncio.create_subprocess_exec(str(STUDIO), *args, env=env,
                                                stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), WAIT_S)
    return proc.returncode, out.decode()


def _config(tmp: Path) -> Path:
    shipped = (Path(__file__).parents[1] / "config" / "studio.toml").read_text()
    text = re.sub(r"(?m)^betting_window_s = .*$", "betting_window_s = 2", shipped)
    for user, role in (("dealer1", "dealer"), ("tech1", "technician")):
        text += subprocess.run([str(STUDIO), "staff-account", user, "--role", role],
                               input=f"{user}-password\n", capture_output=True, text=True,
                               check=True).stdout
    path = tmp / "studio.toml"
    path.write_text(text)
    return path


async def _serve(env: dict[str, str], config: Path, db: str) -> tuple[Program, str]:
    serve = await Program.start(env, "serve", "--config", str(config), "--port", "0",
                                "--database", db)
    line = await serve.until("Studio serving on")
    await serve.until("SIGINT or SIGTERM")
    assert "devices: shoe, shuffler" in "".join(serve.lines)
    return serve, re.search(r"(http://127\.0\.0\.1:\d+)", line).group(1)


async def _events(ws, kind: str) -> dict:
    while True:
        msg = await asyncio.wait_for(ws.receive_json(), WAIT_S)
        event = msg.get("event", msg)
        if event.get("type") == kind:
            return event


async def test_serve_deals_from_the_shoe_program_and_refunds_once_after_a_kill(
        tmp_path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path), "STUDIO_SECRET": SECRET}
    config = _config(tmp_path)
    db = f"sqlite:///{tmp_path / 'studio.db'}"
    store = Store.open(db)
    with store.transaction() as tx:
        ledger.credit(tx, "deposit/ann/1", "ann", 10_000)
    store.dispose()

    shuffler = await Program.start(env, "sim", "shuffler", "--table", TABLE,
                                   "--config", str(config))
    shoe = await Program.start(env, "sim", "shoe", "--table", TABLE, "--config", str(config))
    sims = [shuffler, shoe]
    for sim in sims:
        await sim.until("ready port=")
    code, token = await _run(env, "player-token", "ann", "--config", str(config))
    assert code == 0, token
    token = token.strip()
    serve, base = await _serve(env, config, db)
    try:
        await shuffler.say("shuffle S-1")
        await shoe.say("deck S-1")
        jar = aiohttp.CookieJar(unsafe=True)  # the staff cookie on an IP address
        async with aiohttp.ClientSession(cookie_jar=jar) as dealer, \
                aiohttp.ClientSession() as player:
            async with dealer.post(f"{base}/api/staff/login", json={
                    "username": "dealer1", "password": "dealer1-password"}) as r:
                assert (await r.json())["role"] == "dealer"
            async with player.post(f"{base}/api/player/join", json={"table_id": TABLE},
                                   headers={"Authorization": f"Bearer {token}"}) as r:
                joined = await r.json()
            assert joined["ok"] and joined["balance"]["available"] == 10_000
            headers = {"Authorization": f"Bearer {token}", "X-Session": joined["session_id"]}
            ws = await player.ws_connect(
                f"{base}/ws/player?token={token}&session={joined['session_id']}",
                headers={"Origin": base})
            async with dealer.post(f"{base}/api/tables/{TABLE}/dealer",
                                   json={"key": uuid.uuid4().hex, "command": "start"}) as r:
                assert (await r.json())["ok"]
            await _events(ws, "betting_opened")
            async with player.post(f"{base}/api/player/bets", headers=headers, json={
                    "key": uuid.uuid4().hex,
                    "bets": [{"position": 1, "kind": "main", "amount": 1000}]}) as r:
                assert (await r.json())["ok"]
            await _events(ws, "betting_closed")
            await shoe.say("deal")  # the burn card: never shown
            await shoe.say("deal")
            card = await _events(ws, "card_dealt")
            assert card["source"] == "shoe" and card["position"] == 1
            await ws.close()
            # and a private Quota Fissa hand, dealt and waiting for the player's choice
            async with player.post(f"{base}/api/player/join", json={
                    "table_id": "sem-quota-fissa-1"},
                    headers={"Authorization": f"Bearer {token}"}) as r:
                joined = await r.json()
            headers = {"Authorization": f"Bearer {token}", "X-Session": joined["session_id"]}
            async with player.post(f"{base}/api/player/deal", headers=headers, json={
                    "key": uuid.uuid4().hex, "amount": 500}) as r:
                dealt = await r.json()
            assert dealt["ok"] and dealt["balance"]["reserved"] == 1500

        assert await serve.end(signal.SIGKILL) == -signal.SIGKILL  # the bets are in flight
        store = Store.open(db)
        with store.reader() as tx:
            assert ledger.balance(tx, "ann").reserved == 1500
        store.dispose()

        serve, base = await _serve(env, config, db)  # both void: each refunded once
        assert "sem-quota-fissa-1: 1 hand(s) left in flight were void and refunded" in "".join(
            serve.lines)
        store = Store.open(db)
        with store.reader() as tx:
            b = ledger.balance(tx, "ann")
        store.dispose()
        assert (b.available, b.reserved) == (10_000, 0)
        code, audit = await _run(env, "audit", "verify", "--database", db)
        assert code == 0, audit
    finally:
        assert await serve.end() in (0, -signal.SIGKILL)
        for sim in sims:
            sim.proc.stdin.close()
            await sim.end()


async def test_a_served_camera_is_opened_once_for_the_video_and_the_recogniser(tmp_path) -> None:
    """A table camera (here a recorded video file, opened by OpenCV as a camera would be) with
    its calibration: the players' video reads it, and the recogniser, looking at the newest
    picture, vouches for the card lying on the felt."""
    import cv2

    from devices.camera.calibration import save
    from devices.camera.sim_camera import SimCamera
    from studio.clock import SchedulerClock
    from studio.commands.serve import start_table
    from studio.config import load_config
    from studio.table.hub import Hub

    cam = SimCamera("napoletane", positions=3)
    cam.place_card("7c", 1)
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 25, (1280, 720))
    for i in range(20):
        writer.write(cam.frame(i / 25))
    writer.release()
    save(tmp_path / "camera.json", cam.camera)
    shipped = (Path(__file__).parents[1] / "config" / "studio.toml").read_text()
    config = tmp_path / "studio.toml"
    config.write_text(shipped.replace(
        '# camera = { source = "0"', f'camera = {{ source = "{video}"').replace(
        'calibration = "camera-sem-live-1.json" }', 'calibration = "camera.json" }'))
    cfg = load_config(config)
    table = cfg.table(TABLE)
    assert table.devices.camera is not None and table.devices.camera.recognise_fps == 5.0
    # the camera alone is the card source here: no shoe to wait for
    table = table.model_copy(update={"card_source": "camera", "devices": table.devices.model_copy(
        update={"shoe": None, "shuffler": None})})
    store = Store.open(f"sqlite:///{tmp_path / 'studio.db'}")
    clock = SchedulerClock(asyncio.get_running_loop())
    rt = await start_table(cfg, table, store, clock, Hub())
    try:
        seen: list[object] = []
        vouched = asyncio.Event()
        sink = rt.watch.sink

        def spy(card: object) -> None:
            seen.append(card)
            vouched.set()
            sink(card)

        rt.watch.sink = spy
        await asyncio.wait_for(vouched.wait(), WAIT_S)
        assert [(c.code, c.region) for c in seen] == [("7c", "position-1")]
        assert rt.video.broadcaster.metrics.frames_captured >= 3  # the video read it too
        assert rt.attached.counters["camera_sightings"] == 1
    finally:
        await rt.stop()
        clock.shutdown()
        store.dispose()


async def test_serve_and_the_credentials_refuse_what_would_run_an_unsafe_studio(
        tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "STUDIO_SECRET"}
    shipped = Path(__file__).parents[1] / "config" / "studio.toml"
    code, out = await _run(env, "serve", "--config", str(shipped), "--port", "0")
    assert (code, out.split(":")[0]) == (2, "error serve.no_accounts")  # no made-up logins
    config = _config(tmp_path)
    code, out = await _run(env, "serve", "--config", str(config), "--port", "0")
    assert (code, out.split(":")[0]) == (2, "error serve.no_secret")
    code, out = await _run({**env, "STUDIO_SECRET": "short"}, "player-token", "ann",
                           "--config", str(config))
    assert (code, out.split(":")[0]) == (2, "error serve.no_secret")


def test_staff_account_refuses_a_short_password_or_a_bad_name() -> None:
    for user, password, error in (("ann", "short", "staff.short_password"),
                                  ("ann smith", "long-enough-pw", "staff.bad_username")):
        proc = subprocess.run([str(STUDIO), "staff-account", user, "--role", "dealer"],
                              input=f"{password}\n", capture_output=True, text=True, check=False)
        assert (proc.returncode, proc.stderr.split(":")[0]) == (2, f"error {error}")
        assert "password_hash" not in proc.stdout
