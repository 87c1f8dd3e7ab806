"""``pyramids solve golf --strict`` (PySolFC's rule) and ranges of PySolFC's deal numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.solver.batch import Job, run_jobs
from pyramids.solver.pysol import pysol_available

runner = CliRunner()


def test_strict_is_pysols_rule_on_the_projects_deals(tmp_path: Path) -> None:
    out = tmp_path / "v.json"
    result = runner.invoke(
        app, ["solve", "golf", "--deals", "1..30", "--strict", "--verdicts", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "strict (nothing on a King)" in result.output
    data = json.loads(out.read_text())
    assert data["strict"] is True and data["wrap"] is False
    expected = run_jobs([Job("golf", n, False, strict=True) for n in range(1, 31)])
    assert [d["verdict"] for d in data["deals"]] == [o.verdict for o in expected]
    loose = run_jobs([Job("golf", n, False) for n in range(1, 31)])
    assert [o.verdict for o in expected] != [o.verdict for o in loose]  # the rule matters


def test_strict_is_refused_where_it_means_nothing() -> None:
    result = runner.invoke(app, ["solve", "pyramid", "--deal", "1", "--strict"])
    assert result.exit_code == 2 and "--strict is a rule of golf" in result.output
    result = runner.invoke(app, ["solve", "golf", "--deal", "1", "--strict", "--wrap"])
    assert result.exit_code == 2 and "no King-Ace wrap" in result.output


@pytest.mark.skipif(not pysol_available(), reason="needs the optional pysol_cards")
def test_a_range_of_pysol_deals_matches_them_one_by_one(tmp_path: Path) -> None:
    out = tmp_path / "v.json"
    result = runner.invoke(
        app, ["solve", "golf", "--pysol-deals", "1..12", "--strict", "--verdicts", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "PySolFC deals 1..12" in result.output
    verdicts = [d["verdict"] for d in json.loads(out.read_text())["deals"]]
    for n in (1, 5, 12):
        one = runner.invoke(app, ["solve", "golf", "--pysol-deal", str(n), "--strict", "--json"])
        assert json.loads(one.output)["verdict"] == verdicts[n - 1]
    result = runner.invoke(app, ["solve", "golf", "--pysol-deals", "0..3"])
    assert result.exit_code == 2 and "start at 1" in result.output
