"""Review of Pyramideto against RULINGS.md §3, clause by clause.

The main check replays games against a second, deliberately naive model of
the rules written from the ruling's text (stacks as plain lists, goals found
by scanning every stack, every player checked in turn order from the mover).
The engine's fast tricks (link tables, only fresh goals checked) must agree
with it on every legal move list and every hand, display, deck and winner.
"""

from __future__ import annotations

import json

import pytest

import pyramids
from pyramids.engine.rng import Rng
from pyramids.games.pyramideto import FRAMES, GOAL_BY_ID, GOALS, PyramidetoMove, PyramidetoState
from pyramids.games.pyramideto.pieces import SIZE

Naive = tuple[str, int, int]


def _stands(stacks: list[list[int]], tower: tuple[int, int, int]) -> bool:
    return any(tuple(s[i : i + 3]) == tower for s in stacks for i in range(len(s) - 2))


def _wins(shown: list[int]) -> bool:
    frames = [GOALS[c].frame for c in shown]
    return (
        len(shown) >= 5 or len(set(frames)) >= 4 or any(frames.count(f) >= 3 for f in set(frames))
    )


class NaiveGame:
    """The rules as the ruling reads, with no attempt at speed."""

    def __init__(self, state: PyramidetoState) -> None:
        self.n = state.players
        self.stacks = [[c * 3, c * 3 + 1, c * 3 + 2] for c in range(5)]
        self.hands = [list(state.hand(p)) for p in range(self.n)]
        self.deck = list(state._deck)
        self.shown: list[list[int]] = [[] for _ in range(self.n)]
        self.last: tuple[int, ...] | None = None
        self.turn = state.current_player or 0
        self.over = False
        self.winner: int | None = None
        self.plies = 0
        self.limit = int(state.variant["turn_limit"])

    def legal(self) -> set[Naive]:
        out: set[Naive] = set()
        for i, s in enumerate(self.stacks):
            for k in range(1, len(s) + 1):
                group = tuple(s[-k:])
                if group == self.last:
                    continue  # the exact group just moved
                if k < len(s):
                    out.add(("table", group[0], -1))  # a whole stack to the table is no move
                for j, other in enumerate(self.stacks):
                    if j != i and SIZE[other[-1]] >= SIZE[group[0]]:
                        out.add(("onto", group[0], other[-1]))
        if self.deck:
            out.update(("x", -1, c) for c in self.hands[self.turn])
        return out

    def play(self, kind: str, piece: int, arg: int) -> None:
        mover = self.turn
        if kind == "x":
            self.hands[mover].remove(arg)
            self.deck.append(arg)
            self.hands[mover].append(self.deck.pop(0))
            self.last = None
        else:
            i = next(i for i, s in enumerate(self.stacks) if piece in s)
            s = self.stacks[i]
            group = s[s.index(piece) :]
            del s[s.index(piece) :]
            if not s:
                self.stacks.pop(i)
            if kind == "table":
                self.stacks.append(group)
            else:
                next(t for t in self.stacks if t[-1] == arg).extend(group)
            self.last = tuple(group)
        self.plies += 1
        for k in range(self.n):
            seat = (mover + k) % self.n
            while True:
                standing = sorted(
                    c for c in self.hands[seat] if _stands(self.stacks, GOALS[c].tower)
                )
                if not standing:
                    break
                self.hands[seat].remove(standing[0])
                self.shown[seat].append(standing[0])
                if _wins(self.shown[seat]):
                    self.over, self.winner = True, seat
                    return
                if self.deck:
                    self.hands[seat].append(self.deck.pop(0))
        if (not self.deck and not any(self.hands)) or (self.limit and self.plies >= self.limit):
            self.over = True
            return
        self.turn = (mover + 1) % self.n


def _naive(move: PyramidetoMove) -> Naive:
    if move.is_exchange:
        return ("x", -1, move.card)
    return ("table", move.piece, -1) if move.onto < 0 else ("onto", move.piece, move.onto)


def _goal_seeking_move(state: PyramidetoState, rng: Rng) -> PyramidetoMove:
    """Mostly a move that displays a card for someone (to reach the end rules), else random."""
    moves = state.legal_moves()
    if rng.below(10) < 8:
        before = sum(state.scores())
        for m in moves:
            after = state.copy()
            after.play(m)
            if sum(after.scores()) > before:
                return m
    return moves[rng.below(len(moves))]


