"""What a review is made of: decisions, grades, thresholds, budgets and the summary.

This module is pure data and arithmetic (no search, no solver), so that faces can
load a stored review (:meth:`Review.from_dict`) without importing the engines
behind it, and so that the grading rules sit in one place with their reasons.

Why grades are decided on ``loss - noise`` and not on ``loss`` alone: every
evaluation here is an estimate (sampled deals, or a tree search over guesses of
the hidden cards), and a reviewer who flags an inaccuracy that a second run
would not flag teaches nothing. ``noise`` is one standard error of the loss, so
a move is called worse than good only when the evidence says so; the loss
itself is still shown as measured.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

#: the grades, best first. A move that was the only legal one (or the only sensible
#: one, see :mod:`.multiplayer`) is no decision and gets none.
GOOD = "good"
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
GRADES: tuple[str, ...] = (GOOD, INACCURACY, MISTAKE, BLUNDER)

#: format of :meth:`Review.to_dict` (bumped when a stored review must be computed again)
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Thresholds:
    """Losses (in the game's value, 0 to 1) at which a decision stops being good.

    A decision whose loss, less its noise, is below ``inaccuracy`` is good;
    from ``inaccuracy`` on an inaccuracy, from ``mistake`` a mistake, from
    ``blunder`` a blunder. ``docs/review.md`` gives each game's reasons.
    The values are 0 to 1: the chance of clearing the round (the solitaire) or
    the expected result for the seat, 1 = first, 0 = last (2 players: the win
    chance).
    """

    inaccuracy: float
    mistake: float
    blunder: float

    def grade(self, loss: float) -> str:
        """The grade of a (noise-corrected) loss."""
        if loss >= self.blunder:
            return BLUNDER
        if loss >= self.mistake:
            return MISTAKE
        if loss >= self.inaccuracy:
            return INACCURACY
        return GOOD


#: the bands of a game whose profile has none of its own
DEFAULT_THRESHOLDS = Thresholds(inaccuracy=0.06, mistake=0.12, blunder=0.25)


@dataclass(frozen=True)
class ReviewProfile:
    """How the review treats one game (``PROFILE`` in ``pyramids.review.profiles.<game>``).

    ``thresholds``: the grading bands. ``iteration_share``: the game's share of
    a budget's search iterations, so that every game's ``normal`` review of a
    typical game fits in a minute (a game whose playouts are one ply gets
    more, one whose playouts run to the end fewer; measured in
    docs/performance.md). ``lead_scale``: where places alone are too noisy a
    value of a finished playout, the score lead in points that
    :func:`pyramids.review.ismcts.review_utility` smooths by (``None``: places).
    ``by_solver``: the game is reviewed by the solitaire solver, not by search.
    """

    thresholds: Thresholds = DEFAULT_THRESHOLDS
    iteration_share: float = 1.0
    lead_scale: float | None = None
    by_solver: bool = False


#: the profile of a game without one of its own
DEFAULT_PROFILE = ReviewProfile()


@dataclass(frozen=True)
class Budget:
    """How much evidence each decision gets.

    ``iterations``: tree-search iterations per decision (multiplayer games);
    ``samples``: deals of the unseen cards per decision (the solitaire). A
    decision costs about ``iterations`` playouts or ``samples`` exact solves,
    or fewer with ``settle``: a search stops as soon as the decision is surely
    good (:func:`pyramids.review.ismcts.evaluate`); ``False`` spends the whole
    budget on every decision (the reference the benchmark compares with).
    """

    iterations: int
    samples: int
    settle: bool = True

    def __post_init__(self) -> None:
        if self.iterations < 1 or self.samples < 1:
            raise ValueError("a review budget needs at least 1 iteration and 1 sample")


#: named budgets; ``normal`` reviews a typical game in under a minute (docs/performance.md)
BUDGETS: dict[str, Budget] = {
    "quick": Budget(iterations=120, samples=16),
    "normal": Budget(iterations=400, samples=32),
    "deep": Budget(iterations=1500, samples=96),
}


def parse_budget(budget: str | int | Budget) -> tuple[str, Budget]:
    """A budget and its name: a level (``quick``, ``normal``, ``deep``), a number or a Budget.

    A number sets both: that many iterations per decision, and as many samples
    (for the solitaire, where an exact solve costs about what 10 playouts do, a
    tenth of it, at least 8).
    """
    if isinstance(budget, Budget):
        return "custom", budget
    if isinstance(budget, bool):
        raise ValueError(f"a review budget is a level or a number, not {budget!r}")
    if isinstance(budget, int):
        return str(budget), Budget(iterations=budget, samples=max(8, budget // 10))
    text = str(budget).strip().lower()
    if text in BUDGETS:
        return text, BUDGETS[text]
    if text.isdigit():
        return parse_budget(int(text))
    raise ValueError(
        f"a review budget is one of {', '.join(BUDGETS)} or a number of iterations, not {budget!r}"
    )


@dataclass
class Decision:
    """One move of the reviewed seat, with what the review thinks of it.

    Values are for the seat that moved, from what it knew then: ``value`` is
    the position's value before the move (that of the best move found),
    ``played`` the value of the move played, ``loss`` their difference (never
    below 0) and ``noise`` one standard error of that loss. ``options`` lists
    the best moves found with their values, best first (the played one
    included when it is among them).
    """

    ply: int
    seat: int
    move: str
    legal: int
    best: str
    value: float
    played: float
    loss: float
    noise: float
    grade: str
    #: playouts (multiplayer) or sampled deals (solitaire) behind the estimates
    evidence: int = 0
    options: list[tuple[str, float]] = field(default_factory=list)
    #: the solitaire's round (1-based); None in other games
    round: int | None = None

    @property
    def number(self) -> int:
        """The move's number in the game (1-based), as records and faces count."""
        return self.ply + 1

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (``options`` as ``[move, value]`` pairs)."""
        out = asdict(self)
        out["options"] = [[m, v] for m, v in self.options]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        """The decision :meth:`to_dict` wrote."""
        fields = dict(data)
        fields["options"] = [(str(m), float(v)) for m, v in fields.get("options", [])]
        return cls(**fields)


@dataclass
class RoundPossible:
    """The solitaire's "what was possible" line for one round, with every card known.

    The exact solver's verdict after each move of the round (``win``, ``lose``,
    ``unknown`` when a limit stopped it); ``lost_at`` is the first move after
    which the round could no longer be cleared (its ply, or None), and
    ``line`` a winning line (notation) from the position before that move.
    This uses the hidden cards, so it is kept apart from the decisions.
    """

    round: int
    start: str
    cleared: bool
    verdicts: dict[int, str] = field(default_factory=dict)
    lost_at: int | None = None
    lost_move: str | None = None
    line: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (ply keys as text, as JSON needs)."""
        out = asdict(self)
        out["verdicts"] = {str(k): v for k, v in self.verdicts.items()}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundPossible:
        """The round :meth:`to_dict` wrote."""
        fields = dict(data)
        fields["verdicts"] = {int(k): str(v) for k, v in fields.get("verdicts", {}).items()}
        return cls(**fields)


