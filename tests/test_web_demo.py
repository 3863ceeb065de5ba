"""`studio demo` (what scripts/run starts): the whole studio comes up on 127.0.0.1, prints
the three addresses and the logins, serves a table whose round is open, and stops on SIGINT."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp

STUDIO = Path(sys.executable).parent / "studio"
WAIT_S = 30.0  # safety net on reading the demo's output


async def test_demo_starts_the_studio_and_prints_the_three_addresses(tmp_path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # the simulators' pty links go here
    proc = await asyncio.create_subprocess_exec(
        str(STUDIO), "demo", "--port", "0", "--no-video", "--deal-every", "0",
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
        assert player and dealer and tech and login, out
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
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
        code = await asyncio.wait_for(proc.wait(), WAIT_S)
    assert code == 0
