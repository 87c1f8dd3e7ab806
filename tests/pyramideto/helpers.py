"""Building Pyramideto positions for tests: chosen hands, moves in notation."""

from __future__ import annotations

from pyramids.games.pyramideto import GAME, GOAL_BY_ID, GOALS, PyramidetoState


def deal(
    hands: list[list[str]],
    deck: list[str] | None = None,
    first_player: int = 0,
    **variant: object,
) -> PyramidetoState:
    """A game whose hands are the given goal ids; the deck is ``deck`` then every other card."""
    players = len(hands)
    options = GAME.resolve_variant(
        {"hand_size": len(hands[0]), "first_player": first_player, **variant}
    )
    used = [g for h in hands for g in h] + list(deck or [])
    rest = [g.id for g in GOALS if g.id not in used]
    setup = {"first_player": first_player, "hands": hands, "deck": [*(deck or []), *rest]}
    state = GAME.from_setup(setup, players, options)
    assert isinstance(state, PyramidetoState)
    return state


def play(state: PyramidetoState, *moves: str) -> PyramidetoState:
    """Play moves written in notation (each must be legal)."""
    for text in moves:
        state.play(state.parse_move(text))
    return state


def card(goal_id: str) -> int:
    """The index of a goal card."""
    return GOAL_BY_ID[goal_id].number