def move_accuracy(loss: float) -> float:
    """The accuracy of one decision, 0 to 100, from its loss (0 to 1).

    Lichess's formula on win-percentage loss (``103.1668 * exp(-0.04354 *
    points) - 3.1669``): 100 for no loss, about 80 for 5 points, 64 for 10,
    39 for 20. Why this curve and not ``1 - loss``: a game of many small
    errors and one of a single blunder should not score alike.
    """
    points = 100.0 * max(0.0, loss)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * points) - 3.1669))


@dataclass
class SeatSummary:
    """One seat's decisions at a glance."""

    seat: int
    name: str
    decisions: int
    accuracy: float | None
    counts: dict[str, int]
    mean_loss: float | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return asdict(self)


@dataclass
class Review:
    """A whole review: every reviewed decision, and for the solitaire the exact line.

    ``value_kind`` says what the values mean: ``clear`` (the chance of
    clearing the round) or ``result`` (the seat's expected result, 1 = first,
    0 = last). ``seconds`` is the time the review took.
    """

    game: str
    players: list[str]
    seats: list[int]
    budget: str
    iterations: int
    samples: int
    seed: int
    value_kind: str
    thresholds: Thresholds
    decisions: list[Decision] = field(default_factory=list)
    possible: list[RoundPossible] = field(default_factory=list)
    seconds: float = 0.0
    plies: int = 0

    def for_seat(self, seat: int) -> list[Decision]:
        """The decisions of one seat, in game order."""
        return [d for d in self.decisions if d.seat == seat]

    def summary(self) -> list[SeatSummary]:
        """Accuracy (mean of :func:`move_accuracy`), grade counts and mean loss per seat."""
        out = []
        for seat in self.seats:
            mine = self.for_seat(seat)
            counts = {g: sum(1 for d in mine if d.grade == g) for g in GRADES}
            accuracy = sum(move_accuracy(d.loss) for d in mine) / len(mine) if mine else None
            mean_loss = sum(d.loss for d in mine) / len(mine) if mine else None
            name = self.players[seat] if seat < len(self.players) else str(seat)
            out.append(SeatSummary(seat, name, len(mine), accuracy, counts, mean_loss))
        return out

    def biggest(self, count: int = 3, seat: int | None = None) -> list[Decision]:
        """The ``count`` decisions graded worst (largest loss first), good ones left out."""
        flagged = [
            d
            for d in self.decisions
            if d.grade in (INACCURACY, MISTAKE, BLUNDER) and (seat is None or d.seat == seat)
        ]
        flagged.sort(key=lambda d: (-d.loss, d.ply))
        return flagged[:count]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form, with the per-seat summary and the biggest mistakes' plies."""
        return {
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "players": list(self.players),
            "seats": list(self.seats),
            "budget": self.budget,
            "iterations": self.iterations,
            "samples": self.samples,
            "seed": self.seed,
            "value_kind": self.value_kind,
            "thresholds": asdict(self.thresholds),
            "seconds": self.seconds,
            "plies": self.plies,
            "decisions": [d.to_dict() for d in self.decisions],
            "possible": [r.to_dict() for r in self.possible],
            "summary": [s.to_dict() for s in self.summary()],
            "biggest": [d.ply for d in self.biggest()],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Review:
        """The review :meth:`to_dict` wrote (``summary`` and ``biggest`` are recomputed)."""
        if data.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"a review of format {data.get('format_version')!r} cannot be read")
        return cls(
            game=str(data["game"]),
            players=[str(p) for p in data["players"]],
            seats=[int(s) for s in data["seats"]],
            budget=str(data["budget"]),
            iterations=int(data["iterations"]),
            samples=int(data["samples"]),
            seed=int(data["seed"]),
            value_kind=str(data["value_kind"]),
            thresholds=Thresholds(**data["thresholds"]),
            decisions=[Decision.from_dict(d) for d in data["decisions"]],
            possible=[RoundPossible.from_dict(r) for r in data.get("possible", [])],
            seconds=float(data.get("seconds", 0.0)),
            plies=int(data.get("plies", 0)),
        )


def grade_agreement(a: Sequence[Decision], b: Sequence[Decision]) -> float:
    """Share of the decisions (same ply in both) on which two reviews give the same grade."""
    by_ply = {d.ply: d.grade for d in b}
    common = [d for d in a if d.ply in by_ply]
    if not common:
        return 1.0
    return sum(1 for d in common if by_ply[d.ply] == d.grade) / len(common)
