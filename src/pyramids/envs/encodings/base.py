"""What a game must supply to be usable from the research libraries.

Gymnasium, PettingZoo and OpenSpiel all want a *fixed* set of integer actions
and fixed-shape numeric observations, while our engine speaks in small move
values whose legal set changes every turn and in JSON views. A game's codec is
the translation, written once per game, so that the three adapters stay
generic:

* :class:`ActionCodec` numbers every move the game can ever have
  (``0 .. num_actions - 1``) in a documented, stable way, and turns the legal
  moves of a state into a boolean mask over those numbers;
* :class:`ObservationCodec` turns ``state.view(seat)`` into a flat float32
  array. Its definition reads the *view*, never the state, so an observation
  cannot leak what the seat may not see. The adapters call
  :meth:`ObservationCodec.encode_state`, which a game may implement straight
  from the state (a view is a JSON-able dict made for faces and costs tens of
  microseconds); a property test checks on random states that it equals the
  encoding of the view for every seat, so the guarantee holds for it too;
* an optional raster draws a view as an RGB image for ``rgb_array`` rendering.

The numbering may depend on the player count and variant (a bigger layout has
more positions), which is why codecs are built from a sample initial state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pyramids.engine.state import State

BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]
ImageArray = npt.NDArray[np.uint8]
View = Mapping[str, Any]


#: legal_bytes remembers the masks of move lists this short, up to this many lists
_MEMO_MOVES = 16
_MEMO_SIZE = 4096


class ActionCodec(ABC):
    """A stable numbering of a game's moves for a given player count and variant."""

    #: Size of the action space: every id in ``range(num_actions)`` names one move shape.
    num_actions: int

    @abstractmethod
    def encode(self, state: State[Any], move: Hashable) -> int:
        """The action id of ``move`` in ``state``; :class:`ValueError` if it has none."""

    @abstractmethod
    def decode(self, state: State[Any], action: int) -> Hashable:
        """The move that ``action`` names in ``state``.

        Raises :class:`ValueError` when the id is out of range or names no move
        in this state (for example a placement that needs a domino that is not
        there). Whether the decoded move is *legal* is for ``state.play``.
        """

    @abstractmethod
    def describe(self, action: int) -> str:
        """A short human description of what the id means (stable across states)."""

    def legal_actions(self, state: State[Any]) -> list[int]:
        """The ids of the legal moves, ascending (OpenSpiel requires sorted ids)."""
        return sorted(set(self.legal_ids(state)))

    def mask(self, state: State[Any]) -> BoolArray:
        """Boolean mask over all ids: True exactly for the legal moves' ids."""
        out = np.zeros(self.num_actions, dtype=np.bool_)
        ids = self.legal_ids(state)
        if ids:
            out[ids] = True
        return out

    def legal_ids(self, state: State[Any]) -> list[int]:
        """The ids of the legal moves, in the order of ``legal_moves()``.

        Codecs whose moves are prebuilt values look them up in a table
        (:meth:`_id_table`) instead of encoding each one: the adapters ask for
        the mask after every step.
        """
        return self._ids_of(state, state.legal_moves())

    def _ids_of(self, state: State[Any], moves: Sequence[Hashable]) -> list[int]:
        table = self._id_table()
        if table is not None:
            try:
                return [table[m] for m in moves]
            except KeyError:
                pass  # a move value the table does not know: encode them all
        return [self.encode(state, m) for m in moves]

    def legal_bytes(self, state: State[Any]) -> bytes:
        """The mask as ``num_actions`` bytes, 1 for each legal id: for the adapters' hot path.

        Why bytes: ``np.frombuffer(...).copy()`` makes the adapters' int8 mask
        in a fraction of a microsecond, ``mask[action]`` answers "is it legal?"
        without asking the engine again, and bytes are immutable, so one mask
        may be kept and shared. Codecs whose ids do not depend on the state
        (an :meth:`_id_table`) remember the masks of short move lists: a few
        dozen move sets make up most positions of a solitaire. The others
        take their ids from :meth:`legal_ids` (Pyramido's per-width tables).
        The mask of the last state asked about is kept until that state plays
        on (its :attr:`~pyramids.engine.state.State.ply` grows): an adapter
        observes a position and then checks the step's action against it.
        """
        last = self.__dict__.get("_legal_bytes_last")
        if last is not None and last[0] is state and last[1] == state.ply:
            mask: bytes = last[2]
            return mask
        mask = self._legal_bytes(state)
        self.__dict__["_legal_bytes_last"] = (state, state.ply, mask)
        return mask

    def _legal_bytes(self, state: State[Any]) -> bytes:
        out = bytearray(self.num_actions)
        if self._id_table() is None:  # ids need the state: the codec's own legal_ids
            for i in self.legal_ids(state):
                out[i] = 1
            return bytes(out)
        moves = state.legal_moves()
        memo: dict[tuple[Hashable, ...], bytes] | None = None
        key: tuple[Hashable, ...] = ()
        if len(moves) <= _MEMO_MOVES:
            memo = self.__dict__.setdefault("_legal_bytes_memo", {})
            key = tuple(moves)
            hit = memo.get(key)
            if hit is not None:
                return hit
        for i in self._ids_of(state, moves):
            out[i] = 1
        mask = bytes(out)
        if memo is not None and len(memo) < _MEMO_SIZE:
            memo[key] = mask
        return mask

    def _id_table(self) -> Mapping[Hashable, int] | None:
        """Move value -> id, for games whose ids need no state (``None``: encode each move)."""
        return None

    def check_action(self, action: object) -> int:
        """``action`` as a plain int in range, or :class:`ValueError`."""
        if isinstance(action, np.integer):
            action = int(action)
        if not isinstance(action, int) or isinstance(action, bool):
            raise ValueError(f"an action id must be an integer, not {action!r}")
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action id {action} is outside 0..{self.num_actions - 1}")
        return action