@pytest.mark.parametrize("seed", range(20))
def test_engine_agrees_with_a_naive_reading_of_the_rules(seed: int) -> None:
    players = 2 + seed % 3 if seed < 16 else 4
    # seeds 16+ deal 7 cards to 4 players: the deck runs out and hands shrink
    hand_size = 7 if seed >= 16 else 3 if seed % 4 else 6
    state = pyramids.new_game(
        "pyramideto", players=players, seed=seed, hand_size=hand_size, turn_limit=120
    )
    assert isinstance(state, PyramidetoState)
    naive = NaiveGame(state)
    rng = Rng(1000 + seed)
    while not state.is_over:
        legal = state.legal_moves()
        assert len(set(legal)) == len(legal)
        assert {_naive(m) for m in legal} == naive.legal(), f"ply {state.ply}"
        move = _goal_seeking_move(state, rng)
        state.play(move)
        naive.play(*_naive(move))
        for p in range(players):
            assert sorted(state.hand(p)) == sorted(naive.hands[p]), f"hand {p} ply {state.ply}"
            assert list(state.displayed(p)) == naive.shown[p], f"shown {p} ply {state.ply}"
        assert list(state._deck) == naive.deck
        assert sorted(state.stacks()) == sorted(naive.stacks)
        assert (state.is_over, state.winner) == (naive.over, naive.winner)


@pytest.mark.parametrize("seed", range(6))
def test_no_view_names_a_card_the_seat_has_not_seen(seed: int) -> None:
    """Other hands and the deck stay out of every view field, exchange memory included:
    a seat's view may name only its own hand, displayed cards and cards it put under."""
    players = 2 + seed % 3
    state = pyramids.new_game("pyramideto", players=players, seed=seed, hand_size=4)
    assert isinstance(state, PyramidetoState)
    rng = Rng(seed)
    put_under: list[set[int]] = [set() for _ in range(players)]
    while not state.is_over and state.ply < 120:
        moves = state.legal_moves()
        swaps = [m for m in moves if m.is_exchange]
        move = swaps[rng.below(len(swaps))] if swaps and rng.below(3) == 0 else None
        if move is None:
            move = moves[rng.below(len(moves))]
        if move.is_exchange:
            put_under[state.current_player or 0].add(move.card)
        state.play(move)
        shown = {c for p in range(players) for c in state.displayed(p)}
        for seat in [None, *range(players)]:
            text = json.dumps(state.view(seat))
            may = set(shown)
            if seat is not None:
                may |= set(state.hand(seat)) | put_under[seat]
            for c in range(len(GOALS)):
                if c not in may:
                    assert f'"{GOALS[c].id}"' not in text, (seat, GOALS[c].id, state.ply)
                    assert f'"{GOALS[c].name}"' not in text, (seat, GOALS[c].name, state.ply)


def test_move_text_shown_to_a_seat_hides_an_exchange_of_a_card_it_cannot_see() -> None:
    """The terminal's ``describe`` hook: a seat sees the cards it may exchange, but an
    opponent's exchange must not name the card that went face down under the deck."""
    from pyramids.cli.games import game_hooks

    describe = game_hooks("pyramideto").describe
    assert describe is not None
    state = pyramids.new_game("pyramideto", players=2, seed=3)
    assert isinstance(state, PyramidetoState)
    mine = state.view(0)
    own = f"x {GOALS[state.hand(0)[0]].id}"
    theirs = f"x {GOALS[state.hand(1)[0]].id}"
    assert describe(mine, own) == own
    assert GOALS[state.hand(1)[0]].id not in describe(mine, theirs)
    assert "exchange" in describe(mine, theirs)
    assert describe(mine, "Mr>Lg") == "Mr>Lg"


@pytest.mark.parametrize(
    ("shown", "reason"),
    [
        (["watermelon", "hamburger", "spain", "germany", "tree"], "a 5th goal"),
        (["watermelon", "spain", "tree", "lamp"], "a 4th frame colour"),
        (["watermelon", "hamburger", "strawberry"], "a 3rd orange card"),
    ],
)
def test_the_ending_says_which_winning_condition_was_met(shown: list[str], reason: str) -> None:
    from pyramids.text.pyramideto import summary

    state = pyramids.new_game("pyramideto", players=2, seed=3)
    view = state.view(None)
    view.update(
        {
            "is_over": True,
            "winner": 1,
            "end": "goal",
            "ranking": [2, 1],
            "displayed": [[], [GOAL_BY_ID[g].to_json(FRAMES) for g in shown]],
            "scores": [0, len(shown)],
        }
    )
    title = summary(view).title
    assert isinstance(title, str) and reason in title and "Player 2" in title
