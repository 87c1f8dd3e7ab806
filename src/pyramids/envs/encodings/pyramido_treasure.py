"""The treasure hunt (``pyramido-treasure``) for the research adapters.

Spots are the 48 spots of the box in *box* coordinates (``index`` in the
view, row by row from box corner a1: ``8 * row + column``); they do not turn
with the box, so an action id means the same spot all game long. Treasures
are numbered 0..11 and card types 0..53 as in ``treasures.py`` (a treasure
card is ``4 * treasure + points - 1``; 48..53 are the events). ``n`` is the
number of players; seats in actions are absolute seat numbers.

Actions (``114 + 60 n``):

=====================================  ==============================================
id                                     move
=====================================  ==============================================
``s`` (0..47)                          slide the pyramid on spot ``s`` into the gap
``48 + k`` (k = 0..65)                 danger: name treasures ``a < b``, pairs in
                                       order (0,1), (0,2), ..., (10,11)
``114 + 12 o + t``                     desert poker: opponent seat ``o``, treasure ``t``
``114 + 12 n + n c + p``               give a card of type ``c`` (0..47) to seat ``p``
=====================================  ==============================================

Observation (float32 in [0, 1]) from ``view(seat)``; seats are counted from
the observer (0 = me):

* per spot (box order), 15 values: the token revealed there (13 one-hot:
  blank or a treasure; all zero if never revealed), it is the gap now, and
  how long ago it was last revealed (plies / 500, capped at 1);
* per field, the treasure it is known to hold (12 one-hot, or none);
* the phase (11 one-hot); the card sought (54 one-hot); per seat, it owns the
  search, it is to move, it is eliminated;
* the event under way: treasures named or sought (12 flags), treasures
  revealed during it (12 flags), card types that may be given (54 flags),
  seats involved (per seat);
* the deck number (3 one-hot), cards left in each deck / its size, and the
  cards left in the current deck (count per type / 4);
* per seat, cards held per type / 4, and the score / the points of all
  treasure cards (83).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from itertools import combinations
from typing import Any

import numpy as np

from pyramids.engine.state import State
from pyramids.envs.encodings.base import (
    ActionCodec,
    FloatArray,
    GameCodec,
    ImageArray,
    ObservationCodec,
    OneHot,
    View,
    one_hot_names,
)
from pyramids.envs.encodings.raster import canvas, rect, text
from pyramids.games.pyramido_treasure.board import SPOTS
from pyramids.games.pyramido_treasure.game import TreasureState
from pyramids.games.pyramido_treasure.moves import (
    GIVE,
    NAME,
    POKER,
    SLIDE,
    TreasureMove,
    give_move,
    name_move,
    poker_move,
    slide_move,
)
from pyramids.games.pyramido_treasure.phases import PHASE_NAMES
from pyramids.games.pyramido_treasure.treasures import (
    CARD_BY_NAME,
    CARD_NAMES,
    DECKS,
    N_CARD_TYPES,
    N_TREASURES,
    TOKEN_BY_NAME,
    TOKEN_NAMES,
    TREASURE_CARD_TYPES,
    TREASURES,
    card_points,
    card_treasure,
    is_treasure_card,
)

PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(N_TREASURES), 2))
_PAIR_INDEX = {pair: k for k, pair in enumerate(PAIRS)}
NAME_BASE = SPOTS
POKER_BASE = NAME_BASE + len(PAIRS)
_TREASURE_INDEX = {t.name: i for i, t in enumerate(TREASURES)}
_PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}
_RECENCY = 500.0
_RECENCY32, _ONE32 = np.float32(_RECENCY), np.float32(1.0)
#: plies from here on are not all whole float32 numbers (see ``_write_spots``)
_FLOAT32_EXACT = 1 << 24
#: points of every treasure card of the three decks: no score can exceed it
TOTAL_POINTS = sum(card_points(c) for deck in DECKS for c in deck)


class TreasureActions(ActionCodec):
    """Slides, then danger pairs, poker challenges and gifts (see the module table)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.give_base = POKER_BASE + N_TREASURES * players
        self.num_actions = self.give_base + TREASURE_CARD_TYPES * players
        self._ids: dict[Hashable, int] | None = None

    def encode(self, state: State[Any], move: Hashable) -> int:
        if not isinstance(move, TreasureMove):
            raise ValueError(f"{move!r} is not a treasure-hunt move")
        n = self.players
        kind = move.kind
        if kind == SLIDE and 0 <= move.spot < SPOTS and move == slide_move(move.spot):
            return move.spot
        if kind == NAME and (move.treasure_a, move.treasure_b) in _PAIR_INDEX:
            return NAME_BASE + _PAIR_INDEX[(move.treasure_a, move.treasure_b)]
        if kind == POKER and 0 <= move.opponent < n and 0 <= move.treasure < N_TREASURES:
            return POKER_BASE + N_TREASURES * move.opponent + move.treasure
        if kind == GIVE and 0 <= move.card < TREASURE_CARD_TYPES and 0 <= move.to < n:
            return self.give_base + n * move.card + move.to
        raise ValueError(f"{move!r} has no action id")

    def _id_table(self) -> Mapping[Hashable, int]:
        if self._ids is None:
            self._ids = {self._move(a): a for a in range(self.num_actions)}
        return self._ids

    def decode(self, state: State[Any], action: int) -> Hashable:
        return self._move(action)

    def _move(self, action: int) -> TreasureMove:
        """The move of an id; the numbering needs no state."""
        action = self.check_action(action)
        if action < NAME_BASE:
            return slide_move(action)
        if action < POKER_BASE:
            return name_move(*PAIRS[action - NAME_BASE])
        if action < self.give_base:
            return poker_move(*divmod(action - POKER_BASE, N_TREASURES))
        return give_move(*divmod(action - self.give_base, self.players))

    def describe(self, action: int) -> str:
        move = self._move(action)
        kind = move.kind
        if kind == SLIDE:
            return f"slide box spot {'abcdefgh'[move.spot % 8]}{move.spot // 8 + 1}"
        if kind == NAME:
            return f"name {TREASURES[move.treasure_a].name} and {TREASURES[move.treasure_b].name}"
        if kind == POKER:
            return f"challenge seat {move.opponent} on {TREASURES[move.treasure].name}"
        return f"give {CARD_NAMES[move.card]} to seat {move.to}"


