"""Studio configuration: config/*.toml, validated so that an invalid file is rejected with a
message naming the key (e.g. ``tables[0].limits.main_max``).

pydantic (already a dependency of SQLModel) does the validation: it reports the path of every
bad key, which is exactly the message a technician editing TOML needs.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from studio.cards import DeckArt
from studio.games.sette_e_mezzo_live.rules import LivePaytable
from studio.odds import OddsError, parse_odds

if TYPE_CHECKING:
    from devices.camera.layout import CameraPose

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = PROJECT_ROOT / "config" / "studio.toml"


class ConfigError(ValueError):
    """The configuration file is missing, not TOML, or has an invalid key."""

    code = "config.invalid"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Cents = Annotated[int, Field(ge=0)]
Odds = Annotated[str, Field(pattern=r"^\d+:\d+$")]


class Timers(_Strict):
    betting_window_s: float = Field(gt=0)
    decision_s: float = Field(gt=0)
    pause_between_rounds_s: float = Field(ge=0)


class Limits(_Strict):
    """Per-bet limits in cents; `round_max_total` caps one player's stakes in one round."""

    main_min: Cents
    main_max: Cents
    side_min: Cents
    side_max: Cents
    round_max_total: Cents

    @model_validator(mode="after")
    def _ordered(self) -> Limits:
        if self.main_min > self.main_max:
            raise ValueError("main_min is above main_max")
        if self.side_min > self.side_max:
            raise ValueError("side_min is above side_max")
        return self


class LivePaytableConfig(_Strict):
    win: Odds
    royal: Odds
    pp_sevens: Odds
    pp_figures: Odds
    pp_low: Odds
    mdp_scala_reale: Odds
    mdp_scala_colore: Odds
    mdp_tris: Odds
    mdp_colore: Odds
    mdp_scala: Odds

    def to_paytable(self) -> LivePaytable:
        return LivePaytable(**{k: parse_odds(v) for k, v in self.model_dump().items()})


class QuotaFissaPaytableConfig(_Strict):
    win: Odds

    @property
    def win_odds(self) -> Fraction:
        return parse_odds(self.win)


class SerialDevice(_Strict):
    port: str
    baud: int = Field(gt=0)
    heartbeat_timeout_s: float = Field(default=3.0, gt=0)  # silence -> offline (PROTOCOL.md)


class CameraDevice(_Strict):
    source: str  # "sim", a device index ("0") or a URL
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    fps: int = Field(gt=0)
    # The camera's calibration file (`studio camera calibrate`; a relative path is read from
    # the configuration file's folder). With it the table's recogniser finds cards in the
    # rectified top-down view of the felt and names the area each lies in; without it, by
    # outline shapes only (devices/camera/recognizer.py).
    calibration: str | None = None
    # How often the card recogniser looks at the newest picture (studio/table/camera_watch.py):
    # a card lies still for seconds and three agreeing looks vouch for it.
    recognise_fps: float = Field(default=5.0, gt=0, le=30)

    @field_validator("calibration")
    @classmethod
    def _readable(cls, path: str | None) -> str | None:
        if path is not None:
            from devices.camera.calibration import CalibrationError, load

            try:
                load(path)
            except CalibrationError as e:
                raise ValueError(f"{e} [{e.code}]") from None
        return path

    def pose(self) -> CameraPose | None:
        """The calibrated camera pose, or None when the camera is not calibrated."""
        if self.calibration is None:
            return None
        from devices.camera.calibration import load

        return load(self.calibration)


class TableDevices(_Strict):
    shoe: SerialDevice | None = None
    shuffler: SerialDevice | None = None
    camera: CameraDevice | None = None
    cross_check_s: float = Field(default=3.0, gt=0)