class ObservationCodec(ABC):
    """A flat float32 encoding of one seat's view, every value within [0, 1]."""

    #: Shape of the arrays :meth:`encode` returns (always one-dimensional here).
    shape: tuple[int, ...]

    @abstractmethod
    def encode(self, view: View) -> FloatArray:
        """Encode ``view`` (from ``state.view(seat)``); never reads the state itself."""

    def encode_state(self, state: State[Any], seat: int | None) -> FloatArray:
        """``encode(state.view(seat))``, which a game may compute from the state directly.

        An override must give exactly the same array (a property test checks
        it for every game and seat on random states): it may read only what
        the view shows the seat.
        """
        return self.encode(state.view(seat))

    def encode_states(self, states: Sequence[State[Any]], seat: int | None) -> FloatArray:
        """``encode_state`` of each state, as rows of one ``(len(states), size)`` array.

        For vector environments; a game may compute the whole batch with
        array operations (the rows must equal ``encode_state`` exactly).
        """
        out = np.empty((len(states), *self.shape), dtype=np.float32)
        for i, state in enumerate(states):
            out[i] = self.encode_state(state, seat)
        return out

    @property
    def size(self) -> int:
        """Number of values in an observation."""
        return int(np.prod(self.shape))

    @abstractmethod
    def index_names(self) -> list[str]:
        """What each value means, one name per index (``names[i]`` for ``obs[i]``).

        The machine-readable form of the layout in the codec's docstring, for
        people reading a trained policy's weights or building features.
        Names are ``part.subpart=value`` for a one-hot value and
        ``part.subpart`` for a flag or a scaled number; seats are counted
        from the observer (``seat+0`` is the observer itself), as the
        vector orders them. A test checks the names against encoded vectors.
        """


@dataclass(frozen=True)
class GameCodec:
    """Everything the adapters need about one game at one player count and variant."""

    game_id: str
    players: int
    variant: Mapping[str, Any]
    actions: ActionCodec
    observations: ObservationCodec
    #: Draws a view as an RGB image (H, W, 3); ``None`` = the generic text raster.
    #: (Score bounds and game length are the game's: :meth:`Game.score_bounds`.)
    raster: Callable[[View], ImageArray] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> GameCodec:
        """Codecs are immutable: a deep copy (OpenSpiel clones states so) is the codec itself."""
        return self


def one_hot_names(prefix: str, values: Iterable[object]) -> list[str]:
    """``prefix=value`` for each value of a one-hot group."""
    return [f"{prefix}={v}" for v in values]


def vector(size: int, ones: list[int], scalars: list[tuple[int, float]]) -> FloatArray:
    """A float32 vector of ``size`` zeros with the ``ones`` set to 1 and ``(index, value)`` pairs.

    The fast observations (``encode_state``) collect indices in Python lists
    and write them in one NumPy call each, which costs far less than building
    a list of floats and converting it. Scalars are clipped into [0, 1] as
    :meth:`OneHot.scalar` does.
    """
    out = np.zeros(size, dtype=np.float32)
    if ones:
        out[ones] = 1.0
    for i, value in scalars:
        out[i] = min(max(value, 0.0), 1.0)
    return out


class OneHot:
    """Helper that writes one-hot groups and scalars into a vector of known size.

    Values go into a plain list first and become a NumPy array once, in
    :meth:`done`: setting NumPy items one by one costs several times more.
    """

    __slots__ = ("pos", "vec")

    def __init__(self, size: int) -> None:
        self.vec: list[float] = [0.0] * size
        self.pos = 0

    def one_hot(self, index: int | None, width: int) -> None:
        """A group of ``width`` slots with slot ``index`` set (none set if ``None``)."""
        if index is not None:
            if not 0 <= index < width:
                raise ValueError(f"one-hot index {index} outside 0..{width - 1}")
            self.vec[self.pos + index] = 1.0
        self.pos += width

    def flag(self, value: bool) -> None:
        """One slot: 1.0 if ``value``."""
        if value:
            self.vec[self.pos] = 1.0
        self.pos += 1

    def flags(self, on: set[int] | frozenset[int], width: int) -> None:
        """``width`` slots, slot ``i`` set for each ``i`` in ``on``."""
        base = self.pos
        for i in on:
            if not 0 <= i < width:
                raise ValueError(f"flag index {i} outside 0..{width - 1}")
            self.vec[base + i] = 1.0
        self.pos += width

    def counts(self, items: Iterable[int], width: int, top: float) -> None:
        """``width`` slots; slot ``i`` is how often ``i`` occurs in ``items`` / ``top`` (max 1)."""
        base = self.pos
        step = 1.0 / top
        vec = self.vec
        for i in items:
            if not 0 <= i < width:
                raise ValueError(f"count index {i} outside 0..{width - 1}")
            vec[base + i] = min(vec[base + i] + step, 1.0)
        self.pos += width

    def scalar(self, value: float, top: float) -> None:
        """One slot: ``value / top`` clipped into [0, 1] (``top`` <= 0 gives 0)."""
        self.vec[self.pos] = min(max(value / top, 0.0), 1.0) if top > 0 else 0.0
        self.pos += 1

    def done(self) -> FloatArray:
        """The finished vector; checks that every slot was accounted for."""
        if self.pos != len(self.vec):
            raise AssertionError(f"encoded {self.pos} values into a vector of {len(self.vec)}")
        return np.array(self.vec, dtype=np.float32)