class TreasureObservations(ObservationCodec):
    """The view as a vector (layout in the module docstring)."""

    def __init__(self, players: int) -> None:
        self.players = players
        n = players
        size = (
            SPOTS * 15
            + 12 * N_TREASURES
            + len(PHASE_NAMES)
            + N_CARD_TYPES
            + 3 * n
            + 2 * N_TREASURES
            + N_CARD_TYPES
            + n
            + 3
            + 3
            + N_CARD_TYPES
            + n * N_CARD_TYPES
            + n
        )
        self.shape = (size,)
        #: where the phase's one-hot and the decks' part start
        self._flags_at = 15 * SPOTS + N_TREASURES * N_TREASURES
        self._cards_at = self._flags_at + (
            len(PHASE_NAMES) + N_CARD_TYPES + 3 * n + 2 * N_TREASURES + N_CARD_TYPES + n + 3
        )
        #: per observer seat, its last observation (see ``encode_state``)
        self._seen: dict[int, _Seen] = {}
        self._ages = np.empty(SPOTS, dtype=np.float32)

    def index_names(self) -> list[str]:
        n = self.players
        seats = [f"seat+{k}" for k in range(n)]
        treasures = [t.name for t in TREASURES]
        names: list[str] = []
        for spot in range(SPOTS):
            names += one_hot_names(f"spot[{spot}].token", TOKEN_NAMES)
            names += [f"spot[{spot}].gap", f"spot[{spot}].revealed_ago"]
        for field in range(N_TREASURES):
            names += one_hot_names(f"field[{field}].treasure", treasures)
        names += one_hot_names("phase", PHASE_NAMES)
        names += one_hot_names("search.card", CARD_NAMES)
        names += [f"{seat}.owns_search" for seat in seats]
        names += [f"{seat}.to_move" for seat in seats]
        names += [f"{seat}.eliminated" for seat in seats]
        names += [f"event.named[{t}]" for t in treasures]
        names += [f"event.revealed[{t}]" for t in treasures]
        names += [f"event.may_give[{c}]" for c in CARD_NAMES]
        names += [f"{seat}.involved" for seat in seats]
        names += one_hot_names("deck", range(1, 4))
        names += [f"deck[{d + 1}].left" for d in range(len(DECKS))]
        names += [f"deck_left[{c}]" for c in CARD_NAMES]
        for seat in seats:
            names += [f"{seat}.hand[{c}]" for c in CARD_NAMES]
        return names + [f"{seat}.score" for seat in seats]

    def encode(self, view: View) -> FloatArray:
        n = self.players
        me = view["viewer"] or 0
        order = [(me + k) % n for k in range(n)]
        out = OneHot(self.shape[0])
        ply = view["ply"]
        revealed = {r["index"]: r for r in view["revealed"]}
        gap = view["visible"]["index"]
        for s in range(SPOTS):
            r = revealed.get(s)
            if r is None:
                out.one_hot(None, 13)
                out.flag(s == gap)
                out.flag(True)  # never revealed: as long ago as can be
            else:
                out.one_hot(TOKEN_BY_NAME[r["token"]], 13)
                out.flag(s == gap)
                out.scalar(ply - r["ply"], _RECENCY)
        for field in view["fields"]:
            treasure = field["treasure"]
            out.one_hot(None if treasure is None else _TREASURE_INDEX[treasure], N_TREASURES)
        out.one_hot(PHASE_NAMES.index(view["phase"]), len(PHASE_NAMES))
        search = view["search"]
        out.one_hot(None if search is None else CARD_BY_NAME[search["card"]], N_CARD_TYPES)
        owner = None if search is None else search["owner"]
        for seat in order:
            out.flag(seat == owner)
        for seat in order:
            out.flag(seat == view["current_player"])
        for seat in order:
            out.flag(bool(view["eliminated"][seat]))
        event = view["event"] or {}
        named = set(event.get("named", ()))
        if "treasure" in event:
            named.add(event["treasure"])
        if search is not None and "treasure" in search:
            named.add(search["treasure"])
        out.flags({_TREASURE_INDEX[t] for t in named}, N_TREASURES)
        out.flags({_TREASURE_INDEX[t] for t in event.get("revealed", ())}, N_TREASURES)
        out.flags({CARD_BY_NAME[c] for c in event.get("may_give", ())}, N_CARD_TYPES)
        involved: set[int] = set(event.get("givers", ())) | set(event.get("to", ()) or ())
        for key in ("neighbour", "opponent", "challenger"):
            if isinstance(event.get(key), int):
                involved.add(event[key])
        for seat in order:
            out.flag(seat in involved)
        out.one_hot(int(view["deck"]) - 1, 3)
        for d, left in enumerate(view["decks_left"]):
            out.scalar(left, len(DECKS[d]))
        out.counts([CARD_BY_NAME[name] for name in view["deck_left"]], N_CARD_TYPES, 4)
        for seat in order:
            out.counts([CARD_BY_NAME[name] for name in view["hands"][seat]], N_CARD_TYPES, 4)
        for seat in order:
            out.scalar(view["scores"][seat], TOTAL_POINTS)
        return out.done()

    def encode_state(self, state: State[Any], seat: int | None) -> FloatArray:
        """The same vector from the state's public accessors, without building the view.

        Why incremental: an adapter observes after every step, and a step
        changes little: a slide reveals one spot and moves the gap, and only
        now and then is a card taken or a phase entered. So each observer seat
        keeps the vector it was last given (:class:`_Seen`) and what each part
        was written from, and rewrites a part only when its source changed:

        * the spots: the reveals since the last observation come from
          :meth:`TreasureState.reveals_since` (one or two, not the history);
          a spot's token never changes once shown. The recency of all 48
          spots changes every ply and is three array operations over the
          plies of their last reveals (never revealed: minus infinity, so
          "as long ago as can be", 1);
        * the fields, from the known tokens (they change only with a new one);
        * the phase, the card sought, the seats' flags and the event: rebuilt
          as a list of positions of ones, written only when the list differs;
        * the current deck's rest (a tuple remembered per deck position, see
          :meth:`TreasureState.deck_left`) and each hand (a tuple replaced
          when a card is taken) by identity; the scores by value.

        Every check compares with the state itself (identity of persistent
        tuples and nodes, or values), never with "the next state of the same
        game", so interleaved games, copies and guesses stay exact. The
        vector returned is a copy: callers may keep or change it.
        """
        if not isinstance(state, TreasureState):
            return super().encode_state(state, seat)
        me = seat or 0
        seen = self._seen.get(me)
        if seen is None:
            seen = self._seen[me] = _Seen(self.shape[0], self.players)
        out = seen.out
        self._write_spots(state, seen)
        self._write_fields(state, seen)
        self._write_flags(state, seen, me)
        self._write_cards(state, seen, me)
        return out.copy()

    def _write_spots(self, state: TreasureState, seen: _Seen) -> None:
        """Tokens, gap and recency of the 48 spots (the module docstring's first part)."""
        out, last = seen.out, seen.last
        mark, new = state.reveals_since(seen.mark)
        if new is None:  # not this history's recent past: start from nothing revealed
            out[: 15 * SPOTS] = 0.0
            last.fill(-np.inf)
            seen.gap = -1
            new = [(ply, spot) for spot, ply in enumerate(state.last_reveals()) if ply >= 0]
        for ply, spot in new:
            out[15 * spot + state.known_token(spot)] = 1.0
            last[spot] = ply
        seen.mark = mark
        gap = state.empty_spot
        if gap != seen.gap:
            if seen.gap >= 0:
                out[15 * seen.gap + 13] = 0.0
            out[15 * gap + 13] = 1.0
            seen.gap = gap
        # recency: (ply - last reveal) / 500, capped at 1; a reveal is never later than now.
        # In float32 throughout, with NumPy scalars (Python floats cost a conversion per
        # call, and a float64 result a cast into the vector): the difference of two
        # whole numbers below 2**24 is exact, and one float32 division rounds as the
        # float64 division rounded to float32 would (53 >= 2 * 24 + 2 bits; checked for
        # every age below 2**24)
        ply = state.ply
        if ply >= _FLOAT32_EXACT:  # float32 no longer holds every ply: the float64 formula
            when = np.array(state.last_reveals(), dtype=np.float64)
            when[when < 0] = -np.inf
            seen.recency[...] = np.minimum((ply - when) / _RECENCY, 1.0)
            return
        ages = self._ages
        np.subtract(np.float32(ply), last, out=ages)
        np.divide(ages, _RECENCY32, out=ages)
        np.minimum(ages, _ONE32, out=ages)
        seen.recency[...] = ages

    def _write_fields(self, state: TreasureState, seen: _Seen) -> None:
        """Per field its known treasure: fixed, or known with the first treasure shown there."""
        key = state.known_tokens() if state.variant["shuffle_fields"] else ()
        if key == seen.fields:
            return
        out, base = seen.out, 15 * SPOTS
        out[base : base + N_TREASURES * N_TREASURES] = 0.0
        for f, treasure in enumerate(state.field_treasures()):
            if treasure is not None:
                out[base + N_TREASURES * f + treasure] = 1.0
        seen.fields = key

    def _write_flags(self, state: TreasureState, seen: _Seen, me: int) -> None:
        """Phase, card sought, the seats' flags, the event and the deck number."""
        n = self.players
        ones: list[int] = []
        base = self._flags_at
        phase = state.phase
        ones.append(base + _PHASE_INDEX[phase])
        base += len(PHASE_NAMES)
        card = state.sought
        over = phase == "over"
        if not over:
            ones.append(base + card)
        base += N_CARD_TYPES
        owner = None if over else state.owner
        mover = state.current_player
        for k in range(n):
            q = (me + k) % n
            if q == owner:
                ones.append(base + k)
            if q == mover:
                ones.append(base + n + k)
            if state.is_out(q):
                ones.append(base + 2 * n + k)
        base += 3 * n
        # the event's four groups: outside events (most plies) only the card sought's
        # treasure, and the other three are skipped (building them empty costs microseconds)
        event = state.event_view()
        named: set[str] = set()
        if event is not None:
            named.update(event.get("named", ()))
            if "treasure" in event:
                named.add(event["treasure"])
        if not over and is_treasure_card(card):
            named.add(TREASURES[card_treasure(card)].name)
        ones += [base + _TREASURE_INDEX[t] for t in named]
        revealed_at = base + N_TREASURES
        give_at = revealed_at + N_TREASURES
        seats_at = give_at + N_CARD_TYPES
        if event is not None:
            ones += [revealed_at + _TREASURE_INDEX[t] for t in set(event.get("revealed", ()))]
            ones += [give_at + CARD_BY_NAME[c] for c in set(event.get("may_give", ()))]
            involved: set[int] = set(event.get("givers", ())) | set(event.get("to", ()) or ())
            for key in ("neighbour", "opponent", "challenger"):
                if isinstance(event.get(key), int):
                    involved.add(event[key])
            ones += [seats_at + k for k in range(n) if (me + k) % n in involved]
        base = seats_at + n
        ones.append(base + state.deck_number - 1)
        if ones != seen.flags:
            out = seen.out
            out[seen.flags] = 0.0
            out[ones] = 1.0
            seen.flags = ones

    def _write_cards(self, state: TreasureState, seen: _Seen, me: int) -> None:
        """Decks left, the current deck's rest, every hand's counts, and the scores."""
        n, out = self.players, seen.out
        base = self._cards_at
        # the three counts by value: an empty rest is always the one empty tuple, whatever
        # the later decks hold (a variant without the game-over card has one card fewer)
        left, sizes = state.deck_left(), state.decks_left()
        if left is not seen.deck_left or sizes != seen.decks_left:
            out[base : base + 3 + N_CARD_TYPES] = 0.0
            for d, count in enumerate(sizes):
                out[base + d] = min(count / len(DECKS[d]), 1.0)
            types, counts = _card_counts(left)
            out[[base + 3 + c for c in types]] = counts
            seen.deck_left, seen.decks_left = left, sizes
        base += 3 + N_CARD_TYPES
        hands = seen.hands
        for k in range(n):
            hand = state.hand((me + k) % n)
            if hand is not hands[k]:
                at = base + N_CARD_TYPES * k
                out[at : at + N_CARD_TYPES] = 0.0
                types, counts = _card_counts(hand)
                out[[at + c for c in types]] = counts
                hands[k] = hand
        base += n * N_CARD_TYPES
        scores = state.scores()
        if scores != seen.scores:
            for k in range(n):
                out[base + k] = min(max(scores[(me + k) % n] / TOTAL_POINTS, 0.0), 1.0)
            seen.scores = scores


