"""What the serial readers tell the table: frozen dataclasses, delivered in arrival order.

A table consumes these from the reader's queue (or its async callback). Only CardDrawn carries a
card into a round; everything else is state (ShoeStatus, ShufflerState, DeviceStatus) or a fault
that should pause the table and tell the dealer (DeviceFault). `raw` fields hold card identities:
they are for the event log and technicians, never for players.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from studio.cards import Card


class FaultCode(StrEnum):
    """Stable codes of DeviceFault (documented in devices/PROTOCOL.md)."""

    FRAME_MALFORMED = "serial.frame_malformed"  # garbage, truncated, not COBS, wrong version/len
    FRAME_CHECKSUM = "serial.frame_checksum"  # CRC mismatch (bit flip)
    FRAME_UNKNOWN_TYPE = "serial.frame_unknown_type"
    PAYLOAD_MALFORMED = "serial.payload_malformed"
    SEQ_GAP = "serial.seq_gap"  # frames were lost before this one
    SEQ_DUPLICATE = "serial.seq_duplicate"  # a sequence number seen already
    DEVICE_RESTARTED = "serial.device_restarted"  # new boot id: its sequence started again
    WRONG_DEVICE = "serial.wrong_device"  # a shuffler on the shoe's port, or vice versa
    CARD_BAD_CODE = "serial.card_bad_code"  # not a card code of studio/cards.py
    CARD_NOT_IN_DECK = "serial.card_not_in_deck"  # e.g. an 8 in a 40-card deck
    CARD_NO_DECK_SET = "serial.card_no_deck_set"  # the reader was told no deck set yet
    CARD_WRONG_DECK_SET = "serial.card_wrong_deck_set"  # a card of another deck set
    CARD_REPEATED = "serial.card_repeated"  # the same card twice from one deck set
    CARD_UNEXPECTED = "serial.card_unexpected"  # the table expected no card


class StatusCode(StrEnum):
    """Stable codes of DeviceStatus."""

    ONLINE = "serial.online"  # a good frame after silence, loss or start
    HEARTBEAT_TIMEOUT = "serial.heartbeat_timeout"  # no good frame within the timeout
    PORT_LOST = "serial.port_lost"  # the port vanished or failed (unplugged)


class ShoeState(StrEnum):
    READY = "ready"
    EMPTY = "empty"
    DOOR_OPEN = "door_open"
    JAM = "jam"
    CUT_CARD = "cut_card"


class ShufflerPhase(StrEnum):
    IDLE = "idle"
    SHUFFLING = "shuffling"
    DECK_READY = "deck_ready"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A card that passed every check: framing, CRC, sequence, deck set, deck, expectation."""

    card: Card
    deck_set: str
    seq: int
    device: str
    received_at: float  # the reader's clock (monotonic seconds)
    raw: bytes  # the frame as received, COBS-encoded, without the 00 delimiters


@dataclass(frozen=True, slots=True)
class DeviceStatus:
    """Online/offline transitions; they strictly alternate, starting with ONLINE."""

    device: str
    online: bool
    code: StatusCode
    detail: str
    at: float


@dataclass(frozen=True, slots=True)
class ShoeStatus:
    device: str
    state: ShoeState
    seq: int
    received_at: float


@dataclass(frozen=True, slots=True)
class ShufflerState:
    """The shuffler's phase; with DECK_READY, `deck_set` names the deck it has just prepared."""

    device: str
    state: ShufflerPhase
    deck_set: str | None
    error_code: int | None
    seq: int
    received_at: float


@dataclass(frozen=True, slots=True)
class DeviceFault:
    """A frame that was refused. It never becomes a card; the table should pause."""

    device: str
    code: FaultCode
    detail: str
    raw: bytes
    seq: int | None
    at: float


DeviceEvent = CardDrawn | DeviceStatus | ShoeStatus | ShufflerState | DeviceFault
