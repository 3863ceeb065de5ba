"""The one exception of the multiplayer rules: a stable code the table and the page can rely on."""

from __future__ import annotations


class MultiplayerError(ValueError):
    """An action, amount or card the rules do not allow now; `code` is stable (``mp.*``)."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
