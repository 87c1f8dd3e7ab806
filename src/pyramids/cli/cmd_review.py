"""``pyramids review FILE``: every decision of a recorded game, graded, with the better moves.

Only Typer is imported at module level (the ``pyramids --help`` start-up
budget); the review, Rich and matplotlib load when the command runs. The
work itself is :func:`pyramids.review.review`; this module only shows it: a
table of the decisions, a summary per seat (accuracy, grade counts, the three
biggest mistakes), for Pirámides the "what was possible" line, and with
``--plot`` a PNG of the evaluation over the game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pyramids.cli.common import (
    _,
    check_input_file,
    check_output_file,
    fail,
    get_console,
    progress_bar,
    record_reason,
    tr,
)
from pyramids.i18n import N_

if TYPE_CHECKING:
    from pyramids.review import Decision, Review

#: Rich styles of the grades
GRADE_STYLE = {
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}
#: matplotlib colours and markers of the flagged grades on the plot
PLOT_MARKS = {
    "inaccuracy": ("#d4a017", "o"),
    "mistake": ("#e67e22", "s"),
    "blunder": ("#c0392b", "X"),
}


def grade_name(grade: str) -> str:
    """A grade as players read it, in the terminal's language."""
    names = {
        "good": _("good"),
        "inaccuracy": _("inaccuracy"),
        "mistake": _("mistake"),
        "blunder": _("blunder"),
    }
    return names.get(grade, grade)


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def _value_heading(result: Review) -> str:
    if result.value_kind == "clear":
        return _("chance to clear")
    return _("expected result")


def decisions_table(result: Review) -> Any:
    """The decisions as one Rich table: move, grade, values before and after, the better move.

    A narrow terminal (or a language with long headers) gets a compact table,
    values as "before → after" under short headers, rather than columns cut
    short with "…".
    """
    from pyramids.text.colour import Fitted

    return Fitted(lambda: _wide_decisions(result), lambda: _narrow_decisions(result))


def _narrow_decisions(result: Review) -> Any:
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    several = len(result.seats) > 1
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    table.add_column("#", justify="right", no_wrap=True)
    if several:
        table.add_column(_("player"))
    table.add_column(_("played"))
    table.add_column(_("grade"))
    table.add_column("%", justify="right", no_wrap=True)
    table.add_column(_("better move"))
    for d in result.decisions:
        flagged = d.grade != "good"
        row = [str(d.number), *([escape(result.players[d.seat])] if several else [])]
        row += [
            d.move,
            f"[{GRADE_STYLE.get(d.grade, '')}]{grade_name(d.grade)}[/]",
            f"{100 * d.value:.0f}→{100 * d.played:.0f}",
            d.best if flagged else "",
        ]
        table.add_row(*row)
    return table


def _wide_decisions(result: Review) -> Any:
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    several = len(result.seats) > 1
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    table.add_column(_("move no."), justify="right", no_wrap=True)
    if several:
        table.add_column(_("player"), no_wrap=True)
    if result.value_kind == "clear":
        table.add_column(_("round"), justify="right", no_wrap=True)
    table.add_column(_("played"), no_wrap=True)
    table.add_column(_("grade"), no_wrap=True)
    table.add_column(_value_heading(result), justify="right")
    table.add_column(_("after the move"), justify="right")
    table.add_column(_("loss"), justify="right", no_wrap=True)
    table.add_column(_("better move"), no_wrap=True)
    for d in result.decisions:
        row = [str(d.number)]
        if several:
            row.append(escape(result.players[d.seat]))
        if result.value_kind == "clear":
            row.append(str(d.round or ""))
        # a good move's better move is within the noise: showing it would mislead
        flagged = d.grade != "good"
        row += [
            d.move,
            f"[{GRADE_STYLE.get(d.grade, '')}]{grade_name(d.grade)}[/]",
            _percent(d.value),
            _percent(d.played),
            _percent(d.loss) if d.loss >= 0.005 else "",
            d.best if flagged else "",
        ]
        table.add_row(*row)
    return table


