"""PNG charts of ``pyramids arena --plot`` and ``pyramids solve --deals --plot``.

Made to be read at a glance: agent names stand horizontally beside their
rows (never rotated or overlapping under the axis), every axis says what it
counts and in which unit, a log axis has log-spaced bins and ticks written as
plain numbers (``1k``, ``10k``), and a light grid carries the eye to the
values. matplotlib is the optional extra ``plot``, imported only here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyramids.cli.common import _

if TYPE_CHECKING:
    from pyramids.ai.arena import AgentSummary, ArenaConfig, GameResult
    from pyramids.solver.batch import Outcome


def pyplot() -> Any:
    """``matplotlib.pyplot`` drawing to files only (the Agg backend), for every ``--plot``.

    One place for the optional import, so that each command that draws says the
    same, in the player's language, when the extra ``plot`` is not installed:
    a ``RuntimeError`` with how to install it.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError(
            _("--plot needs matplotlib: pip install 'pyramids[plot]' (or pip install matplotlib)")
        ) from None
    return plt


def short_number(value: float) -> str:
    """A tick label: ``950``, ``1k``, ``25k``, ``3M``.

    >>> [short_number(v) for v in (1, 950, 1000, 25000, 3e6)]
    ['1', '950', '1k', '25k', '3M']
    """
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= limit:
            return f"{value / limit:g}{suffix}"
    return f"{value:g}"


def _height(rows: int) -> float:
    return 0.55 * rows + 1.6


def _save(plt: Any, fig: Any, path: Path) -> Path:
    """Lay the figure out, write it as a PNG at one resolution for every chart, free it."""
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def arena_plots(
    config: ArenaConfig,
    summary: Sequence[AgentSummary],
    results: Sequence[GameResult],
    out: Path,
) -> list[Path]:
    """``ratings.png`` (Elo with its interval per agent) and ``scores.png`` (score spread)."""
    plt = pyplot()
    written = []
    names = [s.agent for s in summary]
    rows = list(range(len(summary)))
    if len(summary) > 1:
        fig, ax = plt.subplots(figsize=(7, _height(len(summary))))
        xs = [s.elo for s in summary]
        err = [[s.elo - s.elo_low for s in summary], [s.elo_high - s.elo for s in summary]]
        ax.errorbar(xs, rows, xerr=err, fmt="o", capsize=4)
        for y, s in zip(rows, summary, strict=True):
            ax.annotate(
                f"{s.elo:.0f}",
                (s.elo, y),
                textcoords="offset points",
                xytext=(0, 7),
                ha="center",
                fontsize=8,
            )
        ax.set_yticks(rows, names)
        ax.set_ylim(len(summary) - 0.5, -0.5)
        ax.axvline(1500, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xlabel("Elo rating (1500 = the mean), bars: 95% bootstrap interval")
        ax.set_title(f"{config.game_id}: ratings over {len(results)} games")
        ax.grid(axis="x", alpha=0.3)
        written.append(_save(plt, fig, out / "ratings.png"))
    per_agent: list[list[int]] = [[] for _ in summary]
    for r in results:
        for seat, a in enumerate(r.seats):
            per_agent[a].append(r.scores[seat])
    fig, ax = plt.subplots(figsize=(7, _height(len(summary))))
    ax.boxplot(per_agent, orientation="horizontal", showmeans=True)
    ax.set_yticks([y + 1 for y in rows], names)
    ax.set_ylim(len(summary) + 0.5, 0.5)
    ax.set_xlabel("score per game (box: middle half, line: median, triangle: mean)")
    ax.set_title(f"{config.game_id}: scores per agent over {len(results)} games")
    ax.grid(axis="x", alpha=0.3)
    written.append(_save(plt, fig, out / "scores.png"))
    return written


def nodes_histogram(outcomes: Sequence[Outcome], path: Path, title: str) -> None:
    """Deals per number of nodes searched, by verdict, on a log axis with log-spaced bins."""
    import math

    from matplotlib.ticker import FuncFormatter, LogLocator

    plt = pyplot()
    values = [max(o.nodes, 1) for o in outcomes]
    top = max(values, default=1)
    decades = max(1.0, math.log10(top) + 0.1)
    count = 40
    edges = [10 ** (decades * k / count) for k in range(count + 1)]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for verdict, colour in (("win", "tab:green"), ("lose", "tab:red"), ("unknown", "tab:gray")):
        chosen = [max(o.nodes, 1) for o in outcomes if o.verdict == verdict]
        if chosen:
            ax.hist(chosen, bins=edges, alpha=0.6, color=colour, label=f"{verdict} ({len(chosen)})")
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: short_number(v)))
    ax.set_xlabel("nodes searched per deal (log scale)")
    ax.set_ylabel("number of deals")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="verdict")
    _save(plt, fig, path)
