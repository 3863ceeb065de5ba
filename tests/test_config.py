import tomllib
from pathlib import Path

import pytest

from studio.config import DEFAULT_CONFIG, ConfigError, load_config, parse_config


def default_data() -> dict:
    return tomllib.loads(DEFAULT_CONFIG.read_text())


def test_the_shipped_configuration_loads():
    cfg = load_config()
    live = cfg.first_table("sette-e-mezzo-live")
    assert live.positions == 3
    assert live.paytable.to_paytable().royal.numerator == 3
    assert cfg.first_table("sette-e-mezzo-quota-fissa").paytable.win == "1:1"


@pytest.mark.parametrize("mutate,key", [
    (lambda d: d["tables"][0].__setitem__("positions", 9), "tables[0].positions"),
    (lambda d: d["tables"][0]["limits"].__setitem__("main_max", -5), "tables[0].limits.main_max"),
    (lambda d: d["tables"][0]["paytable"].__setitem__("royal", "3/2"),
     "tables[0].paytable.royal"),
    (lambda d: d["tables"][0]["timers"].pop("decision_s"), "tables[0].timers.decision_s"),
    (lambda d: d["tables"][0].__setitem__("deck_art", "tarocchi"), "tables[0].deck_art"),
    (lambda d: d["tables"][0].__setitem__("colour", "red"), "tables[0].colour"),
    (lambda d: d["studio"].pop("database_url"), "studio.database_url"),
    (lambda d: d["tables"][1].__setitem__("id", "sem-live-1"), "tables"),
])
def test_an_invalid_file_is_rejected_naming_the_key(mutate, key):
    data = default_data()
    mutate(data)
    with pytest.raises(ConfigError) as e:
        parse_config(data, "studio.toml")
    assert key in str(e.value)
    assert e.value.code == "config.invalid"


def test_limits_out_of_order_are_rejected():
    data = default_data()
    data["tables"][0]["limits"]["main_min"] = 10**9
    with pytest.raises(ConfigError, match="main_min is above main_max"):
        parse_config(data)


def test_missing_or_broken_files_say_so(tmp_path: Path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[studio\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)


def test_odds_with_a_zero_denominator_are_rejected():
    data = default_data()
    data["tables"][0]["paytable"]["win"] = "1:0"
    with pytest.raises(ConfigError, match="paytable.win"):
        parse_config(data)
