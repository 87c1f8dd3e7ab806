"""``pyramids solve``, the work: the exact solitaire solver on the command line.

One deal (``--deal N``, a board file, a PySolFC deal) prints the verdict, the
winning line in the game's notation, the nodes searched and the time; a range
(``--deals A..B``) prints a table of the winnable fraction with its 95%
interval and percentiles of nodes and time, optionally a histogram PNG and a
verdict file to compare with another solver.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from pyramids.cli.common import (
    _,
    check_input_file,
    check_output_file,
    fail,
    get_console,
    progress_bar,
    reason,
    tr,
)
from pyramids.engine.errors import PyramidsError
from pyramids.games.piramides import GAME, PiramidesState, card_name
from pyramids.games.piramides.cards import DECK_SIZE, parse_card
from pyramids.games.piramides.layout import LAYOUTS, Layout
from pyramids.solver.batch import (
    Job,
    Outcome,
    parse_range,
    run_jobs,
    summarize,
    write_verdicts,
)
from pyramids.solver.board import BoardError, format_board, parse_board
from pyramids.solver.position import Position, deal_state, position_of
from pyramids.solver.pysol import pysol_board
from pyramids.solver.search import MODES, WIN, Result, code_to_move, solve


def line_text(layout: Layout, codes: list[int]) -> str:
    """A solver line in the game's notation (position labels, ``draw``, ``joker``)."""
    words = []
    for code in codes:
        move = code_to_move(code)
        words.append(layout.labels[move.pos] if move.kind == "play" else move.kind)
    return " ".join(words)


def read_cards_file(text: str, layout: Layout, wrap: bool, jokers: int) -> Position:
    """A deal as 52 card names: the layout positions in order, the waste, then the stock."""
    words = text.split()
    cards = []
    for k, w in enumerate(words):
        c = parse_card(w)
        if c is None:
            raise BoardError(f"word {k + 1}: {w!r} is not a card like 7H, TD or AS")
        cards.append(c)
    if len(cards) != DECK_SIZE or len(set(cards)) != DECK_SIZE:
        raise BoardError(f"a deal lists all {DECK_SIZE} cards once; found {len(cards)} names")
    n = layout.size
    return Position(layout, tuple(cards[:n]), cards[n], tuple(cards[n + 1 :]), wrap, jokers)


def _state_for(pos: Position, variant: dict[str, object]) -> PiramidesState | None:
    """An engine game of a fresh position, to double-check the solver's line."""
    if pos.removed or len(pos.stock) + pos.layout.size + 1 != DECK_SIZE:
        return None
    deal = [card_name(c) for c in (*pos.cards, pos.waste, *pos.stock)]
    options = GAME.resolve_variant(
        {**variant, "rounds": 1} if pos.layout.name == "pyramid" else variant
    )
    state = GAME.from_setup({"deals": [deal]}, 1, options)
    assert isinstance(state, PiramidesState)
    return state


def _engine_agrees(state: PiramidesState, result: Result) -> bool:
    """Replay the line through the engine: every move legal, the round ends as claimed."""
    s = state.copy()
    for move in result.moves():
        if s.is_over:
            return False
        s.play(move)
    if result.verdict == WIN and result.mode == "clear":
        return s.round_scores()[0].cleared
    return True


def _print_result(layout: Layout, result: Result, checked: bool | None) -> None:
    table = Table.grid(padding=(0, 2))
    style = {"win": "bold green", "lose": "bold red"}.get(result.verdict, "bold yellow")
    label = {
        "win": _("winnable"),
        "lose": _("not winnable"),
        "unknown": _("unknown (limit reached)"),
    }
    verdict = label[result.verdict]
    if result.mode == "score" and result.verdict != "unknown":
        verdict = (
            _("best score {score} (clears)", score=result.score)
            if result.verdict == WIN
            else _("best score {score} (no clear)", score=result.score)
        )
    table.add_row(_("verdict"), f"[{style}]{escape(verdict)}[/]")
    if result.line:
        moves = tr().ngettext("{n} move", "{n} moves", len(result.line))
        table.add_row(_("line"), f"{line_text(layout, result.line)}  ({moves})")
    table.add_row(_("nodes"), f"{result.nodes:,}")
    table.add_row(_("time"), f"{1000 * result.seconds:,.1f} ms")
    if checked is not None:
        engine = (
            _("replayed the line: every move legal")
            if checked
            else "[red]" + escape(_("the engine rejects the line")) + "[/]"
        )
        table.add_row(_("engine"), engine)
    get_console().print(table)


def _plot(outcomes: list[Outcome], path: Path, title: str) -> None:
    from pyramids.cli.plots import nodes_histogram

    try:
        nodes_histogram(outcomes, path, title)
    except RuntimeError as e:
        raise fail(str(e)) from None


