"""The solver's own move rules agree with the engine's, move by move."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.engine.rng import Rng
from pyramids.games.piramides.layout import LAYOUTS
from pyramids.solver.position import deal_state, position_of
from pyramids.solver.search import move_to_code
from pyramids.solver.transitions import legal_codes, step


@settings(max_examples=60)
@given(
    layout=st.sampled_from(sorted(LAYOUTS)),
    wrap=st.booleans(),
    deal=st.integers(0, 2**32 - 1),
    walk=st.integers(0, 2**32 - 1),
)
def test_random_walks_agree(layout: str, wrap: bool, deal: int, walk: int) -> None:
    state = deal_state(layout, deal, wrap=wrap, rounds=1)
    rng = Rng(walk)
    pos = position_of(state)
    while not state.is_over:
        legal = state.legal_moves()
        assert sorted(legal_codes(pos)) == sorted(move_to_code(m) for m in legal)
        move = legal[rng.below(len(legal))]
        pos = step(pos, move_to_code(move))
        state.play(move)
        if not state.is_over:
            assert position_of(state) == pos
    cleared = state.round_scores()[-1].cleared
    assert cleared == (pos.removed == pos.layout.full_mask)
    if not cleared:
        assert legal_codes(pos) == []


@given(deal=st.integers(0, 2**32 - 1))
def test_position_of_reads_a_fresh_deal(deal: int) -> None:
    state = deal_state("golf", deal)
    pos = position_of(state)
    assert pos.removed == 0 and pos.run == 0 and pos.jokers == 0
    assert len(pos.stock) == 16 and pos.layout.size == 35
    setup = state.setup()["deals"][0]
    assert len(setup) == 52
