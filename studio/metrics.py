"""The figures a studio is run by, in the Prometheus format (`/metrics`) and at a glance for
technicians (`summary`).

Counted as they happen: rounds closed and void, bets placed and settled, stakes and payouts
(from the tables' own publications: one settlement summary per step, not one per bet), each
command's latency at its table, WebSocket clients dropped for falling behind, and the wallet's
calls. Read when scraped: WebSocket clients, devices online, faults and disputes, the
recogniser's frames and time, video viewers and bitrate, paused tables.

Private tables are labelled by their table, never by player: an instance's id
("bj-virtual-1/ann") would make a series per player.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from studio.table.actor import TableActor
    from studio.web.tables import TableService

CONTENT_TYPE = CONTENT_TYPE_LATEST
disable_created_metrics()  # no "_created" series: a scrape reads what a technician needs
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


def table_label(table_id: str) -> str:
    """A private instance ("bj-virtual-1/ann") counts for its table."""
    return table_id.split("/", 1)[0]


class StudioMetrics:
    """One registry per studio (the tests build many studios in one process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.rounds = Counter("studio_rounds", "Rounds ended, by how they ended",
                              ["table", "game", "outcome"], registry=r)
        self.bets_placed = Counter("studio_bets_placed", "Bets accepted in a betting window",
                                   ["table", "game"], registry=r)
        self.bets_settled = Counter("studio_bets_settled", "Bets settled", ["table", "game"],
                                    registry=r)
        self.stakes = Counter("studio_stakes_cents", "Stakes of the bets settled, in cents",
                              ["table", "game"], registry=r)
        self.payouts = Counter("studio_payouts_cents",
                               "What the bets settled returned to players (stake included)",
                               ["table", "game"], registry=r)
        self.commands = Histogram("studio_command_seconds",
                                  "A command's time at its table, from its arrival to its answer",
                                  ["table", "command"], buckets=LATENCY_BUCKETS, registry=r)
        self.ws_dropped = Counter("studio_ws_dropped",
                                  "WebSocket clients dropped for not keeping up", ["table"],
                                  registry=r)
        self.wallet_seconds = Histogram("studio_wallet_request_seconds",
                                        "Calls to the operator's wallet", ["operation"],
                                        buckets=LATENCY_BUCKETS, registry=r)
        self.wallet_failures = Counter("studio_wallet_failures",
                                       "Wallet calls that failed or timed out",
                                       ["operation", "reason"], registry=r)
        self._hubs: set[int] = set()
        self._games: dict[str, str] = {}  # table -> its game, for the label
        self._services: dict[str, TableService] = {}  # every table being served, by id
        self.cameras: dict[str, Any] = {}  # table id -> its CameraWatch
        self.video: dict[str, Any] = {}    # table id -> its VideoService
        r.register(_LiveValues(self))

    # -- wiring ---------------------------------------------------------------------------

    def watch(self, service: TableService) -> None:
        """Count what a served table does (called for each table and private instance)."""
        actor = service.actor
        self._services[service.table_id] = service
        actor.command_observer = self._command
        service.on_drop = lambda: self.ws_dropped.labels(table_label(actor.table_id)).inc()
        if id(actor.hub) not in self._hubs:  # tables may share a hub: count each event once
            self._hubs.add(id(actor.hub))
            actor.hub.subscribe(self._on_event)
        self._games[table_label(actor.table_id)] = actor.game.name

    def unwatch(self, service: TableService) -> None:
        self._services.pop(service.table_id, None)

    def wallet_call(self, operation: str, seconds: float, failure: str | None = None) -> None:
        """The wallet adapter reports each call: its time, and why it failed if it did."""
        self.wallet_seconds.labels(operation).observe(seconds)
        if failure:
            self.wallet_failures.labels(operation, failure).inc()

    def _command(self, actor: TableActor, kind: str, seconds: float) -> None:
        self.commands.labels(table_label(actor.table_id), kind).observe(seconds)

    def _on_event(self, table_id: str, audience: str, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind not in _COUNTED:
            return
        table = table_label(table_id)
        game = self._games.get(table, "")
        if kind == "round_closed" and audience == "public":
            if not event.get("no_bets"):
                self.rounds.labels(table, game, "closed").inc()
        elif kind == "round_voided" and audience == "public":
            self.rounds.labels(table, game, "void").inc()
        elif kind == "bet_placed":
            self.bets_placed.labels(table, game).inc()
        elif kind == "settlement_summary":
            self.bets_settled.labels(table, game).inc(event["settled"])
            self.stakes.labels(table, game).inc(event["staked"])
            self.payouts.labels(table, game).inc(event["returned"])

    # -- reading --------------------------------------------------------------------------

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    def services(self) -> Iterable[TableService]:
        return list(self._services.values())

    def summary(self, table_id: str) -> dict[str, Any]:
        """One table's figures at a glance, for the technicians' page."""
        get = self.registry.get_sample_value
        game = self._games.get(table_id, "")
        labels = {"table": table_id, "game": game}
        count = get("studio_command_seconds_count", {"table": table_id, "command": "bet"})
        total = get("studio_command_seconds_sum", {"table": table_id, "command": "bet"})
        live = [(name, labels, v) for (name, labels), v in _live_values(self)
                if labels.get("table") == table_id]

        def read(name: str, **extra: str) -> float | None:
            want = {"table": table_id, **extra}
            return next((v for n, lbl, v in live if n == name and lbl == want), None)

        devices = {lbl["device"]: bool(v) for name, lbl, v in live
                   if name == "studio_device_up"}
        return {
            "rounds": int(get("studio_rounds_total", {**labels, "outcome": "closed"}) or 0),
            "void_rounds": int(get("studio_rounds_total", {**labels, "outcome": "void"}) or 0),
            "bets_placed": int(get("studio_bets_placed_total", labels) or 0),
            "bets_settled": int(get("studio_bets_settled_total", labels) or 0),
            "stakes_cents": int(get("studio_stakes_cents_total", labels) or 0),
            "payouts_cents": int(get("studio_payouts_cents_total", labels) or 0),
            "bet_ack_ms_mean": round(1000 * total / count, 2) if count else None,
            "ws_clients": int(read("studio_ws_clients", audience="player") or 0),
            "ws_dropped": int(get("studio_ws_dropped_total", {"table": table_id}) or 0),
            "devices": devices,
            "disputes": int(read("studio_cross_check_disputes_total") or 0),
            "recogniser_last_ms": read("studio_recogniser_last_ms"),
            "video_viewers": read("studio_video_viewers"),
            "video_bitrate_bps": read("studio_video_bitrate_bps"),
        }


_COUNTED = frozenset({"round_closed", "round_voided", "bet_placed", "settlement_summary"})


def _live_values(m: StudioMetrics) -> list[tuple[tuple[str, dict[str, str]], float]]:
    """((name, labels), value) of everything read when scraped."""
    out: list[tuple[tuple[str, dict[str, str]], float]] = []
    clients: dict[tuple[str, str], int] = {}
    for service in m.services():
        table = table_label(service.table_id)
        for audience, subs in service.audiences().items():
            kind = "player" if audience.startswith("player:") else "staff"
            clients[(table, kind)] = clients.get((table, kind), 0) + len(subs)
        if not service.actor.private:
            out.append((("studio_table_paused", {"table": table}),
                        1.0 if service.actor.paused else 0.0))
        a = service.attached
        if a is not None:
            for device, online in a.online.items():
                out.append((("studio_device_up", {"table": table,
                                                  "device": device.rsplit("/", 1)[-1]}),
                            1.0 if online else 0.0))
            for code, n in a.fault_counts().items():
                out.append((("studio_device_faults_total", {"table": table, "code": code}),
                            float(n)))
            out.append((("studio_cross_check_disputes_total", {"table": table}),
                        float(a.counters["disputes"])))
    for (table, kind), n in clients.items():
        out.append((("studio_ws_clients", {"table": table, "audience": kind}), float(n)))
    for table, watch in m.cameras.items():
        out.append((("studio_recogniser_frames_total", {"table": table}), float(watch.frames)))
        out.append((("studio_recogniser_seconds_total", {"table": table}),
                    watch.ms_total / 1000))
        if watch.last_ms is not None:
            out.append((("studio_recogniser_last_ms", {"table": table}), float(watch.last_ms)))
    for table, video in m.video.items():
        data = video.metrics()
        out.append((("studio_video_viewers", {"table": table}),
                    float(data.get("peer_connections", 0))))
        out.append((("studio_video_bitrate_bps", {"table": table}),
                    float(data.get("bitrate_bps") or 0.0)))
    return out


_HELP = {
    "studio_table_paused": ("gauge", "1 while the table is paused"),
    "studio_device_up": ("gauge", "1 while the device answers"),
    "studio_device_faults_total": ("counter", "Device frames refused, by fault"),
    "studio_cross_check_disputes_total": ("counter",
                                          "Cards the shoe and the camera disagreed on"),
    "studio_ws_clients": ("gauge", "WebSocket clients connected"),
    "studio_recogniser_frames_total": ("counter", "Frames the card recogniser looked at"),
    "studio_recogniser_seconds_total": ("counter", "Time the card recogniser spent on them"),
    "studio_recogniser_last_ms": ("gauge", "The last frame's recognition time"),
    "studio_video_viewers": ("gauge", "Players receiving the table's video"),
    "studio_video_bitrate_bps": ("gauge", "The table video's bitrate"),
}


class _LiveValues(Collector):
    def __init__(self, metrics: StudioMetrics) -> None:
        self.metrics = metrics

    def collect(self):
        families: dict[str, Any] = {}
        for (name, labels), value in _live_values(self.metrics):
            family = families.get(name)
            if family is None:
                kind, text = _HELP[name]
                cls = CounterMetricFamily if kind == "counter" else GaugeMetricFamily
                base = name.removesuffix("_total") if kind == "counter" else name
                family = families[name] = cls(base, text, labels=list(labels))
            family.add_metric(list(labels.values()), value)
        yield from families.values()