def run_solve(
    layout: str,
    deal: int | None,
    deals: str | None,
    jobs: int,
    mode: str,
    wrap: bool | None,
    jokers: int | None,
    max_nodes: int,
    max_seconds: float,
    file: Path | None,
    format: str,
    board: Path | None,
    pysol_deal: int | None,
    export_board: Path | None,
    plot: Path | None,
    verdicts: Path | None,
    as_json: bool,
    ray: str | None = None,
    *,
    strict: bool = False,
    pysol_deals: str | None = None,
) -> None:
    """What ``pyramids solve`` does with its options (see the module docstring)."""
    if layout not in LAYOUTS:
        raise fail(
            _(
                "unknown layout {layout}; layouts: {layouts}",
                layout=repr(layout),
                layouts=", ".join(LAYOUTS),
            )
        )
    if mode not in MODES:
        raise fail(_("--mode must be one of {modes}", modes=", ".join(MODES)))
    if format not in ("cards", "board"):
        raise fail(_("--format must be cards or board"))
    if board is not None:
        file, format = board, "board"
    sources = [x is not None for x in (deal, deals, file, pysol_deal, pysol_deals)]
    if sum(sources) != 1:
        raise fail(
            _("give exactly one of --deal, --deals, --file/--board, --pysol-deal, --pysol-deals")
        )
    pysol = pysol_deal is not None or pysol_deals is not None
    if ((format == "board" and file is not None) or pysol) and layout != "golf":
        raise fail(_("board files and PySolFC deals are golf deals: use `pyramids solve golf`"))
    if strict and layout != "golf":
        raise fail(_("--strict is a rule of golf: use `pyramids solve golf --strict`"))
    if strict and wrap:
        raise fail(_("--strict has no King-Ace wrap: leave out --wrap"))
    if deal is not None and deal < 0:
        raise fail(_("--deal must be 0 or more"))
    if pysol_deal is not None and pysol_deal < 1:
        raise fail(_("PySolFC deal numbers start at 1"))
    many = deals is not None or pysol_deals is not None
    for given, option in ((plot, "--plot"), (verdicts, "--verdicts")):
        if given is not None and not many:
            raise fail(_("{option} is for ranges of deals: give --deals A..B", option=option))
    if jobs < 1:
        raise fail(_("--jobs must be at least 1"))
    # outputs are checked before the work, which may take hours
    if plot is not None:
        check_output_file(plot, "--plot")
    if verdicts is not None:
        check_output_file(verdicts, "--verdicts")
    if export_board is not None and str(export_board) != "-":
        check_output_file(export_board, "--export-board")
    if jokers is not None and layout != "pyramid":
        raise fail(_("--jokers applies to the pyramid layout only (tripeaks and golf have none)"))
    if max_nodes < 1 or max_seconds <= 0:
        raise fail(_("--max-nodes and --max-seconds must be positive"))
    if ray is not None and not many:
        raise fail(_("--ray solves ranges of deals: give --deals A..B"))
    variant: dict[str, Any] = {"layout": layout}
    if wrap is not None:
        variant["wrap"] = wrap
    elif strict or pysol:  # PySolFC's Golf has no wrap
        wrap = variant["wrap"] = False
    if jokers is not None:
        variant["jokers_per_round"] = jokers
    try:  # a bad option (--jokers -1) is its error, in a line, before any deal is solved
        resolved = GAME.resolve_variant(variant)
    except PyramidsError as e:
        raise fail(reason(e)) from None
    if deals is not None or pysol_deals is not None:
        settings = Job(layout, 0, wrap, jokers, mode, max_nodes, max_seconds, strict, pysol)
        _solve_range(settings, deals or pysol_deals or "", jobs, plot, verdicts, ray)
        return
    eff_wrap = bool(resolved["wrap"])
    eff_jokers = int(resolved["jokers_per_round"]) if layout == "pyramid" else 0
    lay = LAYOUTS[layout]
    title: str
    try:
        if deal is not None:
            fresh = deal_state(layout, deal, **{k: v for k, v in variant.items() if k != "layout"})
            state: PiramidesState | None = fresh
            pos = replace(position_of(fresh), strict=strict)
            title = f"{layout} deal {deal}"
        elif pysol_deal is not None:
            pos = parse_board(pysol_board(pysol_deal), wrap=eff_wrap, strict=strict)
            state = _state_for(pos, variant)
            title = f"PySolFC golf deal {pysol_deal}"
        else:
            assert file is not None
            check_input_file(file)
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise fail(
                    _("cannot read {path}: {reason}", path=str(file), reason=reason(e))
                ) from None
            if format == "board":
                pos = parse_board(text, wrap=eff_wrap, strict=strict)
            else:
                pos = read_cards_file(text, lay, eff_wrap, eff_jokers)
            state = _state_for(pos, variant)
            title = f"{layout} deal from {file}"
    except (BoardError, PyramidsError, ValueError) as e:
        raise fail(str(e)) from None
    if export_board is not None:
        if layout != "golf":
            raise fail(_("--export-board writes golf boards only"))
        text = format_board(pos)
        if str(export_board) == "-":
            typer.echo(text, nl=False)
        else:
            export_board.write_text(text, encoding="utf-8")
            get_console().print(escape(_("board written to {path}", path=str(export_board))))
    result = solve(pos, mode, max_nodes=max_nodes, max_seconds=max_seconds)
    checked = _engine_agrees(state, result) if state is not None and result.line else None
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "title": title,
                    "layout": layout,
                    "wrap": pos.wrap,
                    "mode": mode,
                    "verdict": result.verdict,
                    "score": result.score,
                    "line": line_text(lay, result.line),
                    "nodes": result.nodes,
                    "seconds": round(result.seconds, 6),
                    "engine_checked": checked,
                }
            )
        )
        return
    rule = _rule(pos.strict, pos.wrap)
    if layout == "pyramid":
        jokers_text = tr().ngettext("{n} joker", "{n} jokers", pos.jokers)
        rule = f"{rule}, {jokers_text}"
    said = _("{mode} mode, {rule}", mode=mode, rule=rule)
    get_console().print(f"[bold]{escape(title)}[/] — {escape(said)}")
    _print_result(lay, result, checked)
    if checked is False:
        raise typer.Exit(1)