class SessionRules(_Strict):
    """A private table's session (the regulations' "Disconnessioni e inattività"): 20 minutes
    without a game action close it; a lost connection is retried for about 2 minutes; with a
    choice pending it waits a week for the player, otherwise 5 minutes, then closes."""

    inactivity_s: float = Field(default=20 * 60, gt=0)
    reconnect_s: float = Field(default=120, gt=0)
    pending_choice_s: float = Field(default=7 * 24 * 3600, gt=0)
    idle_close_s: float = Field(default=5 * 60, gt=0)


class SetteEMezzoLiveTable(_Strict):
    """A shared live table: many players, a timed betting window, a dealer."""

    pace: ClassVar[str] = "live"
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    game: Literal["sette-e-mezzo-live"]
    deck_art: DeckArt
    positions: int = Field(ge=1, le=7)
    burn_card: bool
    card_source: Literal["rng", "manual", "shoe", "camera"]
    timers: Timers
    limits: Limits
    paytable: LivePaytableConfig
    devices: TableDevices = TableDevices()


class SetteEMezzoQuotaFissaTable(_Strict):
    """A private virtual table: each player who opens it plays alone, cards from the RNG."""

    pace: ClassVar[str] = "private"
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    game: Literal["sette-e-mezzo-quota-fissa"]
    deck_art: DeckArt
    limits: Limits
    paytable: QuotaFissaPaytableConfig
    session: SessionRules = SessionRules()


class PuntoEBancoPaytableConfig(_Strict):
    """Odds "X:1" per bet; Banco's commission in percent of its win (truncated to the cent)."""

    punto: Odds = "1:1"
    banco: Odds = "1:1"
    banco_commission_pct: int = Field(default=5, ge=0, le=100)
    pari: Odds = "9:1"
    punto_pair: Odds = "15:1"
    banco_pair: Odds = "15:1"

    def to_paytable(self):  # -> studio.games.punto_e_banco.rules.Paytable
        from studio.games.punto_e_banco.rules import Paytable

        return Paytable(punto=parse_odds(self.punto), banco=parse_odds(self.banco),
                        banco_commission=Fraction(self.banco_commission_pct, 100),
                        pari=parse_odds(self.pari), punto_pair=parse_odds(self.punto_pair),
                        banco_pair=parse_odds(self.banco_pair))


def _refuse_paytable(table, check_paytable: Callable[..., list[str]]) -> None:
    """A table's paytable against its game's exact mathematics: `check_paytable(paytable,
    decks, max_return)` lists the bets above the table's `max_return_pct`; any refuses it."""
    try:
        paytable = table.paytable.to_paytable()
    except OddsError as e:
        raise ValueError(str(e)) from None
    problems = check_paytable(paytable, table.decks, Fraction(str(table.max_return_pct)) / 100)
    if problems:
        raise ValueError("paytable refused: " + "; ".join(problems))


class PuntoEBancoTable(_Strict):
    """The regulation's virtual Punto e Banco table: a private table, one 52-card deck
    shuffled before every hand. Its paytable is checked against the exact mathematics when
    the configuration loads: a bet returning more than `max_return_pct` is refused."""

    pace: ClassVar[str] = "private"
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    game: Literal["punto-e-banco"]
    deck_art: DeckArt = DeckArt.FRENCH
    decks: int = Field(default=1, ge=1, le=8)
    limits: Limits
    paytable: PuntoEBancoPaytableConfig = PuntoEBancoPaytableConfig()
    max_return_pct: float = Field(default=100.0, gt=0)
    session: SessionRules = SessionRules(idle_close_s=180)  # the regulation's 3 minutes

    @model_validator(mode="after")
    def _paytable_a_casino_can_run(self) -> PuntoEBancoTable:
        from studio.games.punto_e_banco.mathematics import check_paytable

        _refuse_paytable(self, check_paytable)
        return self


class PuntoEBancoLivePaytableConfig(PuntoEBancoPaytableConfig):
    """A live eight-deck shoe's paytable: the pairs at 11:1 (15:1 would return 119.5 % of the
    stake with eight decks; 11:1 returns 89.6 %, what live studios pay)."""

    punto_pair: Odds = "11:1"
    banco_pair: Odds = "11:1"


