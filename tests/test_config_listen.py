"""The web pages' listen address is checked with the rest of the config (issue 40, item 4):
an address that is none is refused before anything starts, naming `[web] listen`."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.daemon.config import parse_config
from companion.errors import ConfigError


@pytest.mark.parametrize("listen", ["999.1.1.1", "256.0.0.1", "1.2.3", "10.0.0.1.5",
                                    "::g", "bad host", "-pi.local", "a..b"])
def test_a_listen_address_that_is_none_is_refused_naming_section_and_key(listen):
    with pytest.raises(ConfigError) as error:
        parse_config(f'[web]\nlisten = "{listen}"\n')
    assert str(error.value).startswith(
        "[web] listen: must be an IP address (0.0.0.0: every address, 127.0.0.1: this "
        "machine only) or a host name")
    assert repr(listen) in str(error.value)


@pytest.mark.parametrize("listen", ["0.0.0.0", "127.0.0.1", "192.168.1.20", "::", "::1",
                                    "fe80::1", "localhost", "raspberrypi.local", ""])
def test_addresses_and_host_names_are_accepted(listen):
    assert parse_config(f'[web]\nlisten = "{listen}"\n').web.listen == listen


def test_run_refuses_it_in_one_line_and_exit_2(tmp_path, capsys):
    config = tmp_path / "companion.toml"
    config.write_text('[web]\nenabled = true\nlisten = "999.1.1.1"\n')
    db = tmp_path / "table.db"
    assert main(["run", "--sim", "--config", str(config), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "[web] listen" in err and "Traceback" not in err
    assert not db.exists()
    assert main(["run", "--sim", "--web", "999.1.1.1:8080", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: --web 999.1.1.1:8080: the address must be an IP")
    assert not db.exists()