def _solve_range(
    settings: Job,
    deals: str,
    jobs: int,
    plot: Path | None,
    verdicts: Path | None,
    ray: str | None = None,
) -> None:
    """Solve a range of deals (the project's, or PySolFC's with ``settings.pysol``).

    The deals are read as they are solved, so a huge range starts at once; Ctrl-C
    stops it and the deals solved so far are summarised.
    """
    from pyramids.cluster.ray_executor import RayUnavailable, ray_executor
    from pyramids.solver.batch import Interrupted

    try:
        numbers = parse_range(deals)
    except ValueError:
        message = _(
            "{text} is not a range of deals like 1..1000 (first <= last, >= 0)", text=repr(deals)
        )
        raise fail(message) from None
    if settings.pysol and numbers.start < 1:
        raise fail(_("PySolFC deal numbers start at 1"))
    todo = (replace(settings, deal=n) for n in numbers)
    layout = settings.layout
    start = time.perf_counter()
    interrupted = False
    try:
        with ray_executor(ray) as executor, progress_bar() as progress:
            task = progress.add_task(f"solving {layout}", total=len(numbers))
            outcomes = run_jobs(todo, jobs, lambda _o: progress.advance(task), executor)
    except Interrupted as stop:
        outcomes, interrupted = stop.outcomes, True
        get_console().print(
            _(
                "Interrupted: {done} of {total} deals solved.",
                done=len(outcomes),
                total=len(numbers),
            )
        )
        if not outcomes:
            raise typer.Exit(130) from None
    except RayUnavailable as e:
        raise fail(str(e)) from None
    wall = time.perf_counter() - start
    _range_table(settings, deals, outcomes, wall)
    if verdicts is not None:
        write_verdicts(verdicts, settings, outcomes)
        get_console().print(escape(_("verdicts written to {path}", path=str(verdicts))))
    if plot is not None:
        _plot(outcomes, plot, f"{layout} deals {deals}: nodes per deal")
        get_console().print(escape(_("histogram written to {path}", path=str(plot))))
    if interrupted:
        raise typer.Exit(130)


def _rule(strict: bool, wrap: bool | None) -> str:
    """The golf rule or the wrap setting, as the report's title says it."""
    if strict:
        return _("strict (nothing on a King)")
    if wrap is None:
        return _("wrap default")
    return _("wrap on") if wrap else _("wrap off")


def _range_table(settings: Job, deals: str, outcomes: list[Outcome], wall: float) -> None:
    s = summarize(outcomes, wall)
    said = _("{mode} mode, {rule}", mode=settings.mode, rule=_rule(settings.strict, settings.wrap))
    if settings.pysol:
        title = _("{layout} PySolFC deals {deals}", layout=settings.layout, deals=deals)
    else:
        title = _("{layout} deals {deals}", layout=settings.layout, deals=deals)
    table = Table(title=f"{title} — {said}")
    table.add_column(_("figure"))
    table.add_column(_("value"), justify="right")
    table.add_row(_("deals"), str(s.deals))
    table.add_row(_("winnable"), str(s.wins))
    table.add_row(_("not winnable"), str(s.losses))
    table.add_row(_("unknown (limit)"), str(s.unknown))
    table.add_row(
        _("winnable fraction (95% interval)"),
        f"{100 * s.fraction:.1f}% ({100 * s.low:.1f}–{100 * s.high:.1f}%)",
    )
    for k in ("p50", "p90", "p99", "max"):
        table.add_row(_("nodes {percentile}", percentile=k), f"{s.nodes[k]:,.0f}")
    for k in ("p50", "p90", "p99", "max"):
        figure = f"{s.ms[k]:,.1f} ms (CPU {s.cpu_ms[k]:,.1f} ms)"
        table.add_row(_("time {percentile}", percentile=k), figure)
    table.add_row(_("deals/s (wall)"), f"{s.deals / wall:,.1f}")
    total_nodes = sum(o.nodes for o in outcomes)
    table.add_row(_("nodes/s (per core)"), f"{total_nodes / max(s.cpu_seconds, 1e-9):,.0f}")
    get_console().print(table)