class _ShoeTable(_Strict):
    """A shared live table dealt from the serial shoe of `decks` 52-card decks: a cut card
    (the shoe reports it: the round in play completes, then the shoe is changed and the
    shuffle shown), `burn_cards` burnt face down from each new shoe, many players, a betting
    window; its paytable checked against the game's exact mathematics for `decks` at load."""

    pace: ClassVar[str] = "live"
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    deck_art: DeckArt = DeckArt.FRENCH
    decks: int = Field(default=8, ge=1, le=8)
    burn_cards: int = Field(default=1, ge=0, le=10)
    # where a simulated shoe's cut card goes: this many cards behind it (a dealer places the
    # real one; 70 is about the last deck and a half)
    cut_card: int = Field(default=70, ge=6)
    card_source: Literal["rng", "manual", "shoe", "camera"] = "shoe"
    timers: Timers
    limits: Limits
    max_return_pct: float = Field(default=100.0, gt=0)
    devices: TableDevices = TableDevices()

    def _check_shoe(self, check_paytable: Callable[..., list[str]]) -> None:
        if self.cut_card >= 52 * self.decks:
            raise ValueError(f"cut_card {self.cut_card} is not inside the shoe of {self.decks} decks")
        _refuse_paytable(self, check_paytable)


class PuntoEBancoLiveTable(_ShoeTable):
    """The live Punto e Banco table: one place to bet on (Punto, Banco, Pari, the pairs)."""

    game: Literal["punto-e-banco-live"]
    paytable: PuntoEBancoLivePaytableConfig = PuntoEBancoLivePaytableConfig()

    @property
    def positions(self) -> int:
        return 1  # one place to bet on, Punto or Banco: no seats

    @model_validator(mode="after")
    def _paytable_a_casino_can_run(self) -> PuntoEBancoLiveTable:
        from studio.games.punto_e_banco.mathematics import check_paytable

        self._check_shoe(check_paytable)
        return self


class BlackjackPaytableConfig(_Strict):
    """Odds "X:1". The regulation's side-bet figures are stake included ("la puntata
    moltiplicata per 25" = 25 back for 1), so they are written one less: 25 -> "24:1"."""

    win: Odds = "1:1"
    blackjack: Odds = "3:2"
    insurance: Odds = "2:1"
    perfect_pair: Odds = "24:1"
    coloured_pair: Odds = "11:1"
    mixed_pair: Odds = "4:1"
    colour: Odds = "4:1"
    tris: Odds = "29:1"
    suited_tris: Odds = "99:1"

    def to_paytable(self):  # -> studio.games.blackjack.rules.Paytable
        from studio.games.blackjack.rules import Paytable

        return Paytable(**{k: parse_odds(v) for k, v in self.model_dump().items()})


class BlackjackTable(_Strict):
    """Blackjack Next, the regulation's virtual table: a private table of five positions,
    eight decks shuffled before every game. Its paytable is checked against the exact
    mathematics when the configuration loads (the main game under best play: known for the
    regulation's odds, computed once per process for others): a bet returning more than
    `max_return_pct` is refused."""

    pace: ClassVar[str] = "private"
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    game: Literal["blackjack"]
    deck_art: DeckArt = DeckArt.FRENCH
    decks: int = Field(default=8, ge=1, le=8)
    positions: int = Field(default=5, ge=1, le=5)
    limits: Limits
    paytable: BlackjackPaytableConfig = BlackjackPaytableConfig()
    max_return_pct: float = Field(default=100.0, gt=0)
    session: SessionRules = SessionRules()

    @model_validator(mode="after")
    def _paytable_a_casino_can_run(self) -> BlackjackTable:
        from studio.games.blackjack.mathematics import check_paytable

        _refuse_paytable(self, check_paytable)
        return self


