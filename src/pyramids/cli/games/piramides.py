"""Pirámides' own hooks of terminal play: the solver's ``hint`` and ``play --solvable``.

The drawing is :mod:`pyramids.text.piramides`; this module holds what only a
terminal session does with the game (a command that reads the live state).

A hint must give the same advice every time it is asked in the same position,
or the player cannot trust it: its samples are seeded by the position as the
player sees it (never by the hidden cards, which would leak them), sampling
is bounded by counts, not by the clock (a loaded machine must not change the
answer), and when the two best moves are too close to call on the first
samples it takes four times as many before it speaks.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from pyramids.cli.commands import Command
from pyramids.cli.common import _, tr
from pyramids.i18n import N_

if TYPE_CHECKING:
    from pyramids.cli.play import Session
    from pyramids.games.piramides import PiramidesState
    from pyramids.solver.hint import Hint, MoveEstimate

#: samples of a hint when none are asked for, and how far a close call extends them
DEFAULT_SAMPLES = 64
CLOSE_CALL_SAMPLES = 256
MAX_SAMPLES = 1000


def position_seed(view: dict[str, Any]) -> int:
    """A seed that is a function of what the player sees, so one position gets one hint.

    The seats' names are left out: they are words of the player's language ("Player 1",
    "Hráč 1"), and the same position must get the same hint in every language.
    """
    shown = {key: value for key, value in view.items() if key != "names"}
    text = json.dumps(shown, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def parse_hint_argument(arg: str) -> tuple[int | None, str] | str:
    """``"40 score"`` -> ``(40, "score")``; a string is the reason the words are refused."""
    samples: int | None = None
    mode = "clear"
    for word in arg.lower().split():
        if word.isdigit():
            if samples is not None:
                return _("hint takes one number of samples, not two")
            samples = int(word)
            if not 1 <= samples <= MAX_SAMPLES:
                return _(
                    "hint takes a number of samples from 1 to {most}: hint 100",
                    most=MAX_SAMPLES,
                )
        elif word in ("score", "clear"):
            mode = word
        else:
            return _(
                "hint does not know {word}: type hint, hint N (samples, 1 to {most}), "
                "hint score or hint N score",
                word=repr(word),
                most=MAX_SAMPLES,
            )
    return samples, mode


def _separated(h: Hint) -> bool:
    """True when the best move's lead over the second is beyond sampling noise (or nil).

    Clear mode only: the chances carry a margin; mean scores do not, and a score
    hint ranks by them, so it is taken as it is.
    """
    if len(h.estimates) < 2 or h.mode == "score":
        return True
    a, b = h.estimates[0], h.estimates[1]
    if a.chance == b.chance:
        return True  # a tie is an answer: both are as good
    return a.chance - a.margin > b.chance + b.margin


def _ties(h: Hint) -> list[MoveEstimate]:
    best = h.estimates[0]
    if h.mode == "score":
        return [
            e for e in h.estimates if e.mean_score == best.mean_score and e.chance == best.chance
        ]
    return [e for e in h.estimates if e.chance == best.chance and e.mean_score == best.mean_score]


def hint_command(session: Session, arg: str) -> None:
    """hint [N] [score]: the best move by solving N sampled stock orders."""
    from pyramids.games.piramides import PiramidesState
    from pyramids.solver.hint import hint

    state = session.state
    con = session.console
    if not isinstance(state, PiramidesState):
        con.print(Text(_("hint works in Pirámides only."), style="yellow"))
        return
    parsed = parse_hint_argument(arg)
    if isinstance(parsed, str):
        con.print(f"[red]{escape(parsed)}[/]")
        return
    asked, mode = parsed
    samples = asked or DEFAULT_SAMPLES
    legal = state.legal_moves()
    seed = position_seed(state.view(0))
    if len(legal) > 1:
        con.print(
            Text(
                _("Solving {n} sampled stock orders ({mode} mode)...", n=samples, mode=mode),
                style="dim",
            )
        )

    def solve(n: int) -> Hint:
        return hint(state, samples=n, mode=mode, seed=seed, max_seconds=600.0)

    try:
        h = solve(samples)
        if asked is None and not _separated(h):
            con.print(
                Text(
                    _("Close call: solving {n} sampled stock orders...", n=CLOSE_CALL_SAMPLES),
                    style="dim",
                )
            )
            h = solve(CLOSE_CALL_SAMPLES)
    except KeyboardInterrupt:
        con.print(Text(_("Hint cancelled."), style="yellow"))
        return
    if not h.samples:
        only = state.move_to_str(h.best)
        con.print(escape(_("Hint: {move} is the only legal move.", move=only)))
        return
    con.print(hint_table(session, h))
    con.print(advice(session, h))


HINT = Command(
    "hint",
    (),
    "[N] [score]",
    N_("the best move, by solving N sampled stock orders (score: best points, not clearing)"),
    hint_command,
)
"""The ``hint`` command."""

#: the game's own commands of terminal play
COMMANDS = (HINT,)


def hint_table(session: Session, h: Hint) -> Table:
    """Every legal move with its chance to clear the round (and mean best score)."""
    state = session.state
    seconds = tr().number(round(h.seconds, 1))
    table = Table(title=_("Hint ({n} samples, {seconds} s)", n=h.samples, seconds=seconds))
    table.add_column(_("move"))
    table.add_column(_("clears the round"), justify="right")
    if h.mode == "score":
        table.add_column(_("mean best score"), justify="right")
    for e in h.estimates:
        chance = f"{100 * e.chance:.0f}% ± {100 * e.margin:.0f}"
        if e.unknown:
            chance += " " + _("({n} undecided)", n=e.unknown)
        row = [state.move_to_str(e.move), chance]
        if h.mode == "score":
            row.append(_mean_score(e.mean_score))
        table.add_row(*row)
    return table


def _mean_score(score: float | None) -> str:
    """A mean score to one decimal, written as the player's language writes numbers."""
    return "?" if score is None else tr().fixed(score)


def advice(session: Session, h: Hint) -> str:
    """The recommendation in words, saying why when no sampled deal can be cleared."""
    state = session.state
    best = h.estimates[0]
    ties = _ties(h)
    moves = _(" or ").join(state.move_to_str(e.move) for e in ties)
    if h.mode == "score":
        score = _mean_score(best.mean_score)
        if all(e.chance == 0 for e in h.estimates):  # else another move clears some: say so
            return _(
                "Hint: play {moves}: no sampled deal can be cleared whatever you play, so this "
                "keeps the most points (mean best score {score}).",
                moves=moves,
                score=score,
            )
        return _(
            "Hint: play {moves} for the best mean score ({score}); it clears the round in "
            "about {percent}% of the sampled deals.",
            moves=moves,
            score=score,
            percent=round(100 * best.chance),
        )
    if best.chance == 0:
        return _(
            "Hint: no move clears the round in any of the {n} sampled deals. "
            "Type 'hint score' for the move that keeps the most points.",
            n=h.samples,
        )
    if len(ties) > 1:
        return _(
            "Hint: play {moves}: they are as good as each other (each clears the round in "
            "about {percent}% of the sampled deals)",
            moves=moves,
            percent=round(100 * best.chance),
        )
    return _(
        "Hint: play {move} (clears the round in about {percent}% of the sampled deals)",
        move=moves,
        percent=round(100 * best.chance),
    )


def solvable_deal(seed: int, variant: Mapping[str, Any]) -> tuple[PiramidesState, list[int]]:
    """``play --solvable``: the first winnable deal of each round from deal ``seed`` on."""
    from pyramids.solver.solvable import solvable_game

    return solvable_game(seed, variant)