class _Seen:
    """The last observation given to one observer seat, and what each part was written from."""

    __slots__ = (
        "deck_left",
        "decks_left",
        "fields",
        "flags",
        "gap",
        "hands",
        "last",
        "mark",
        "out",
        "recency",
        "scores",
    )

    def __init__(self, size: int, players: int) -> None:
        self.out: FloatArray = np.zeros(size, dtype=np.float32)
        #: the recency values of the 48 spots, a strided view into ``out``
        self.recency = self.out[14 : 15 * SPOTS : 15]
        #: the reveal history's mark as last written (None: the start, nothing revealed)
        self.mark: object = None
        #: per spot, the ply of its last reveal written; minus infinity: never
        self.last = np.full(SPOTS, -np.inf, dtype=np.float32)
        self.gap = -1
        self.fields: tuple[int, ...] | None = None
        self.flags: list[int] = []
        self.deck_left: tuple[int, ...] | None = None
        self.decks_left: list[int] = []
        self.hands: list[tuple[int, ...] | None] = [None] * players
        self.scores: list[int] = []

    def __getstate__(self) -> dict[str, Any]:
        """Every slot but ``recency``, which must stay a view into ``out``.

        Pickle and ``copy.deepcopy`` would otherwise turn the strided view
        into an array of its own, and the copy's recency values would never
        reach its observations.
        """
        return {name: getattr(self, name) for name in self.__slots__ if name != "recency"}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)
        self.recency = self.out[14 : 15 * SPOTS : 15]


