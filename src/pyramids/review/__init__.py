"""Game review: where a game was won and lost, decision by decision.

>>> import pyramids
>>> state = pyramids.new_game("pyramideto", players=2, seed=3)
>>> for _ in range(4):
...     state.play(state.legal_moves()[0])
>>> result = pyramids.review(state.record(), seat=0, budget=30)
>>> [d.number for d in result.decisions]
[1, 3]
>>> result.decisions[0].grade in ("good", "inaccuracy", "mistake", "blunder")
True

For each move of a seat (or of every seat) the review gives the value of the
position before it, the value of the move played and of the best move found,
the loss, and a grade (good / inaccuracy / mistake / blunder) by the game's
grading bands (its :class:`ReviewProfile`, see :func:`profile_for`). Values
come only from what the mover knew at that moment: Pirámides by the exact
solver on deals of the unseen cards (:mod:`.solitaire`), with a separate "what
was possible" line that knows every card; the other games by information-set
MCTS (:mod:`.multiplayer`). See ``docs/review.md``.

Why this package can be called (``pyramids.review(record)``): the review is
one function, and that is the name users look for; the package holds
its parts. Calling the package calls :func:`review`. Typed code imports the
function: ``from pyramids.review import review``. Nothing heavy is imported
here (the solver and the search load when a review runs), so ``import
pyramids`` stays light.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyramids.engine.state import State
from pyramids.review.model import (
    BLUNDER,
    BUDGETS,
    GOOD,
    GRADES,
    INACCURACY,
    MISTAKE,
    Budget,
    Decision,
    Review,
    ReviewProfile,
    RoundPossible,
    SeatSummary,
    Thresholds,
    grade_agreement,
    move_accuracy,
    parse_budget,
)
from pyramids.review.profiles import profile_for, thresholds_for

if TYPE_CHECKING:
    from pyramids.review.run import Progress


def review(
    record: Mapping[str, Any] | str | Path,
    seat: int | None = None,
    budget: str | int | Budget = "normal",
    *,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
) -> Review:
    """Review the decisions of ``seat`` (``None``: every seat) in a game record.

    ``record`` is a record dict, its JSON text or a path. ``budget``: a level
    (:data:`BUDGETS`: ``quick``, ``normal``, ``deep``), a number of search
    iterations per decision, or a :class:`Budget`. The same record, seat,
    budget and ``seed`` give the same review; ``jobs`` > 1 computes it in that
    many processes with the same result. ``progress(done, total)`` is called
    after each decision.
    """
    from pyramids.review.run import review as run

    return run(record, seat, budget, seed=seed, jobs=jobs, progress=progress)


def review_move(
    state: State[Any], move: Hashable, budget: str | int | Budget = "normal", *, seed: int = 0
) -> Decision | None:
    """The review of one move in one position, for its mover (``None``: no choice there).

    What :func:`review` does for each move of a record, on a position a caller
    already holds (a face asking "was that a mistake?", a test on a hand-built
    position). The same position, move, budget and ``seed`` give the same
    decision. The position must not carry a replay's forced chance outcomes
    (states from :func:`pyramids.new_game`, ``from_setup`` or a finished
    :func:`pyramids.replay` do not).
    """
    from pyramids.review.run import decide

    _, chosen = parse_budget(budget)
    return decide(state, move, state.game.id, chosen, seed)


class _CallableModule(types.ModuleType):
    """This package, callable as :func:`review` (so ``pyramids.review(record)`` works)."""

    def __call__(
        self,
        record: Mapping[str, Any] | str | Path,
        seat: int | None = None,
        budget: str | int | Budget = "normal",
        **options: Any,
    ) -> Review:
        return review(record, seat, budget, **options)


sys.modules[__name__].__class__ = _CallableModule

__all__ = [
    "BLUNDER",
    "BUDGETS",
    "GOOD",
    "GRADES",
    "INACCURACY",
    "MISTAKE",
    "Budget",
    "Decision",
    "Review",
    "ReviewProfile",
    "RoundPossible",
    "SeatSummary",
    "Thresholds",
    "grade_agreement",
    "move_accuracy",
    "parse_budget",
    "profile_for",
    "review",
    "review_move",
    "thresholds_for",
]