def _mistake_line(result: Review, d: Decision) -> str:
    who = result.players[d.seat]
    if len(result.seats) > 1:
        return _(
            "move {number} ({player}: {move}): {grade}, {loss} lost; better {best}",
            number=d.number,
            player=who,
            move=d.move,
            grade=grade_name(d.grade),
            loss=_percent(d.loss),
            best=d.best,
        )
    return _(
        "move {number} ({move}): {grade}, {loss} lost; better {best}",
        number=d.number,
        move=d.move,
        grade=grade_name(d.grade),
        loss=_percent(d.loss),
        best=d.best,
    )


def summary_lines(result: Review) -> list[str]:
    """Accuracy and grade counts per seat, then the three biggest mistakes."""
    lines = []
    for s in result.summary():
        if s.accuracy is None:
            lines.append(_("{player}: no decision to review", player=s.name))
            continue
        lines.append(
            _(
                "{player}: accuracy {accuracy} over {decisions} decisions (good: {good}, "
                "inaccuracies: {inaccuracy}, mistakes: {mistake}, blunders: {blunder})",
                player=s.name,
                accuracy=f"{s.accuracy:.0f}",
                decisions=s.decisions,
                good=s.counts["good"],
                inaccuracy=s.counts["inaccuracy"],
                mistake=s.counts["mistake"],
                blunder=s.counts["blunder"],
            )
        )
    biggest = result.biggest()
    if biggest:
        lines.append(_("Biggest mistakes:"))
        lines += ["  " + _mistake_line(result, d) for d in biggest]
    else:
        lines.append(_("No move was flagged."))
    return lines


def possible_lines(result: Review) -> list[str]:
    """Pirámides: what was possible in each round with every card known."""
    lines = []
    for r in result.possible:
        if r.cleared:
            lines.append(_("Round {round}: cleared.", round=r.round))
        elif r.start == "lose":
            lines.append(_("Round {round}: no play could have cleared this deal.", round=r.round))
        elif r.lost_at is not None:
            lines.append(
                _(
                    "Round {round}: could be cleared until move {number} ({move}); "
                    "a clearing line from just before it: {line}",
                    round=r.round,
                    number=r.lost_at + 1,
                    move=r.lost_move or "?",
                    line=" ".join(r.line) or "?",
                )
            )
        else:
            lines.append(_("Round {round}: the solver could not decide it in time.", round=r.round))
    return lines