class BlackjackLiveTable(_ShoeTable):
    """The live Blackjack table: `positions` seats (seven), each taken for a round by the
    first player to bet on it, any number of players betting behind a seat; a decision timer
    (`timers.decision_s`) whose default is stand. The rules and paytable are the virtual
    table's."""

    game: Literal["blackjack-live"]
    positions: int = Field(default=7, ge=1, le=7)
    paytable: BlackjackPaytableConfig = BlackjackPaytableConfig()

    @model_validator(mode="after")
    def _paytable_a_casino_can_run(self) -> BlackjackLiveTable:
        from studio.games.blackjack.mathematics import check_paytable

        self._check_shoe(check_paytable)
        return self


class SetteEMezzoMultiplayerTable(_Strict):
    """A cash table where players bank for each other (piatto or classica): seats, table
    credit bought in from the player's account, cards from the RNG shoe, no dealer."""

    pace: ClassVar[str] = "seated"
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    game: Literal["sette-e-mezzo-multiplayer"]
    variant: Literal["piatto", "classica"]
    kind: Literal["cash", "tournament"] = "cash"  # tournament tables are the tournament's
    deck_art: DeckArt = DeckArt.NAPOLETANE  # each player may choose another on the page
    seats: int = Field(ge=2, le=7)
    min_bet: int = Field(gt=0)
    min_bank: int = Field(gt=0)  # the minimum piatto, or the minimum unit bank (classica)
    rake_bp: int = Field(default=0, ge=0, le=500)  # basis points: 500 = 5 %
    buy_in_min: int = Field(gt=0)
    buy_in_max: int = Field(gt=0)
    decision_s: float = Field(default=20, gt=0)
    idle_s: float = Field(default=180, gt=0)  # the regulation's 3 minutes

    @model_validator(mode="after")
    def _buy_in(self) -> SetteEMezzoMultiplayerTable:
        if self.buy_in_min > self.buy_in_max:
            raise ValueError("buy_in_min is above buy_in_max")
        return self


TableConfig = Annotated[
    SetteEMezzoLiveTable | SetteEMezzoQuotaFissaTable | PuntoEBancoTable
    | PuntoEBancoLiveTable | BlackjackTable | BlackjackLiveTable
    | SetteEMezzoMultiplayerTable,
    Field(discriminator="game")
]


class StudioSection(_Strict):
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    database_url: str


class IceServer(_Strict):
    urls: list[str] = Field(min_length=1)  # "stun:host:port" or "turn:host:port"
    username: str | None = None
    credential: str | None = None


class StreamingSection(_Strict):
    """WebRTC video: one H.264 encode per frame, shared by every viewer (streaming/)."""

    ice_servers: list[IceServer] = []  # none: no public STUN is ever contacted
    bitrate_bps: int = Field(default=1_500_000, ge=100_000)
    keyframe_interval_frames: int = Field(default=25, ge=1)  # one second at 25 fps
    preset: Literal["ultrafast", "superfast", "veryfast"] = "ultrafast"
    viewer_queue_frames: int = Field(default=8, ge=2)
    max_viewers: int = Field(default=500, ge=1)
    # "janus": players receive the video from Janus (Debian's janus, run by `studio serve`;
    # streaming/janus.py), the studio encoding once and sending it RTP; "embedded": aiortc in
    # the studio's process (the demo, small studios)
    sfu: Literal["embedded", "janus"] = "embedded"
    # the interfaces or addresses (comma-separated) Janus offers players; none: the default
    # route's interface alone (IPv4). Set it where players reach the studio another way
    janus_interfaces: str | None = None


class WebAccount(_Strict):
    """A dealer or technician login; the password is stored hashed (studio/web/auth.py:
    "pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>")."""

    username: Annotated[str, Field(pattern=r"^[A-Za-z0-9._-]{1,40}$")]
    role: Literal["dealer", "technician"]
    password_hash: str
    display_name: str | None = None  # what players see of the dealer on duty (the lobby)


