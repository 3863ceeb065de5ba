"""The simulator's end of a serial line: a pseudo-terminal pair, or a real port.

The simulator writes to the pty master; a reader opens the slave (`/dev/pts/N`) exactly as it
would open `/dev/ttyUSB0`. `link` is a stable symlink to the slave, replaced atomically on every
(re)open, so "unplug and replug" can be simulated by closing the pair (the reader sees EIO, the
link vanishes like a USB device node) and opening a new one at the same path.

The simulator keeps its own handle on the slave, in raw mode, so the line discipline never
echoes our frames back or buffers them by line before a reader has opened the port.
"""

from __future__ import annotations

import contextlib
import os
import tty
from pathlib import Path
from typing import Protocol

import serial


class SimLink(Protocol):
    """What a simulator needs from its line."""

    @property
    def fd(self) -> int | None: ...  # None while unplugged

    @property
    def path(self) -> str: ...  # what a reader should open

    def open(self) -> None: ...

    def close(self) -> None: ...


class PtyPair:
    def __init__(self, link: str | Path | None = None) -> None:
        self.link = Path(link) if link else None
        self._master: int | None = None
        self._slave: int | None = None
        self.slave_path = ""

    @property
    def fd(self) -> int | None:
        return self._master

    @property
    def path(self) -> str:
        return str(self.link) if self.link else self.slave_path

    def open(self) -> None:
        if self._master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.slave_path = os.ttyname(slave)
        if self.link:
            self.link.parent.mkdir(parents=True, exist_ok=True)
            if self.link.is_symlink() and os.path.exists(self.link):
                # another simulator is plugged in there: never take its place silently
                for fd in (master, slave):
                    os.close(fd)
                self._master = self._slave = None
                raise LinkInUse(f"{self.link} is the link of a simulator still running "
                                f"(to {os.readlink(self.link)}): stop it, or use another "
                                "STUDIO_INSTANCE")
            tmp = self.link.with_name(f".{self.link.name}.{os.getpid()}.tmp")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            os.symlink(self.slave_path, tmp)
            os.replace(tmp, self.link)

    def close(self) -> None:
        """Unplug: the reader's next read fails and the link disappears."""
        if self.link and self.link.is_symlink() and os.readlink(self.link) == self.slave_path:
            self.link.unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None


class LinkInUse(FileExistsError):
    """The link a simulator would make is another running simulator's."""

    code = "sim.link_in_use"


class SerialPortEnd:
    """A real port (`--port /dev/ttyUSB1`), e.g. a null-modem cable to the studio machine."""

    def __init__(self, port: str, baud: int) -> None:
        self.port = port
        self.baud = baud
        self._ser: serial.Serial | None = None

    @property
    def fd(self) -> int | None:
        return self._ser.fileno() if self._ser is not None else None

    @property
    def path(self) -> str:
        return self.port

    def open(self) -> None:
        if self._ser is None:
            self._ser = serial.Serial(self.port, self.baud, timeout=0, write_timeout=0)

    def close(self) -> None:
        if self._ser is not None:
            with contextlib.suppress(OSError, serial.SerialException):
                self._ser.close()
            self._ser = None
