"""``review(record)``: every decision of a game, valued from the mover's information.

The work per game kind lives in :mod:`.solitaire` (the solver, on deals of the
unseen cards) and :mod:`.multiplayer` (information-set MCTS); this module walks
the record, hands each decision to one of them, and gathers the results.

Why each decision gets its own seed, derived from the review's seed and the
move's number: decisions are then independent of one another, so a review
split over processes (``jobs``) gives exactly the serial result, and two
records that differ only in what the seat could not see are valued alike
move by move.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from pyramids.engine.records import load_record
from pyramids.engine.state import State, check_seat
from pyramids.review.model import (
    Budget,
    Decision,
    Review,
    RoundPossible,
    parse_budget,
)
from pyramids.review.positions import positions
from pyramids.review.profiles import profile_for, thresholds_for

MASK64 = (1 << 64) - 1

#: ``progress(done, total)`` after each decision
Progress = Callable[[int, int], None]

#: decisions a review searches at its full budget; a longer game's decisions share
#: that many budgets' worth, down to :data:`LONG_GAME_FLOOR` of a budget each
LONG_GAME_DECISIONS = 400
LONG_GAME_FLOOR = 0.1


def budget_for_length(budget: Budget, decisions: int) -> Budget:
    """The budget of each decision in a review of ``decisions`` searched decisions.

    Why: a game of thousands of decisions (two random players in the treasure
    hunt can make 3,000) would otherwise take many minutes. Past
    :data:`LONG_GAME_DECISIONS` the iterations per decision shrink so that
    the whole review costs about as much as one of that many decisions, but
    never below :data:`LONG_GAME_FLOOR` of the budget. Fewer iterations mean
    noisier grades; ``Review.iterations`` says what each decision got.
    Typical games (up to about 250 moves with a choice,
    ``benchmarks/bench_review.py``) keep the whole budget.
    """
    if decisions <= LONG_GAME_DECISIONS:
        return budget
    share = max(LONG_GAME_FLOOR, LONG_GAME_DECISIONS / decisions)
    return replace(budget, iterations=max(1, round(budget.iterations * share)))


def decision_seed(seed: int, ply: int) -> int:
    """The seed of one decision: mixed from the review's seed and the move's number."""
    return (seed * 0x9E3779B97F4A7C15 + (ply + 1) * 0xBF58476D1CE4E5B9) & MASK64


def iterations_for(game_id: str, budget: Budget) -> int:
    """Search iterations per decision in ``game_id`` (games with long playouts get fewer)."""
    return max(1, round(budget.iterations * profile_for(game_id).iteration_share))


def solved_by_solver(game_id: str) -> bool:
    """Whether the game is reviewed by the solitaire solver (else by the tree search)."""
    return profile_for(game_id).by_solver


@dataclass
class Plan:
    """A review before its decisions are computed: the record, its positions, the moves to value.

    :func:`review` runs one in this process; a server can hand each ply of
    ``plies`` to :func:`decide_in_worker` in processes of its own, keeping
    the progress itself, and then :meth:`finish` it.
    """

    record: dict[str, Any]
    text: str
    states: list[State[Any]]
    plies: list[int]
    budget: Budget
    result: Review
    started: float

    def finish(self, decisions: list[Decision]) -> Review:
        """The review with these decisions (and, for the solitaire, what was possible)."""
        result = self.result
        result.decisions = sorted(decisions, key=lambda d: d.ply)
        if self.result.value_kind == "clear":
            result.possible = possible_of(self.states)
        result.seconds = time.perf_counter() - self.started
        return result


def plan(
    record: Mapping[str, Any] | str | Path,
    seat: int | None = None,
    budget: str | int | Budget = "normal",
    *,
    seed: int = 0,
) -> Plan:
    """Check the record and the seat and list the decisions to value (see :func:`review`)."""
    started = time.perf_counter()
    data = load_record(record)
    states = positions(data)
    final = states[-1]
    game_id = final.game.id
    if seat is not None:
        check_seat(seat, final.players)
    name, chosen = parse_budget(budget)
    seats = [seat] if seat is not None else list(range(final.players))
    plies = [
        k
        for k in range(len(states) - 1)
        if states[k].current_player in seats and len(states[k].legal_moves()) > 1
    ]
    solver = solved_by_solver(game_id)
    if not solver:
        chosen = budget_for_length(chosen, len(plies))
    result = Review(
        game=game_id,
        players=list(final.names),
        seats=seats,
        budget=name,
        iterations=0 if solver else iterations_for(game_id, chosen),
        samples=chosen.samples if solver else 0,
        seed=seed,
        value_kind="clear" if solver else "result",
        thresholds=thresholds_for(game_id),
        plies=len(states) - 1,
    )
    text = json.dumps(data, sort_keys=True)
    return Plan(data, text, states, plies, chosen, result, started)


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

    ``budget`` is a level (``quick``, ``normal``, ``deep``), a number of
    iterations per decision, or a :class:`Budget`. ``jobs`` > 1 splits the
    decisions over that many processes (same result). ``progress(done,
    total)`` is called after each decision. Raises :class:`RecordError` for a
    bad record and :class:`~pyramids.engine.errors.SeatError` for a seat the
    game does not have.
    """
    work = plan(record, seat, budget, seed=seed)
    plies = work.plies
    if jobs > 1 and len(plies) > 1:
        found = _in_processes(work.text, plies, work.budget, seed, jobs, progress)
    else:
        found = []
        moves = work.states[-1].moves_played()
        game_id = work.result.game
        for done, k in enumerate(plies, 1):
            d = decide(work.states[k], moves[k], game_id, work.budget, seed)
            if d is not None:
                found.append(d)
            if progress is not None:
                progress(done, len(plies))
    return work.finish(found)