class WebSection(_Strict):
    """The web application (studio/web): tokens, origins, rate limits, staff accounts."""

    secret_env: str = "STUDIO_SECRET"  # token signing key; the demo generates one if unset
    player_token_ttl_s: int = Field(default=8 * 3600, gt=0)
    staff_session_ttl_s: int = Field(default=12 * 3600, gt=0)
    allowed_origins: list[str] = []  # besides the server's own origin
    command_rate_per_s: float = Field(default=5.0, gt=0)  # sustained commands per client
    command_burst: int = Field(default=20, ge=1)
    inactivity_s: float = Field(default=20 * 60, gt=0)  # the regulation's 20 minutes
    accounts: list[WebAccount] = []  # none: the demo creates a dealer and a technician


class OperatorConfig(_Strict):
    """A casino operator who sells the studio's tables to its players: it launches them with
    requests signed with the secret in `secret_env` (docs/operators.md); its wallet, if it has
    one of its own, is at `wallet_url` (docs/wallet.md)."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,23}$")]
    name: str
    secret_env: str  # the environment variable holding the shared secret (16+ bytes)
    wallet_url: str | None = None
    launch_ttl_s: float = Field(default=60.0, gt=0, le=600)  # a launch address's life


class StudioConfig(_Strict):
    studio: StudioSection
    operators: list[OperatorConfig] = []
    tables: list[TableConfig] = Field(min_length=1)
    streaming: StreamingSection = StreamingSection()
    web: WebSection = WebSection()

    @field_validator("tables")
    @classmethod
    def _unique_ids(cls, tables: list[TableConfig]) -> list[TableConfig]:
        seen: set[str] = set()
        for t in tables:
            if t.id in seen:
                raise ValueError(f"table id {t.id!r} appears twice")
            seen.add(t.id)
        return tables

    def table(self, table_id: str) -> TableConfig:
        for t in self.tables:
            if t.id == table_id:
                return t
        raise ConfigError(f"no table with id {table_id!r}")

    def first_table(self, game: str) -> TableConfig:
        for t in self.tables:
            if t.game == game:
                return t
        raise ConfigError(f"no table of game {game!r} in the configuration")


def _key_path(loc: tuple[object, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("sette-e-mezzo-live", "sette-e-mezzo-quota-fissa", "punto-e-banco",
                      "blackjack", "sette-e-mezzo-multiplayer"):
            continue  # pydantic's discriminator tag, not a key of the file
        else:
            out += f".{part}" if out else str(part)
    return out


def parse_config(data: dict, source: str = "<config>") -> StudioConfig:
    try:
        cfg = StudioConfig.model_validate(data)
        for t in cfg.tables:  # odds must also divide sensibly
            for k, v in (t.paytable.model_dump() if hasattr(t, "paytable") else {}).items():
                if not isinstance(v, str):  # a number (a percentage), not odds
                    continue
                try:
                    parse_odds(v)
                except OddsError as e:
                    raise ConfigError(f"{source}: tables.paytable.{k}: {e}") from None
        return cfg
    except ValidationError as e:
        problems = "; ".join(
            f"{_key_path(err['loc']) or '(top level)'}: {err['msg']}" for err in e.errors()
        )
        raise ConfigError(f"{source}: invalid configuration: {problems}") from None


def load_config(path: str | Path | None = None) -> StudioConfig:
    """Load and validate a studio TOML file (default: config/studio.toml)."""
    path = Path(path) if path else DEFAULT_CONFIG
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such configuration file") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    _resolve_paths(data, path.parent)
    return parse_config(data, str(path))


def _resolve_paths(data: dict, base: Path) -> None:
    """Relative file paths in the configuration are read from the file's own folder."""
    for table in data.get("tables", []) if isinstance(data.get("tables"), list) else []:
        devices = table.get("devices") if isinstance(table, dict) else None
        camera = devices.get("camera") if isinstance(devices, dict) else None
        if isinstance(camera, dict) and isinstance(camera.get("calibration"), str):
            camera["calibration"] = str(base / camera["calibration"])
