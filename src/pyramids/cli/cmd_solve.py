"""``pyramids solve``: the command's options; the work is in :mod:`pyramids.cli.solving`.

Only Typer is imported here, so that ``pyramids --help`` does not load the
solver's tables.
"""

# No ``from __future__ import annotations`` here: Typer evaluates every string
# annotation of a command twice (signature and type hints), which doubled the
# time to build the command table that ``--help`` pays for (29 -> 14 ms).

from pathlib import Path
from typing import Annotated

import typer

from pyramids.i18n import N_

#: the solver's node limit per deal (``pyramids.solver.search.DEFAULT_MAX_NODES``;
#: a test checks they agree), written out so the help can show it without the solver
DEFAULT_MAX_NODES = 2_000_000


def solve_cmd(
    layout: Annotated[str, typer.Argument(help=N_("pyramid, tripeaks or golf"))] = "pyramid",
    deal: Annotated[int | None, typer.Option(help=N_("deal number N (= seed N, round 1)"))] = None,
    deals: Annotated[str | None, typer.Option(help=N_("a range of deals, A..B"))] = None,
    jobs: Annotated[int, typer.Option(help=N_("worker processes for --deals"))] = 1,
    mode: Annotated[str, typer.Option(help=N_("clear (can it be won?) or score (best score)"))] = (
        "clear"
    ),
    wrap: Annotated[
        bool | None, typer.Option("--wrap/--no-wrap", help=N_("King-Ace adjacency (default: on)"))
    ] = None,
    jokers: Annotated[int | None, typer.Option(help=N_("pyramid: jokers in the round (1)"))] = None,
    max_nodes: Annotated[int, typer.Option(help=N_("node limit per deal"))] = DEFAULT_MAX_NODES,
    max_seconds: Annotated[float, typer.Option(help=N_("time limit per deal, s"))] = 60.0,
    file: Annotated[Path | None, typer.Option(help=N_("read the deal from this text file"))] = None,
    format: Annotated[
        str, typer.Option("--format", help=N_("format of --file: cards (52 names) or board (golf)"))
    ] = "cards",
    board: Annotated[
        Path | None, typer.Option(help=N_("golf: a board file (same as --file X --format board)"))
    ] = None,
    pysol_deal: Annotated[
        int | None, typer.Option(help=N_("golf: PySolFC's deal number N"))
    ] = None,
    pysol_deals: Annotated[
        str | None, typer.Option(help=N_("golf: a range of PySolFC's deal numbers, A..B"))
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help=N_("golf: PySolFC's default rule, nothing on a King (no wrap)")
        ),
    ] = False,
    export_board: Annotated[
        Path | None, typer.Option(help=N_("golf: write the deal as a board file ('-': print)"))
    ] = None,
    plot: Annotated[Path | None, typer.Option(help=N_("--deals: histogram of nodes (PNG)"))] = None,
    verdicts: Annotated[Path | None, typer.Option(help=N_("--deals: write a verdict file"))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the result as JSON"))] = False,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help=N_(
                "--deals: solve them as Ray tasks on a cluster: its head's HOST:PORT, auto, "
                "or local (extra 'cluster'; see docs/deploy.md)"
            ),
        ),
    ] = None,
) -> None:
    """Solve deals exactly: can the layout be cleared, by which line, at what cost."""
    from pyramids.cli.solving import run_solve

    run_solve(
        layout,
        deal,
        deals,
        jobs,
        mode,
        wrap,
        jokers,
        max_nodes,
        max_seconds,
        file,
        format,
        board,
        pysol_deal,
        export_board,
        plot,
        verdicts,
        as_json,
        ray=ray,
        strict=strict,
        pysol_deals=pysol_deals,
    )


def register(app: typer.Typer) -> None:
    """Add ``solve`` to the ``pyramids`` command."""
    app.command(
        "solve",
        help=N_("Solve deals exactly: can the layout be cleared, by which line, at what cost."),
    )(solve_cmd)