#: cards (a hand or a deck's rest, as a tuple) -> (card types in it, their counts / 4)
_COUNTS: dict[tuple[int, ...], tuple[list[int], list[float]]] = {}
_COUNTS_MAX = 1 << 14


def _card_counts(cards: tuple[int, ...]) -> tuple[list[int], list[float]]:
    """The card types of ``cards`` and their counts / 4, remembered per tuple of cards.

    Why: the observation counts the current deck's rest and every hand at
    every step, and they change only when a card is taken: a dictionary
    look-up costs less than counting 40 cards again. No card type is in the
    decks more than twice, so count / 4 never needs a clip.
    """
    hit = _COUNTS.get(cards)
    if hit is None:
        counts: dict[int, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        hit = (list(counts), [k * 0.25 for k in counts.values()])
        if len(_COUNTS) >= _COUNTS_MAX:
            _COUNTS.clear()
        _COUNTS[cards] = hit
    return hit


# -- picture ---------------------------------------------------------------

_PYRAMID = {"R": (200, 50, 40), "Y": (230, 190, 50), "B": (50, 90, 190)}
_SAND = (225, 200, 150)


def raster(view: View) -> ImageArray:
    """The box as the table sees it now: pyramids by colour, the gap with its token.

    A blank token shows as ``-``; a treasure as its number (1 = sphinx .. 12 =
    cat, the order of ``treasures.py``) on gold.
    """
    rows, cols = int(view["rows"]), int(view["cols"])
    cell = 22
    img = canvas(rows * cell + 4, cols * cell + 4, _SAND)
    for r, line in enumerate(view["board"]):
        for c, ch in enumerate(line):
            top, left = 2 + r * cell, 2 + c * cell
            if ch in _PYRAMID:
                rect(img, top + 2, left + 2, cell - 4, cell - 4, _PYRAMID[ch])
            else:
                token = view["visible"]["token"]
                if token == "blank":
                    text(img, top + 6, left + 7, "-", (40, 30, 20), scale=2)
                else:  # a treasure: its number 1..12 (treasures.py order) on gold
                    rect(img, top + 2, left + 1, cell - 4, cell - 2, (240, 200, 60))
                    text(img, top + 6, left + 2, str(TOKEN_BY_NAME[token]), (40, 30, 20))
    return img


def make_codec(sample: State[Any]) -> GameCodec:
    """The codec for the player count and variant of ``sample``."""
    return GameCodec(
        game_id="pyramido-treasure",
        players=sample.players,
        variant=dict(sample.variant),
        actions=TreasureActions(sample.players),
        observations=TreasureObservations(sample.players),
        raster=raster,
    )