def plot_review(result: Review, out: Path) -> None:
    """A PNG of each reviewed seat's value over the game, flagged moves marked.

    matplotlib is the optional extra ``plot``, imported only when drawing
    (:func:`pyramids.cli.plots.pyplot`); without it the command stops with
    how to install it.
    """
    from pyramids.cli.plots import pyplot

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.2), dpi=110)
    for seat in result.seats:
        mine = result.for_seat(seat)
        if not mine:
            continue
        xs = [d.number for d in mine]
        ys = [100 * d.value for d in mine]
        label = result.players[seat] if len(result.seats) > 1 else _value_heading(result)
        ax.plot(xs, ys, marker=".", linewidth=1.4, label=label)
    for grade, (colour, marker) in PLOT_MARKS.items():
        flagged = [d for d in result.decisions if d.grade == grade]
        if flagged:
            ax.scatter(
                [d.number for d in flagged],
                [100 * d.played for d in flagged],
                color=colour,
                marker=marker,
                s=48,
                zorder=3,
                label=grade_name(grade),
            )
    ax.set_ylim(-3, 103)
    ax.set_xlabel(_("move number"))
    ax.set_ylabel(
        _("chance to clear the round, %")
        if result.value_kind == "clear"
        else _("expected result for the player, % (100 = first)")
    )
    ax.set_title(_("Review: value before each decision, and the flagged moves"))
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def run_review(
    file: Path,
    seat: int | None,
    budget: str,
    seed: int,
    jobs: int,
    plot: Path | None,
    save: Path | None,
) -> None:
    """Review ``file`` and show it (see the module docstring)."""
    from rich.markup import escape

    from pyramids.engine.errors import PyramidsError, SeatError
    from pyramids.review import parse_budget, review

    console = get_console()
    try:
        parse_budget(budget)
    except ValueError:
        message = _(
            "the budget is quick, normal, deep or a number of iterations, not {budget}",
            budget=repr(budget),
        )
        raise fail(message) from None
    if seat is not None:
        if seat < 1:
            raise fail(_("players are counted from 1: --seat 1 is the first player"))
        seat -= 1  # players count seats from 1, as the default names do
    if jobs < 1:
        raise fail(_("--jobs must be at least 1"))
    check_input_file(file)
    # every output is checked before the review, which may take minutes
    if plot is not None:
        check_output_file(plot, "--plot")
    if save is not None:
        check_output_file(save, "--json")
    with progress_bar() as bar:
        task = bar.add_task(_("reviewing"), total=None)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            result = review(file, seat, budget, seed=seed, jobs=jobs, progress=tick)
        except SeatError as e:  # the engine counts seats from 0, --seat from 1
            message = tr().ngettext(
                "--seat {number}: the game has {n} player",
                "--seat {number}: the game has {n} players",
                int(e.params["count"]),
                number=(seat or 0) + 1,
            )
            raise fail(message) from None
        except PyramidsError as e:
            # the field first, as replay says it (format_version: missing)
            message = _("cannot review {path}: {reason}", path=str(file), reason=record_reason(e))
            raise fail(message) from None
    title = _(
        "Review of {path}: {game}, {players} (budget {budget}, {seconds} s)",
        path=file.name,
        game=result.game,
        players=", ".join(result.players),
        budget=result.budget,
        seconds=f"{result.seconds:.1f}",
    )
    console.print(f"[bold]{escape(title)}[/]")
    if result.decisions:
        console.print(decisions_table(result))
    for line in summary_lines(result):
        console.print(escape(line))
    if result.possible:
        heading = _("What was possible, with every card known:")
        console.print(f"[bold]{heading}[/]")
        for line in possible_lines(result):
            console.print("  " + escape(line))
    if save is not None:
        save.write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
        console.print(escape(_("review saved to {path}", path=str(save))))
    if plot is not None:
        try:
            plot_review(result, plot)
        except RuntimeError as e:
            raise fail(str(e)) from None
        console.print(escape(_("plot written to {path}", path=str(plot))))


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to the ``pyramids`` app."""

    @app.command(
        "review",
        help=N_(
            "Review a recorded game: each decision graded, with the better move and a summary."
        ),
    )
    def review_cmd(
        file: Annotated[Path, typer.Argument(help=N_("a game record (JSON)"), metavar="FILE")],
        seat: Annotated[
            int | None,
            typer.Option(help=N_("review only this player (1 = first seat); default: everyone")),
        ] = None,
        budget: Annotated[
            str,
            typer.Option(
                help=N_("quick, normal or deep, or search iterations per decision"),
                metavar="BUDGET",
            ),
        ] = "normal",
        seed: Annotated[int, typer.Option(help=N_("seed of the review's sampling"))] = 0,
        jobs: Annotated[int, typer.Option(help=N_("processes (same result)"))] = 1,
        plot: Annotated[
            Path | None, typer.Option(help=N_("write a PNG of the evaluation here"), metavar="FILE")
        ] = None,
        save: Annotated[
            Path | None,
            typer.Option("--json", help=N_("save the review as JSON here"), metavar="FILE"),
        ] = None,
    ) -> None:
        """Review a recorded game: each decision graded, with the better move and a summary."""
        run_review(file, seat, budget, seed, jobs, plot, save)
