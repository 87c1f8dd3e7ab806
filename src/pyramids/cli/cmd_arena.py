"""``pyramids arena``: a tournament between agents with win rates, scores and Elo."""

# No ``from __future__ import annotations`` here: Typer evaluates every string
# annotation of a command twice (signature and type hints), which doubled the
# time to build the command table that ``--help`` pays for (29 -> 14 ms).

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pyramids.cli.common import (
    _,
    check_output_folder,
    fail,
    fit_tables,
    get_console,
    parse_options,
    progress_bar,
    reason,
    tr,
)
from pyramids.i18n import N_

if TYPE_CHECKING:
    from pyramids.ai.arena import AgentSummary, ArenaConfig


def _fmt(x: float, digits: int = 1) -> str:
    return "–" if math.isnan(x) else f"{x:.{digits}f}"


def _span(low: float, high: float, digits: int = 0) -> str:
    return "–" if math.isnan(low) or math.isnan(high) else f"{low:.{digits}f}–{high:.{digits}f}"


def summary_tables(
    config: "ArenaConfig", summary: "list[AgentSummary]", played: int, width: int = 80
) -> list[Any]:
    """The results as tables of at most ``width`` columns (one row per agent).

    Each figure and its 95% interval get columns of their own, percentages
    are whole numbers, and columns that do not fit go to a second table with
    the agents again: a cell is never cut short.
    """
    solitaire = config.seat_count() == 1
    count = played // len(config.agents) if solitaire else played
    if solitaire:
        title = tr().ngettext(
            "{game}: {n} deal, seed {seed}",
            "{game}: {n} deals, seed {seed}",
            count,
            game=config.game_id,
            seed=config.seed,
        )
    else:
        title = tr().ngettext(
            "{game}: {n} game, seed {seed}",
            "{game}: {n} games, seed {seed}",
            count,
            game=config.game_id,
            seed=config.seed,
        )
    agents = [s.agent for s in summary]
    win = _("best on deal %") if solitaire else _("win %")
    interval = _("95% CI")
    columns: list[tuple[str, list[str], bool]] = [
        (
            win,
            ["–" if math.isnan(s.win_rate) else f"{100 * s.win_rate:.0f}" for s in summary],
            True,
        ),
        (interval, [_span(100 * s.win_low, 100 * s.win_high) for s in summary], True),
        (_("mean score"), [_fmt(s.mean_score) for s in summary], True),
        (interval, [_span(s.score_low, s.score_high, 1) for s in summary], True),
    ]
    if not solitaire:
        columns.append((_("mean place"), [_fmt(s.mean_rank, 2) for s in summary], True))
    columns += [
        ("Elo", ["–" if math.isnan(s.elo) else f"{s.elo:.0f}" for s in summary], True),
        (interval, [_span(s.elo_low, s.elo_high) for s in summary], True),
    ]
    for key in sorted({k for s in summary for k in s.extra}):
        columns.append((key, [_fmt(s.extra.get(key, math.nan), 2) for s in summary], True))
    columns.append((_("s/move"), [f"{s.mean_move_seconds:.3f}" for s in summary], True))
    columns.append((_("max s"), [f"{s.max_move_seconds:.2f}" for s in summary], True))
    return fit_tables(title, (_("agent"), agents), columns, width)


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to the ``pyramids`` app."""

    @app.command(
        "arena", help=N_("Play seat-rotated games between agents; print win rates, scores and Elo.")
    )
    def arena_cmd(
        game: Annotated[str, typer.Argument(help=N_("game id, see `pyramids games`"))],
        agents: Annotated[
            str,
            typer.Option(
                help=N_(
                    "comma-separated agents; options after colons, "
                    "e.g. mcts:level=hard,greedy,random"
                )
            ),
        ],
        games: Annotated[
            int,
            typer.Option(help=N_("games to play (solitaire: deals, each played by every agent)")),
        ] = 100,
        seed: Annotated[int, typer.Option(help=N_("arena seed: deal k uses seed+k"))] = 0,
        jobs: Annotated[int, typer.Option(help=N_("parallel processes"))] = 1,
        players: Annotated[
            int | None, typer.Option(help=N_("players per game (default: one per agent)"))
        ] = None,
        option: Annotated[
            list[str] | None, typer.Option("--option", "-o", help=N_("variant option name=value"))
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option(help=N_("folder for summary.json, summary.csv, games.csv (and plots)")),
        ] = None,
        plot: Annotated[
            bool,
            typer.Option("--plot", help=N_("also draw ratings.png and scores.png (needs --out)")),
        ] = False,
        records: Annotated[
            Path | None, typer.Option(help=N_("folder to save every game's record in"))
        ] = None,
        resamples: Annotated[int, typer.Option(help=N_("bootstrap resamples for Elo"))] = 200,
        ray: Annotated[
            str | None,
            typer.Option(
                "--ray",
                metavar="ADDRESS",
                help=N_(
                    "play the games as Ray tasks on a cluster: its head's HOST:PORT, "
                    "auto, or local (extra 'cluster'; see docs/deploy.md)"
                ),
            ),
        ] = None,
    ) -> None:
        """Play seat-rotated games between agents; print win rates, scores and Elo."""
        from pyramids.ai.arena import (
            ArenaConfig,
            GameResult,
            Interrupted,
            fair_part,
            games_csv,
            report_json,
            run_arena,
            schedule_size,
            summarize,
            summary_csv,
        )
        from pyramids.cli.games import game_hooks
        from pyramids.cli.plots import arena_plots
        from pyramids.cluster.ray_executor import RayUnavailable, ray_executor
        from pyramids.engine.errors import PyramidsError

        console = get_console()
        if plot and out is None:
            raise fail(_("--plot needs --out FOLDER to write the PNG files in"))
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
        except PyramidsError as e:
            raise fail(reason(e)) from None
        if jobs < 1:
            raise fail(_("--jobs must be at least 1"))
        if resamples < 1:
            raise fail(_("--resamples must be at least 1"))
        # outputs are checked before the games, which may take hours
        if out is not None:
            out = check_output_folder(out, "--out")
        if records is not None:
            records = check_output_folder(records, "--records")
        total = schedule_size(config)
        interrupted = False
        stats = game_hooks(game).stats
        try:
            with ray_executor(ray) as executor, progress_bar() as progress:
                task = progress.add_task(f"{game} arena", total=total)

                def advance(_: GameResult) -> None:
                    progress.advance(task)

                results = run_arena(config, jobs, records, stats, advance, executor)
        except Interrupted as stop:
            results = fair_part(config, stop.results)
            console.print(
                _(
                    "Interrupted: {done} of {total} games played; "
                    "the summary counts the first {counted}.",
                    done=len(stop.results),
                    total=total,
                    counted=len(results),
                )
            )
            if not results:
                raise typer.Exit(130) from None
            interrupted = True
        except (PyramidsError, RayUnavailable) as e:
            raise fail(reason(e)) from None
        summary = summarize(config, results, resamples=resamples)
        for table in summary_tables(config, summary, len(results), min(console.width, 80)):
            console.print(table)
        if out is not None:
            out.mkdir(exist_ok=True)
            (out / "summary.json").write_text(
                report_json(config, summary, results), encoding="utf-8"
            )
            (out / "summary.csv").write_text(summary_csv(summary), encoding="utf-8")
            (out / "games.csv").write_text(games_csv(config, results), encoding="utf-8")
            written = [out / "summary.json", out / "summary.csv", out / "games.csv"]
            if plot:
                try:
                    written += arena_plots(config, summary, results, out)
                except RuntimeError as e:
                    raise fail(str(e)) from None
            console.print(_("wrote {files}", files=", ".join(str(p) for p in written)))
        if records is not None:
            console.print(_("records saved in {folder}", folder=str(records)))
        if interrupted:
            raise typer.Exit(130)
