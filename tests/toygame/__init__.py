"""Nim, a sixth game that lives only in the tests: proof that a game is one folder and one line.

It has every part of the engine contract and none of the faces: no terminal
drawing, web board, greedy agent, playout policy, encoding nor review
profile. The tests register it (``toygame=tests.toygame:GAME``: a fixture
adds it to the registry, a subprocess gets it through
``PYRAMIDS_EXTRA_GAMES``) and check that every face serves it by its generic
behaviour alone.

The rules: three piles of one to seven stones (dealt from the seed); in turn
each player takes one or more stones from one pile; who takes the last stone
wins (score 1, the others 0). Nothing is hidden. A move is written as the
pile's letter and the count, ``b3``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from pyramids.engine.errors import IllegalMove, NotationError, RecordError
from pyramids.engine.rng import Rng
from pyramids.engine.state import Game, State
from pyramids.engine.variant import Option, VariantValue

#: the most stones a pile is dealt
MOST = 7
LETTERS = "abcde"

ID = "toygame"
#: the registry line that adds the game (module docstring)
ENTRY = f"{ID}=tests.toygame:GAME"


class Take(NamedTuple):
    """Take ``count`` stones from pile ``pile`` (0-based)."""

    pile: int
    count: int


class NimState(State[Take]):
    """A position: the stones left in each pile and the seat to move."""

    __slots__ = ("_piles", "_turn", "_winner")

    _piles: tuple[int, ...]
    _turn: int
    _winner: int | None

    @property
    def current_player(self) -> int | None:
        return None if self._winner is not None else self._turn

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    def legal_moves(self) -> list[Take]:
        if self._winner is not None:
            return []
        return [Take(p, n) for p, left in enumerate(self._piles) for n in range(1, left + 1)]

    def _check(self, move: Take) -> None:
        if not isinstance(move, Take) or not 0 <= move.pile < len(self._piles):
            raise IllegalMove("not-a-move", "{move} is not a Nim move", move=repr(move))
        if not 1 <= move.count <= self._piles[move.pile]:
            raise IllegalMove(
                "too-many",
                "pile {pile} has {left} stones: take 1 to {left}",
                pile=LETTERS[move.pile],
                left=self._piles[move.pile],
            )

    def _apply(self, move: Take) -> None:
        piles = list(self._piles)
        piles[move.pile] -= move.count
        self._piles = tuple(piles)
        if not any(piles):
            self._winner = self._turn
        self._turn = (self._turn + 1) % self.players

    def copy(self) -> NimState:
        other = NimState.__new__(NimState)
        self._copy_base(other)
        other._piles = self._piles
        other._turn = self._turn
        other._winner = self._winner
        return other

    def scores(self) -> list[int]:
        return [int(seat == self._winner) for seat in range(self.players)]

    def view(self, player: int | None) -> dict[str, Any]:
        self._check_viewer(player)
        return {**self._view_header(player), "piles": list(self._piles)}

    def determinize(self, player: int | None, rng: Rng) -> NimState:
        """Nothing is hidden: the position itself, with a chance stream of its own."""
        other = self.copy()
        other._rng = rng.fork()
        return other


class NimGame(Game[Take]):
    """Nim on a few small piles: take from one pile, who takes the last stone wins."""

    id = ID
    title = "Nim"
    min_players = 2
    max_players = 3
    summary = "Take stones from one pile at a time; who takes the last one wins."
    options = (Option("piles", 3, int, "Piles on the table.", minimum=1, maximum=len(LETTERS)),)
    chance = True
    hidden_information = False
    secret_seats = False

    def score_bounds(
        self, players: int, variant: Mapping[str, VariantValue]
    ) -> tuple[float, float]:
        return 0.0, 1.0

    def max_game_length(self, players: int, variant: Mapping[str, VariantValue]) -> int:
        return MOST * int(variant["piles"])

    def max_legal_moves(self, players: int, variant: Mapping[str, VariantValue]) -> int:
        return MOST * int(variant["piles"])

    def make_setup(
        self, players: int, variant: Mapping[str, VariantValue], rng: Rng
    ) -> dict[str, Any]:
        return {"piles": [1 + rng.below(MOST) for _ in range(int(variant["piles"]))]}

    def from_setup(
        self, setup: Mapping[str, Any], players: int, variant: Mapping[str, VariantValue]
    ) -> NimState:
        piles = setup.get("piles")
        if (
            not isinstance(piles, list)
            or len(piles) != variant["piles"]
            or not all(type(n) is int and 1 <= n <= MOST for n in piles)
        ):
            raise RecordError(
                "setup", "piles must be {count} counts of 1 to 7", count=variant["piles"]
            )
        state = NimState.__new__(NimState)
        state._init_base(setup, players, variant)
        state._piles = tuple(piles)
        state._turn = 0
        state._winner = None
        return state

    def move_to_str(self, state: State[Take], move: Take) -> str:
        return f"{LETTERS[move.pile]}{move.count}"

    def parse_move(self, state: State[Take], text: str) -> Take:
        word = text.strip().lower()
        if len(word) < 2 or word[0] not in LETTERS or not word[1:].isdigit():
            raise NotationError(
                "'{text}' is not a pile letter and a count, like b3", text, text=text
            )
        return Take(LETTERS.index(word[0]), int(word[1:]))


NimState.game = GAME = NimGame()
