"""``deploy/systemd/``: the units load cleanly in systemd and restart what dies.

``systemd-analyze verify`` loads each unit as systemd would, without a
running systemd, and reports every unknown key, bad value or missing
executable on stderr (its exit status stays 0 for most of them, so the test
reads stderr). The instance unit's ``ExecStart`` names ``/opt/pyramids``,
where docs/deploy.md installs the project; the test points it at this
checkout's ``pyramids``. A drop-in is checked on the unit it extends, when
that unit's Debian package is installed here.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
INSTALLED = Path("/opt/pyramids/.venv/bin/pyramids")


def _verify(folder: Path, *units: str) -> str:
    """What ``systemd-analyze verify`` says of ``units`` (files in ``folder``): its stderr."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("no systemd-analyze (Debian: apt-get install systemd)")
    done = subprocess.run(
        [tool, "verify", "--man=no", *(f"./{u}" for u in units)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # only what is about our files (a container may add words about itself)
    return "\n".join(line for line in done.stderr.splitlines() if str(folder) in line)


def _settings(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path)
    return parser


def test_the_instance_unit_and_the_target_load_without_a_complaint(tmp_path: Path) -> None:
    pyramids = Path(sys.executable).with_name("pyramids")
    assert pyramids.exists(), pyramids
    text = (UNITS / "pyramids@.service").read_text()
    assert str(INSTALLED) in text
    (tmp_path / "pyramids@.service").write_text(text.replace(str(INSTALLED), str(pyramids)))
    shutil.copy(UNITS / "pyramids.target", tmp_path)
    assert _verify(tmp_path, "pyramids@8101.service", "pyramids.target") == ""


def test_the_drop_ins_load_on_the_units_they_extend(tmp_path: Path) -> None:
    checked = 0
    for drop_in in sorted(UNITS.glob("*.service.d")):
        unit = drop_in.name.removesuffix(".d")
        installed = Path("/lib/systemd/system") / unit
        if not installed.exists():
            continue
        shutil.copy(installed, tmp_path)
        shutil.copytree(drop_in, tmp_path / drop_in.name)
        name = unit.replace("@.", "@main.")
        assert _verify(tmp_path, name) == "", unit
        checked += 1
    if not checked:
        pytest.skip("none of redis-server, haproxy, postgresql is installed here")


def test_every_unit_restarts_a_process_that_dies() -> None:
    """Each service restarts on its own, without a limit that would make systemd give up."""
    files = [UNITS / "pyramids@.service", *sorted(UNITS.glob("*.service.d/*.conf"))]
    assert len(files) == 4
    for path in files:
        unit = _settings(path)
        assert unit["Service"]["Restart"] in ("always", "on-failure"), path
        assert float(unit["Service"]["RestartSec"]) <= 2, path
        assert unit["Unit"]["StartLimitIntervalSec"] == "0", path
    instance = _settings(UNITS / "pyramids@.service")["Service"]
    assert instance["Restart"] == "always"
    assert instance["StandardOutput"] == instance["StandardError"] == "journal"
