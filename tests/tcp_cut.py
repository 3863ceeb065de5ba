"""A TCP relay a test can cut: the database's connection lost and found again, for real.

Threads, not asyncio: the studio's database calls block the event loop's thread, so a relay
on that loop could never answer them."""

from __future__ import annotations

import contextlib
import socket
import threading


class CuttableRelay:
    """127.0.0.1:<port> relayed to `target`; `cut()` drops every connection and refuses new
    ones (accepted, then closed at once), `restore()` relays again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.up = True
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stopped:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open |= {client, server}
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.up = False
        with self._lock:
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._open.clear()

    def restore(self) -> None:
        self.up = True

    def stop(self) -> None:
        self._stopped = True
        self.cut()
        self._listener.close()
