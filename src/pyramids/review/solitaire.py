"""The review of Pirámides and its layouts: the solver decides, on deals of the unseen cards.

Two answers, kept apart because they rest on different knowledge:

* **Decisions** (what the player could know): for each move, the chance of
  clearing the round after every legal move, computed as the hint computes it
  (:mod:`pyramids.solver.hint`): the unseen cards (the stock order, face-down
  cards) are dealt again with ``state.determinize(0, rng)`` and each legal
  move is decided *exactly* on every deal. All moves are decided on the same
  deals, so their difference is paired and its noise is measured per deal.
* **What was possible** (every card known, after the game): the exact solver
  on the real deal, move by move, names the first move after which the round
  could no longer be cleared and a winning line from just before it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.piramides import PiramidesMove, PiramidesState
from pyramids.review.model import Decision, RoundPossible, Thresholds
from pyramids.solver.position import position_of
from pyramids.solver.search import LOSE, UNKNOWN, WIN, code_to_move, move_to_code, solve

#: one exact solve may use this many nodes and seconds before it says "unknown"
MAX_NODES = 200_000
MAX_SECONDS = 10.0


def decision(
    state: PiramidesState,
    move: PiramidesMove,
    samples: int,
    seed: int,
    thresholds: Thresholds,
) -> Decision | None:
    """The review of playing ``move`` in ``state``; ``None`` when there was nothing to choose.

    Nothing to choose: one legal move, or no move clears the round in any sampled
    deal. Why the second: the round is then lost whatever is played, every move
    would grade "good", and a game lost early would read as near-perfect
    accuracy. The "what was possible" line says when the round was lost.
    """
    legal = state.legal_moves()
    if len(legal) < 2:
        return None
    rng = Rng(seed)
    codes = [move_to_code(m) for m in legal]
    # per legal move, per sample: 1 (clears), 0 (does not), None (the solver gave up)
    outcomes: dict[int, list[int | None]] = {c: [] for c in codes}
    for _ in range(samples):
        guess = state.determinize(0, rng.fork())
        assert isinstance(guess, PiramidesState)
        result = solve(
            position_of(guess),
            "clear",
            max_nodes=MAX_NODES,
            max_seconds=MAX_SECONDS,
            each_move=True,
        )
        for c in codes:
            verdict = result.per_move.get(c, UNKNOWN)
            outcomes[c].append(None if verdict == UNKNOWN else int(verdict == WIN))
    chances = {c: _mean(v) for c, v in outcomes.items()}
    played = move_to_code(move)
    top = max(chances.values())
    if top == 0:
        return None
    # on a tie the move played is the best: it lost nothing
    best = played if chances[played] >= top else max(codes, key=lambda c: chances[c])
    diffs = [
        b - p
        for b, p in zip(outcomes[best], outcomes[played], strict=True)
        if b is not None and p is not None
    ]
    loss = max(0.0, chances[best] - chances[played])
    noise = _standard_error(diffs) if best != played else 0.0
    ranked = sorted(codes, key=lambda c: (-chances[c], codes.index(c)))[:3]
    return Decision(
        ply=state.ply,
        seat=0,
        move=state.move_to_str(move),
        legal=len(legal),
        best=state.move_to_str(code_to_move(best)),
        value=chances[best],
        played=chances[played],
        loss=loss,
        noise=noise,
        grade=thresholds.grade(max(0.0, loss - noise)),
        evidence=samples,
        options=[(state.move_to_str(code_to_move(c)), chances[c]) for c in ranked],
        round=state.round,
    )


def _mean(values: list[int | None]) -> float:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else 0.0


def _standard_error(diffs: list[int]) -> float:
    """Standard error of the mean of paired differences (0.5 with fewer than 2 pairs)."""
    n = len(diffs)
    if n < 2:
        return 0.5
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(var / n)


def possible(
    states: list[State[Any]], moves: list[str], progress: Callable[[], None] | None = None
) -> list[RoundPossible]:
    """The "what was possible" line of every round played, with every card known.

    ``states`` are the positions of the game (:func:`.positions.positions`),
    ``moves`` the moves between them in notation.
    Once a round is lost, every later position of it is lost too (a player
    who cannot clear from a position cannot from any that follows), so the
    solver stops asking.
    """
    rounds: list[RoundPossible] = []
    current: RoundPossible | None = None
    lost = False
    last_win_line: list[str] = []
    for k, state in enumerate(states):
        assert isinstance(state, PiramidesState)
        if state.is_over:
            break
        if current is None or current.round != state.round:
            if current is not None:
                current.cleared = True
            verdict, line = _exact(state)
            current = RoundPossible(round=state.round, start=verdict, cleared=False)
            rounds.append(current)
            lost = verdict == LOSE
            last_win_line = line
        nxt = states[k + 1] if k + 1 < len(states) else None
        if nxt is None:
            break
        assert isinstance(nxt, PiramidesState)
        line_before = last_win_line  # the line from this position, if it was won
        if nxt.round != state.round:
            after = WIN  # this move cleared the round
        elif nxt.is_over:
            after = LOSE if not _cleared_last(nxt) else WIN
        elif lost:
            after = LOSE
        else:
            after, line = _exact(nxt)
            last_win_line = line  # empty unless won: no line is known from an unknown
        current.verdicts[k] = after
        if after == LOSE and not lost:
            lost = True
            current.lost_at = k
            current.lost_move = moves[k]
            current.line = list(line_before)
        if progress is not None:
            progress()
    if current is not None and states and states[-1].is_over:
        final = states[-1]
        assert isinstance(final, PiramidesState)
        current.cleared = _cleared_last(final)
    return rounds


def _cleared_last(state: PiramidesState) -> bool:
    rounds = state.round_scores()
    return bool(rounds) and rounds[-1].cleared


def _exact(state: PiramidesState) -> tuple[str, list[str]]:
    """The solver's verdict on the real position, and its winning line in notation."""
    result = solve(position_of(state), "clear", max_nodes=MAX_NODES * 10, max_seconds=MAX_SECONDS)
    if result.verdict != WIN:
        return result.verdict, []
    walker = state.copy()
    line = []
    for m in result.moves():
        line.append(walker.move_to_str(m))
        walker.play(m)
    return WIN, line
