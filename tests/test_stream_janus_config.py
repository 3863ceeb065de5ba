"""Janus's configuration for many viewers (no Janus process needed): candidates on one
interface (the default route's unless told), jemalloc preloaded when installed."""

from __future__ import annotations

from pathlib import Path

from streaming.janus import JanusProcess, Mountpoint, default_interface, janus_environment

ROUTES = """Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask
eth1\t0002000A\t00000000\t0001\t0\t0\t0\t00FFFFFF
eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000
"""


def test_default_interface_is_the_default_routes(tmp_path: Path) -> None:
    (tmp_path / "route").write_text(ROUTES)
    assert default_interface(tmp_path / "route") == "eth0"
    (tmp_path / "none").write_text(ROUTES.splitlines()[0] + "\n")
    assert default_interface(tmp_path / "none") is None
    assert default_interface(tmp_path / "missing") is None


def test_config_enforces_the_interfaces(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("shutil.which", lambda name: "/usr/bin/janus")
    mount = Mountpoint("t1", 1, 40000)
    told = JanusProcess([mount], workdir=tmp_path / "a", interfaces="eth1,10.0.0.2")
    assert 'ice_enforce_list = "eth1,10.0.0.2"' in (told.write_config() / "janus.jcfg").read_text()
    monkeypatch.setattr("streaming.janus.default_interface", lambda: "eth7")
    default = JanusProcess([mount], workdir=tmp_path / "b")
    assert 'ice_enforce_list = "eth7"' in (default.write_config() / "janus.jcfg").read_text()
    monkeypatch.setattr("streaming.janus.default_interface", lambda: None)
    nowhere = JanusProcess([mount], workdir=tmp_path / "c")
    assert "ice_enforce_list" not in (nowhere.write_config() / "janus.jcfg").read_text()


def test_jemalloc_preloaded_only_when_installed(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("LD_PRELOAD", raising=False)
    lib = tmp_path / "libjemalloc.so.2"
    assert "LD_PRELOAD" not in janus_environment(lib)
    lib.write_bytes(b"")
    assert janus_environment(lib)["LD_PRELOAD"] == str(lib)
    monkeypatch.setenv("LD_PRELOAD", "/x/other.so")
    assert janus_environment(lib)["LD_PRELOAD"] == f"/x/other.so {lib}"


async def test_serve_offers_players_the_configured_interfaces(monkeypatch) -> None:
    """`[streaming] janus_interfaces` reaches the Janus that `studio serve` starts."""
    from types import SimpleNamespace

    import pytest

    from streaming import janus
    from studio.commands.hosting import start_janus
    from studio.config import StreamingSection

    told: dict = {}

    class Stop(Exception):
        pass

    class Recording:
        def __init__(self, mountpoints: list, **kwargs) -> None:
            told.update(kwargs)

        async def start(self) -> None:
            raise Stop  # no Janus process: what it was told is what is checked

    monkeypatch.setattr(janus, "JanusProcess", Recording)
    cfg = SimpleNamespace(streaming=StreamingSection(sfu="janus", janus_interfaces="eth1"))
    with pytest.raises(Stop):
        await start_janus(cfg, SimpleNamespace(video={"t1": object()}))
    assert told["interfaces"] == "eth1"
    assert StreamingSection().janus_interfaces is None  # the default route's interface
