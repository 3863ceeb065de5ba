"""A NATS server of the test's own on a free port of 127.0.0.1 (Debian's nats-server), stopped
at the end: the cluster tests never share the machine's."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def nats_server() -> Iterator[str]:
    binary = shutil.which("nats-server") or "/usr/sbin/nats-server"
    if not shutil.which(binary):
        pytest.skip("Debian's nats-server is not installed (scripts/test installs it)")
    port = _free_port()
    proc = subprocess.Popen([binary, "-a", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:  # until it listens (another process: its own time)
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("nats-server did not start") from None
                time.sleep(0.05)
        yield f"nats://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)