def possible_of(states: list[State[Any]]) -> list[RoundPossible]:
    """The solitaire's "what was possible" line (:func:`.solitaire.possible`)."""
    from pyramids.review.solitaire import possible

    moves = states[-1].moves_played()
    return possible(states, [states[k].move_to_str(m) for k, m in enumerate(moves)])


def decide(
    state: State[Any], move: Hashable, game_id: str, budget: Budget, seed: int
) -> Decision | None:
    """The review of one move (``None`` when it was no choice)."""
    thresholds = thresholds_for(game_id)
    k_seed = decision_seed(seed, state.ply)
    if solved_by_solver(game_id):
        from pyramids.games.piramides import PiramidesMove, PiramidesState
        from pyramids.review import solitaire

        assert isinstance(state, PiramidesState) and isinstance(move, PiramidesMove)
        return solitaire.decision(state, move, budget.samples, k_seed, thresholds)
    from pyramids.review import multiplayer

    iterations = iterations_for(game_id, budget)
    return multiplayer.decision(state, move, iterations, k_seed, thresholds, budget.settle)


def _in_processes(
    text: str,
    plies: list[int],
    budget: Budget,
    seed: int,
    jobs: int,
    progress: Progress | None,
) -> list[Decision]:
    """The decisions of ``plies``, each computed in one of ``jobs`` processes."""
    found: list[Decision] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(decide_in_worker, text, k, budget, seed) for k in plies]
        for done, future in enumerate(as_completed(futures), 1):
            d = future.result()
            if d is not None:
                found.append(d)
            if progress is not None:
                progress(done, len(plies))
    return found


@lru_cache(maxsize=2)
def _positions_of(text: str) -> tuple[list[State[Any]], list[Any]]:
    states = positions(json.loads(text))
    return states, states[-1].moves_played()


def decide_in_worker(text: str, ply: int, budget: Budget, seed: int) -> Decision | None:
    """What a worker process runs: one decision of the record ``text`` (:attr:`Plan.text`).

    The positions are rebuilt once per record and process, then kept.
    """
    states, moves = _positions_of(text)
    state = states[ply]
    return decide(state, moves[ply], state.game.id, budget, seed)
