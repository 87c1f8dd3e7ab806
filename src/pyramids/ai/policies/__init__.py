"""Game knowledge for search: playout policies and utility scales, one module per game.

Why a registry of its own: MCTS is written once over the engine contract, but
uniformly random playouts are too weak in some games (a random Pirámides
player never clears a pyramid, so every playout looks alike). A game can
have a :class:`GamePolicy` here, as ``POLICY`` in the module named after it
(``pyramids.ai.policies.pyramido_treasure``, see :mod:`pyramids.engine.faces`);
games without one get :data:`DEFAULT_POLICY` (uniformly random playouts to the
end of the game).

A playout policy is called on *determinized* states inside the search, so it
may read the whole state it is given: that state is already a guess drawn
from the acting seat's knowledge, never the real game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from pyramids.engine.faces import face_attribute, face_path
from pyramids.engine.rng import Rng
from pyramids.engine.state import State

#: A playout policy: the move to play in a (determinized) state.
PlayoutFn = Callable[[State[Any], Rng], Hashable]
#: A heuristic evaluation: each seat's estimated score (higher is better).
EvaluateFn = Callable[[State[Any]], list[float]]
#: The moves a search node may try, best first (a non-empty subset of ``moves``).
CandidatesFn = Callable[[State[Any], list[Any]], list[Any]]
#: A decision made without a tree (see :attr:`GamePolicy.decide`): the real state,
#: its legal moves, the seat to move, a seeded stream, how many sampled worlds to
#: play out and a ``time.perf_counter()`` deadline (``None``: none); a move, or
#: ``None`` to leave the position to the tree search.
DecideFn = Callable[[State[Any], list[Any], int, Rng, int, float | None], Hashable | None]


@dataclass(frozen=True)
class GamePolicy:
    """What MCTS knows about one game beyond the contract.

    ``playout`` picks playout moves (``None``: uniformly random legal moves).
    ``score_center`` and ``score_scale`` turn a solitaire score into a utility
    in ``[0, 1]`` (``0.5 + 0.5 * tanh((score - center) / scale)``).
    ``playout_limit`` stops a playout after that many plies and scores the
    position as it stands (``None``: play to the end), for games whose random
    playouts drag on.
    """

    playout: PlayoutFn | None = None
    score_center: float = 0.0
    score_scale: float = 100.0
    playout_limit: int | None = None
    #: per-seat heuristic scores of a position cut off by ``playout_limit``
    #: (``None``: its current :meth:`~pyramids.engine.state.State.scores`)
    evaluate: EvaluateFn | None = None
    #: the moves a tree node may grow, best first, from the legal ``moves`` of
    #: a (determinized) state; ``None``: every legal move, the playout policy's
    #: choice first, then at random. Where a game has many moves and a good
    #: cheap ranking, the search then spends its visits on the few that matter.
    candidates: CandidatesFn | None = None
    #: positions the game decides by flat Monte Carlo instead of a tree: every
    #: option played out in the same few sampled worlds of the seat's knowledge,
    #: the best total wins. For choices whose result shows only long after
    #: ``playout_limit`` (the treasure hunt's events, settled when the card is
    #: over), where a short playout cannot tell the options apart. ``None``: the
    #: tree decides every position.
    decide: DecideFn | None = None
    summary: str = "uniformly random playouts to the end of the game"


DEFAULT_POLICY = GamePolicy()


def get_policy(game_id: str) -> GamePolicy:
    """The ``POLICY`` of ``game_id``'s module here, or :data:`DEFAULT_POLICY` if it has none."""
    policy = face_attribute(__name__, game_id, "POLICY", DEFAULT_POLICY)
    if not isinstance(policy, GamePolicy):
        raise TypeError(f"{face_path(__name__, game_id)}.POLICY is not a GamePolicy")
    return policy


__all__ = [
    "DEFAULT_POLICY",
    "CandidatesFn",
    "EvaluateFn",
    "GamePolicy",
    "PlayoutFn",
    "get_policy",
]
