"""The reports and errors of simulate, solve and arena speak the player's language."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pyramids import i18n
from pyramids.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "czech"),
    [
        (["simulate", "piramides", "--games", "0"], "Chyba: --games musí být alespoň 1"),
        (["arena", "piramides", "--agents", "random", "--jobs", "0"], "--jobs musí být alespoň 1"),
        (["solve", "golf", "--deal", "-1"], "--deal musí být 0 nebo víc"),
        (["solve", "pyramid", "--deal", "1", "--strict"], "--strict je pravidlo golfu"),
        (["solve", "hexagon"], "neznámé rozložení 'hexagon'"),
        (["solve", "golf", "--deals", "5..1"], "'5..1' není rozsah rozdání"),
    ],
)
def test_errors_are_translated(args: list[str], czech: str) -> None:
    result = runner.invoke(app, ["--lang", "cs", *args])
    assert result.exit_code == 2 and czech in result.output, result.output


def test_the_simulate_report_is_translated() -> None:
    result = runner.invoke(
        app, ["--lang", "es", "simulate", "pyramideto", "--games", "2", "--agent", "random"]
    )
    assert result.exit_code == 0, result.output
    assert "2 partidas de pyramideto" in result.output and "media" in result.output


def test_a_czech_goal_is_named_without_a_case_error() -> None:
    told = i18n.translator("cs").gettext(
        "{player} displays {goal} ({frame} frame); goals shown: {n}.",
        player="Hráč 1",
        goal="Vlajka Kolumbie",
        frame="fialový",
        n=1,
    )
    assert "vykládá cíl Vlajka Kolumbie" in told, told


def test_notation_errors_point_to_what_an_installed_player_has() -> None:
    import pyramids

    state = pyramids.new_game("pyramido", players=2, seed=1)
    with pytest.raises(pyramids.PyramidsError) as caught:
        state.parse_move("nonsense")
    for lang in ("en", "cs", "es", "fi", "pt"):
        said = i18n.translator(lang).error(caught.value)
        assert "docs/notation.md" not in said, said


def test_the_solve_and_arena_reports_are_translated() -> None:
    solved = runner.invoke(app, ["--lang", "fi", "solve", "golf", "--deals", "1..3"])
    assert solved.exit_code == 0, solved.output
    text = " ".join(solved.output.split())
    assert "voitettavissa" in text and "golf, jaot 1..3 — tila clear, kierto oletuksena" in text
    one = runner.invoke(app, ["--lang", "pt", "solve", "golf", "--deal", "3", "--no-wrap"])
    assert "veredito" in one.output and "volta desligada" in one.output, one.output
    arena = runner.invoke(
        app, ["--lang", "es", "arena", "piramides", "--agents", "random", "--games", "2"]
    )
    assert arena.exit_code == 0, arena.output
    assert "piramides: 2 repartos, semilla 0" in arena.output and "agente" in arena.output
