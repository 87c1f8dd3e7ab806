"""``pyramids arena``: a tournament between agents with win rates, scores and Elo."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from pyramids.ai.arena import (
    AgentSummary,
    ArenaConfig,
    GameResult,
    games_csv,
    report_json,
    run_arena,
    schedule,
    summarize,
    summary_csv,
    write_plots,
)
from pyramids.ai.registry import UnknownAgent
from pyramids.cli.common import console, fail, parse_options, progress_bar
from pyramids.cli.render import game_hooks
from pyramids.engine.errors import PyramidsError


def _fmt(x: float, digits: int = 1) -> str:
    return "–" if math.isnan(x) else f"{x:.{digits}f}"


def summary_table(config: ArenaConfig, summary: list[AgentSummary], played: int) -> Table:
    """The results as a Rich table (one row per agent)."""
    solitaire = config.seat_count() == 1
    unit = "deals" if solitaire else "games"
    count = played // len(config.agents) if solitaire else played
    table = Table(title=f"{config.game_id}: {count} {unit}, seed {config.seed}")
    table.add_column("agent", style="bold")
    table.add_column("win rate (95% CI)" if not solitaire else "best on deal (95% CI)")
    table.add_column("mean score (95% CI)", justify="right")
    if not solitaire:
        table.add_column("mean place", justify="right")
    table.add_column("Elo (95% CI)", justify="right")
    extras = sorted({k for s in summary for k in s.extra})
    for key in extras:
        table.add_column(key, justify="right")
    table.add_column("s/move (max)", justify="right")
    for s in summary:
        win = (
            "–"
            if math.isnan(s.win_rate)
            else f"{100 * s.win_rate:.1f}% ({100 * s.win_low:.1f}–{100 * s.win_high:.1f})"
        )
        row = [s.agent, win, f"{_fmt(s.mean_score)} ({_fmt(s.score_low)}–{_fmt(s.score_high)})"]
        if not solitaire:
            row.append(_fmt(s.mean_rank, 2))
        row.append("–" if math.isnan(s.elo) else f"{s.elo:.0f} ({s.elo_low:.0f}–{s.elo_high:.0f})")
        row += [_fmt(s.extra.get(k, math.nan), 2) for k in extras]
        row.append(f"{s.mean_move_seconds:.3f} ({s.max_move_seconds:.2f})")
        table.add_row(*row)
    return table


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to the ``pyramids`` app."""

    @app.command("arena")
    def arena_cmd(
        game: Annotated[str, typer.Argument(help="game id, see `pyramids games`")],
        agents: Annotated[
            str,
            typer.Option(
                help="comma-separated agents; options after colons, "
                "e.g. mcts:level=hard,greedy,random"
            ),
        ],
        games: Annotated[
            int, typer.Option(help="games to play (solitaire: deals, each played by every agent)")
        ] = 100,
        seed: Annotated[int, typer.Option(help="arena seed: deal k uses seed+k")] = 0,
        jobs: Annotated[int, typer.Option(help="parallel processes")] = 1,
        players: Annotated[
            int | None, typer.Option(help="players per game (default: one per agent)")
        ] = None,
        option: Annotated[
            list[str] | None, typer.Option("--option", "-o", help="variant option name=value")
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option(help="folder for summary.json, summary.csv, games.csv (and plots)"),
        ] = None,
        plot: Annotated[
            bool, typer.Option("--plot", help="also draw ratings.png and scores.png (needs --out)")
        ] = False,
        records: Annotated[
            Path | None, typer.Option(help="folder to save every game's record in")
        ] = None,
        resamples: Annotated[int, typer.Option(help="bootstrap resamples for Elo")] = 200,
    ) -> None:
        """Play seat-rotated games between agents; print win rates, scores and Elo."""
        if plot and out is None:
            raise fail("--plot needs --out FOLDER to write the PNG files in")
        specs = tuple(a.strip() for a in agents.split(",") if a.strip())
        try:
            config = ArenaConfig(
                game_id=game,
                agents=specs,
                games=games,
                seed=seed,
                players=players,
                variant=parse_options(option or []),
            )
            config.check()
        except (PyramidsError, UnknownAgent, ValueError) as e:
            raise fail(str(e)) from None
        if jobs < 1:
            raise fail("--jobs must be at least 1")
        if resamples < 1:
            raise fail("--resamples must be at least 1")
        total = len(schedule(config))
        stats = game_hooks(game).stats
        with progress_bar() as progress:
            task = progress.add_task(f"{game} arena", total=total)

            def advance(_: GameResult) -> None:
                progress.advance(task)

            try:
                results = run_arena(config, jobs, records, stats, advance)
            except (PyramidsError, UnknownAgent, ValueError) as e:
                raise fail(str(e)) from None
        summary = summarize(config, results, resamples=resamples)
        console.print(summary_table(config, summary, len(results)))
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / "summary.json").write_text(
                report_json(config, summary, results), encoding="utf-8"
            )
            (out / "summary.csv").write_text(summary_csv(summary), encoding="utf-8")
            (out / "games.csv").write_text(games_csv(config, results), encoding="utf-8")
            written = [out / "summary.json", out / "summary.csv", out / "games.csv"]
            if plot:
                try:
                    written += write_plots(config, summary, results, out)
                except RuntimeError as e:
                    raise fail(str(e)) from None
            console.print("wrote " + ", ".join(str(p) for p in written))
        if records is not None:
            console.print(f"records saved in {records}")
