"""Pirámides, the card-pyramid solitaire (RULINGS.md §4), and its family of layouts.

The state is a handful of ints and two shared tuples, so that search (the
solver, MCTS) can copy it cheaply: ``removed`` and ``free`` are bitmasks over
the layout's positions, the stock is the deal's tuple plus a read pointer.

The ``layout`` option swaps the geometry (``pyramid``, ``tripeaks``, ``golf``:
see :mod:`.layout`) and ``wrap`` the rank adjacency; the rules of play are the
same code for all of them. Only the pyramid has rounds and jokers; golf keeps
its own classic score (see ``docs/rules/golf.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple

from pyramids.engine import names
from pyramids.engine.errors import IllegalMove, NotationError, RecordError
from pyramids.engine.rng import Rng
from pyramids.engine.state import Game, State, _check_names
from pyramids.engine.variant import Option, VariantValue
from pyramids.games.lazy import LazySetup, plain_setup
from pyramids.games.piramides.cards import (
    CARD_BY_NAME,
    CARD_NAMES,
    DECK_SIZE,
    JOKER,
    NEXT_RANKS,
    NEXT_RANKS_NO_WRAP,
    card_label,
    card_name,
    parse_card,
    shuffled_deck,
)
from pyramids.games.piramides.layout import LAYOUTS, PYRAMID, Layout

#: the layouts' names as players see them (name kind ``layout``, keyed by option value)
names.register("layout", {name: name for name in LAYOUTS})

RUN_STEP = 5
STOCK_PENALTY = 5
JOKER_PENALTY = 50
CLEAR_BONUS = 50
MAX_ROUNDS = 5


class PiramidesMove(NamedTuple):
    """A move: ``kind`` is ``"play"`` (with the pyramid ``pos``), ``"draw"`` or ``"joker"``."""

    kind: str
    pos: int = -1


DRAW = PiramidesMove("draw")
USE_JOKER = PiramidesMove("joker")
PLAY: tuple[PiramidesMove, ...] = tuple(
    PiramidesMove("play", i) for i in range(max(lay.size for lay in LAYOUTS.values()))
)


#: card -> index into a round's table of fitting positions (13 = the joker on the waste)
_RANK_INDEX: tuple[int, ...] = (*(c % 13 for c in range(DECK_SIZE)), 13)

#: legal move lists by (fitting positions, stock left, joker left); see ``legal_moves``
_MOVE_LISTS: dict[int, tuple[PiramidesMove, ...]] = {}
_MOVE_LISTS_MAX = 1 << 16


def _move_list(key: int) -> tuple[PiramidesMove, ...]:
    """The moves of a key ``fits << 2 | stock << 1 | joker``, built once and kept.

    Why: a position's legal moves depend only on those three facts, and the
    same few hundred combinations come back all the time, so a dict lookup
    replaces a loop over the bits. The table is bounded (cleared when full)
    so that long runs over many layouts cannot grow it without end.
    """
    moves = []
    fits = key >> 2
    while fits:
        low = fits & -fits
        moves.append(PLAY[low.bit_length() - 1])
        fits ^= low
    if key & 2:
        moves.append(DRAW)
    if key & 1:
        moves.append(USE_JOKER)
    if len(_MOVE_LISTS) >= _MOVE_LISTS_MAX:
        _MOVE_LISTS.clear()
    out = _MOVE_LISTS[key] = tuple(moves)
    return out


#: card -> its rank index (0..12), and position -> its bit, for :func:`_fit_table`
_RANK13: tuple[int, ...] = tuple(c % 13 for c in range(DECK_SIZE))
_BIT: tuple[int, ...] = tuple(1 << i for i in range(64))


def _neighbours(follow: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Per rank, the two ranks that may follow it (13, an empty slot, where there is one)."""
    out = []
    for r in range(13):
        ranks = [t for t in range(13) if follow[r] >> t & 1]
        ranks += [13] * (2 - len(ranks))
        out.append((ranks[0], ranks[1]))
    return tuple(out)


#: the rank neighbours of each adjacency table (with and without the wrap)
_NEIGHBOURS: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {
    NEXT_RANKS: _neighbours(NEXT_RANKS),
    NEXT_RANKS_NO_WRAP: _neighbours(NEXT_RANKS_NO_WRAP),
}


def _fit_table(cards: Sequence[int], follow: tuple[int, ...], full: int) -> tuple[int, ...]:
    """Per waste rank (index 13: the joker), the positions whose card may go on it.

    Built once per deal (one pass over the layout's cards), so that the cards
    that fit on the waste are ``free & fit[rank]``: one AND instead of a loop
    over the free cards at every move (the solver does the same).
    """
    by_rank = [0] * 14
    bit = _BIT
    rank = _RANK13
    for i, card in enumerate(cards):
        by_rank[rank[card]] |= bit[i]
    return (*[by_rank[a] | by_rank[b] for a, b in _NEIGHBOURS[follow]], full)


def _lazy_deals(dealt: tuple[tuple[int, ...], ...], rng: Rng, rounds: int) -> LazySetup:
    """The setup ``{"deals": [...]}`` of a game whose later rounds are not shuffled yet.

    Why: most games end in their first round, yet the setup names every
    round's deal. Shuffling four more decks and writing 260 card names for
    each new game (and for every guess of a search) was most of a random
    game's time. The setup holds the rounds dealt so far and a copy of the
    stream at the next round; the deals are shuffled and named only when
    someone reads the setup (a record, a replay), and then they are exactly
    the deals the state itself will shuffle from that same stream when it
    reaches those rounds. (A ``partial``, not a closure: states are pickled.)
    """
    return LazySetup(partial(_all_deals, dealt, rng, rounds))


def _all_deals(dealt: tuple[tuple[int, ...], ...], rng: Rng, rounds: int) -> dict[str, Any]:
    stream = rng.copy()
    deals = [*dealt]
    while len(deals) < rounds:
        deals.append(tuple(shuffled_deck(stream)))
    return {"deals": [[CARD_NAMES[c] for c in d] for d in deals]}


#: options added with the layouts, and their defaults (see ``view``)
_LATER_OPTIONS: dict[str, VariantValue] = {"layout": PYRAMID.name, "wrap": True}


def layout_of(variant: Mapping[str, VariantValue]) -> Layout:
    """The layout a variant plays (``pyramid`` when the option is absent)."""
    return LAYOUTS[str(variant.get("layout", PYRAMID.name))]


def rounds_of(variant: Mapping[str, VariantValue]) -> int:
    """Deals in a game: ``rounds`` for the pyramid; tripeaks and golf are one deal (a Ruling)."""
    return int(variant["rounds"]) if layout_of(variant) is PYRAMID else 1


def jokers_of(variant: Mapping[str, VariantValue]) -> int:
    """Jokers per round: ``jokers_per_round`` for the pyramid; none in tripeaks and golf."""
    return int(variant["jokers_per_round"]) if layout_of(variant) is PYRAMID else 0


def _round_size(variant: Mapping[str, VariantValue]) -> tuple[int, int, int, int]:
    """Positions of the layout, cards of the stock, jokers per round, and rounds."""
    positions = layout_of(variant).size
    # one card of the deck starts the waste
    return positions, DECK_SIZE - positions - 1, jokers_of(variant), rounds_of(variant)


class RoundScore(NamedTuple):
    """The score of one round, part by part (shown at the end of a game)."""

    cards: int  # points for cards played (5·k for the k-th step of a run)
    stock_cards: int  # stock cards turned (each costs 5)
    jokers: int  # jokers used (each costs 50)
    cleared: bool  # pyramid cleared (+50)
    #: golf only: the round's points under golf scoring (replaces the formula below)
    golf: int | None = None

    @property
    def total(self) -> int:
        """Points of the round: cards − 5·stock − 50·jokers + 50 if cleared."""
        if self.golf is not None:
            return self.golf
        return (
            self.cards
            - STOCK_PENALTY * self.stock_cards
            - JOKER_PENALTY * self.jokers
            + (CLEAR_BONUS if self.cleared else 0)
        )


class PiramidesState(State[PiramidesMove]):
    """A position of Pirámides."""

    __slots__ = (
        "_card_pts",
        "_cards",
        "_deals",
        "_finished",
        "_fit",
        "_free",
        "_golf",
        "_hide",
        "_jokers_left",
        "_jokers_used",
        "_next",
        "_over",
        "_removed",
        "_round",
        "_rounds",
        "_run",
        "_stock",
        "_stock_drawn",
        "_stock_pos",
        "_waste",
        "_waste_size",
        "layout",
    )

    layout: Layout
    #: the deals of the rounds reached so far (later ones are shuffled from the
    #: state's stream when reached: see :func:`_lazy_deals`)
    _deals: tuple[tuple[int, ...], ...]
    #: rounds in the game (``len(_deals)`` once every round is dealt)
    _rounds: int
    _cards: tuple[int, ...]
    #: per waste rank (13: joker), the positions whose card fits (:func:`_fit_table`)
    _fit: tuple[int, ...]
    _stock: tuple[int, ...]
    _stock_drawn: int
    _finished: tuple[RoundScore, ...]
    _over: bool
    #: rank adjacency table (with or without the King–Ace wrap)
    _next: tuple[int, ...]
    #: covered cards are face down (variant ``face_down``, or the tripeaks layout)
    _hide: bool
    #: golf scoring instead of runs
    _golf: bool

    # -- set-up -----------------------------------------------------------

    def _start_round(self, r: int) -> None:
        if r == len(self._deals):
            # reached for the first time: shuffled now from the state's stream,
            # which is where the eager setup would have shuffled it (same cards)
            self._deals = (*self._deals, tuple(shuffled_deck(self._rng)))
        deal = self._deals[r]
        layout = self.layout
        n = layout.size
        self._round = r
        self._cards = cards = deal[:n]
        self._fit = _fit_table(cards, self._next, layout.full_mask)
        self._waste = deal[n]
        self._waste_size = 1
        self._stock = deal[n + 1 :]
        self._stock_pos = 0
        self._removed = 0
        self._free = layout.initially_free
        self._run = 0
        self._jokers_left = jokers_of(self.variant)
        self._jokers_used = 0
        self._card_pts = 0
        self._stock_drawn = 0

    # -- the contract -----------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._over else 0

    @property
    def is_over(self) -> bool:
        return self._over

    def legal_moves(self) -> list[PiramidesMove]:
        if self._over:
            return []
        key = (self._free & self._fit[_RANK_INDEX[self._waste]]) << 2
        if self._stock_pos < len(self._stock):
            key |= 2
        if self._jokers_left:
            key |= 1
        moves = _MOVE_LISTS.get(key)
        return list(_move_list(key) if moves is None else moves)

    def play(self, move: PiramidesMove) -> None:
        """Play ``move``; the checks of :meth:`State.play`, with a fast path for legal moves.

        Why its own: random play and search call this millions of times, and
        the generic path (checks naming every rule, then ``_apply``) costs more
        than the move. A move that is one of the prebuilt values and legal here
        is applied at once (the same steps as :meth:`_apply`, inlined); anything
        else takes the generic path, which raises the same :class:`IllegalMove`.
        """
        if not self._over:
            if type(move) is PiramidesMove and move[0] == "play":
                i = move[1]
                if (
                    type(i) is int
                    and i >= 0
                    and (self._free & self._fit[_RANK_INDEX[self._waste]]) >> i & 1
                ):
                    self._log = (self._log, move)
                    self._ply += 1
                    bit = 1 << i
                    self._removed = removed = self._removed | bit
                    free = self._free & ~bit
                    for p_bit, p_covered_by in self.layout.uncovers[i]:
                        if not p_covered_by & ~removed:
                            free |= p_bit
                    self._free = free
                    self._waste = card = self._cards[i]
                    self._waste_size += 1
                    self._run = run = self._run + 1
                    self._card_pts += RUN_STEP * run
                    if removed == self.layout.full_mask:
                        self._end_round(cleared=True)
                    elif (
                        not self._jokers_left
                        and self._stock_pos >= len(self._stock)
                        and not free & self._fit[_RANK_INDEX[card]]
                    ):
                        self._end_round(cleared=False)
                    return
            elif move is DRAW:
                if self._stock_pos < len(self._stock):
                    self._log = (self._log, move)
                    self._ply += 1
                    self._waste = card = self._stock[self._stock_pos]
                    self._stock_pos += 1
                    self._waste_size += 1
                    self._stock_drawn += 1
                    self._run = 0
                    if (
                        not self._jokers_left
                        and self._stock_pos >= len(self._stock)
                        and not self._free & self._fit[_RANK_INDEX[card]]
                    ):
                        self._end_round(cleared=False)
                    return
            elif move is USE_JOKER and self._jokers_left:
                self._log = (self._log, move)
                self._ply += 1
                self._apply(move)
                return
        State.play(self, move)

    def _check(self, move: PiramidesMove) -> None:
        kind = move.kind if isinstance(move, PiramidesMove) else None
        if kind == "play":
            i = move.pos
            if not 0 <= i < self.layout.size:
                raise IllegalMove(
                    "no-such-position",
                    "there is no {layout} position {pos}",
                    layout=self.layout.name,
                    pos=i if type(i) is int else repr(i),
                )
            where = self.layout.labels[i]
            if self._removed >> i & 1:
                raise IllegalMove(
                    "already-played", "the card at {pos} has already been played", pos=where
                )
            if not self._free >> i & 1:
                if self._golf:
                    raise IllegalMove(
                        "not-free",
                        "the card at {pos} is still covered: a card is free only when "
                        "the cards dealt on it in its column are gone",
                        pos=where,
                    )
                raise IllegalMove(
                    "not-free",
                    "the card at {pos} is still covered: a card is free only when "
                    "both cards of the row below that overlap it are gone",
                    pos=where,
                )
            if (
                self._waste != JOKER
                and not self._next[self._waste % 13] >> (self._cards[i] % 13) & 1
            ):
                card, waste = card_label(self._cards[i]), card_label(self._waste)
                if self._next is NEXT_RANKS:
                    raise IllegalMove(
                        "not-adjacent-rank",
                        "{card} cannot go on {waste}: a free card must be one rank above or "
                        "below the waste card (Ace is next to both 2 and King)",
                        card=card,
                        waste=waste,
                    )
                raise IllegalMove(
                    "not-adjacent-rank",
                    "{card} cannot go on {waste}: a free card must be one rank above or "
                    "below the waste card (no wrap: Ace and King are not next to each other)",
                    card=card,
                    waste=waste,
                )
        elif kind == "draw":
            if self._stock_pos >= len(self._stock):
                raise IllegalMove("stock-empty", "the stock is empty: there is no card to turn")
        elif kind == "joker":
            if not self._jokers_left:
                raise IllegalMove(
                    "no-joker",
                    "no joker left this round ({count} per round)",
                    count=jokers_of(self.variant),
                )
        else:
            raise IllegalMove("not-a-move", "{move} is not a Pirámides move", move=repr(move))

    def _apply(self, move: PiramidesMove) -> None:
        kind = move[0]
        if kind == "play":
            i = move[1]
            bit = 1 << i
            self._removed = removed = self._removed | bit
            free = self._free & ~bit
            for p_bit, p_covered_by in self.layout.uncovers[i]:
                if not p_covered_by & ~removed:
                    free |= p_bit
            self._free = free
            self._waste = self._cards[i]
            self._waste_size += 1
            self._run += 1
            self._card_pts += RUN_STEP * self._run
            if removed == self.layout.full_mask:
                self._end_round(cleared=True)
                return
        elif kind == "draw":
            self._waste = self._stock[self._stock_pos]
            self._stock_pos += 1
            self._waste_size += 1
            self._stock_drawn += 1
            self._run = 0
        else:
            self._waste = JOKER
            self._waste_size += 1
            self._jokers_left -= 1
            self._jokers_used += 1
            self._run += 1
        if (
            not self._jokers_left
            and self._stock_pos >= len(self._stock)
            and not self._free & self._fit[_RANK_INDEX[self._waste]]
        ):
            self._end_round(cleared=False)

    def _current_round_score(self, cleared: bool = False) -> RoundScore:
        golf = None
        if self._golf:
            # Classic golf counts strokes (lower is better); negated so higher wins here.
            left = self.layout.size - self._removed.bit_count()
            golf = self.stock_left if cleared else -left
        return RoundScore(self._card_pts, self._stock_drawn, self._jokers_used, cleared, golf)

    def _end_round(self, cleared: bool) -> None:
        self._finished = (*self._finished, self._current_round_score(cleared))
        if cleared and self._round + 1 < self._rounds:
            self._start_round(self._round + 1)
        else:
            self._over = True

    def copy(self) -> PiramidesState:
        other = PiramidesState.__new__(PiramidesState)
        self._copy_base(other)
        other.layout = self.layout
        other._next = self._next
        other._hide = self._hide
        other._golf = self._golf
        other._deals = self._deals
        other._rounds = self._rounds
        other._cards = self._cards
        other._fit = self._fit
        other._stock = self._stock
        other._round = self._round
        other._waste = self._waste
        other._waste_size = self._waste_size
        other._stock_pos = self._stock_pos
        other._removed = self._removed
        other._free = self._free
        other._run = self._run
        other._jokers_left = self._jokers_left
        other._jokers_used = self._jokers_used
        other._card_pts = self._card_pts
        other._stock_drawn = self._stock_drawn
        other._finished = self._finished
        other._over = self._over
        return other

    def setup(self) -> Mapping[str, Any]:
        """The explicit setup, every round's deal named (later rounds shuffled now if need be)."""
        return plain_setup(self._setup)

    def round_scores(self) -> list[RoundScore]:
        """Every round played so far, part by part (the current one last, if unfinished)."""
        rounds = list(self._finished)
        if not self._over:
            rounds.append(self._current_round_score())
        return rounds

    def scores(self) -> list[int]:
        # the sum of round_scores() totals, without building the current round's RoundScore
        # (the adapters ask for the score before and after every step)
        total = sum(r.total for r in self._finished)
        if not self._over:
            if self._golf:
                total -= self.layout.size - self._removed.bit_count()
            else:
                total += (
                    self._card_pts
                    - STOCK_PENALTY * self._stock_drawn
                    - JOKER_PENALTY * self._jokers_used
                )
        return [total]

    # -- read-only accessors for faces and search ----------------------------

    @property
    def round(self) -> int:
        """Current round, 1-based (the last round played once the game is over)."""
        return self._round + 1

    @property
    def waste(self) -> int:
        """The card on top of the waste (:data:`JOKER` after a joker)."""
        return self._waste

    @property
    def stock_left(self) -> int:
        """Cards still in the stock."""
        return len(self._stock) - self._stock_pos

    @property
    def run(self) -> int:
        """Steps of the current run (the next card scores ``5 * (run + 1)``)."""
        return self._run

    @property
    def jokers_left(self) -> int:
        """Jokers still usable this round."""
        return self._jokers_left

    @property
    def removed_mask(self) -> int:
        """Bitmask of pyramid positions already played this round."""
        return self._removed

    @property
    def free_mask(self) -> int:
        """Bitmask of pyramid positions free (uncovered and still there)."""
        return self._free

    @property
    def wrap(self) -> bool:
        """Whether Ace and King are next to each other (option ``wrap``)."""
        return self._next is NEXT_RANKS

    @property
    def stock_pos(self) -> int:
        """Stock cards turned so far this round."""
        return self._stock_pos

    def card_at(self, pos: int) -> int:
        """The card dealt at ``pos`` this round (face-down or not: the caller decides)."""
        return self._cards[pos]

    def stock_order(self) -> tuple[int, ...]:
        """The cards still in the stock, next first.

        Secret at the table: only for exact search on a full-knowledge state
        (a solver, or a copy made by :meth:`determinize`), never for a face.
        """
        return self._stock[self._stock_pos :]

    def face_up(self, pos: int) -> bool:
        """Whether the card at ``pos`` shows its face (always, unless covered cards hide)."""
        if not self._hide:
            return True
        return bool((self._free | self._removed) >> pos & 1)

    @property
    def face_down_mask(self) -> int:
        """Bitmask of the positions still there whose card is face down (see :meth:`face_up`)."""
        if not self._hide:
            return 0
        return ~(self._free | self._removed) & self.layout.full_mask

    @property
    def layout_cards(self) -> tuple[int, ...]:
        """The cards dealt on the layout this round, by position (face-down ones too).

        For code that builds what a seat sees without a view (the adapters'
        fast observations) and masks the face-down ones itself with
        :attr:`face_down_mask`; a face must use :meth:`view`.
        """
        return self._cards

    @property
    def rounds(self) -> int:
        """Rounds the game may have (the ``rounds`` option; 1 for tripeaks and golf)."""
        return self._rounds

    # -- hidden information ---------------------------------------------------

    def view(self, player: int | None) -> dict[str, Any]:
        self._check_viewer(player)
        v = self._view_header(player)
        # The layout options show in a view only when they differ from the default,
        # so that pyramid views stay byte-identical to those from before the layouts
        # (the top-level "layout" key always names the layout).
        v["variant"] = {
            k: val
            for k, val in v["variant"].items()
            if not (k in _LATER_OPTIONS and val == _LATER_OPTIONS[k])
        }
        removed_bits, free_bits, cards = self._removed, self._free, self._cards
        # positions whose face is down (see face_up): not free and not removed
        face_down = ~(free_bits | removed_bits) if self._hide else 0
        pyramid = []
        for i, (label, row, col, x) in enumerate(self.layout.view_cells):
            removed = bool(removed_bits >> i & 1)
            cell = {
                "pos": label,
                "row": row,
                "col": col,
                "card": None if removed or face_down >> i & 1 else CARD_NAMES[cards[i]],
                "removed": removed,
                "free": bool(free_bits >> i & 1),
            }
            if x is not None:
                cell["x"] = x
            pyramid.append(cell)
        v.update(
            {
                "layout": self.layout.name,
                "round": self.round,
                "rounds": self._rounds,
                "pyramid": pyramid,
                "waste": card_name(self._waste),
                "waste_size": self._waste_size,
                "stock": self.stock_left,
                "run": self._run,
                "next_card_points": RUN_STEP * (self._run + 1),
                "jokers_left": self._jokers_left,
                "round_scores": [
                    {
                        "round": k + 1,
                        "cards": r.cards,
                        "stock_cards": r.stock_cards,
                        "jokers": r.jokers,
                        "cleared": r.cleared,
                        "total": r.total,
                    }
                    for k, r in enumerate(self.round_scores())
                ],
            }
        )
        return v

    def determinize(self, player: int | None, rng: Rng) -> PiramidesState:
        """Redeal what the player cannot know: stock order, face-down cards, later rounds.

        The unseen cards are sorted before the shuffle, so the guess depends
        only on what the player knows and ``rng``. Later rounds are not
        shuffled here: the guess gets a stream of its own (forked from
        ``rng``) and deals them when it reaches them, like any game (search
        reaches a later round in few of its guesses, and shuffling four decks
        per guess was most of the cost of a determinization).
        """
        other = self.copy()
        other._rng = rng.fork()
        n = self.layout.size
        stock_pos = self._stock_pos
        # positions whose card is face down (see face_up): not free, not removed
        hidden = ~(self._free | self._removed) & self.layout.full_mask if self._hide else 0
        if hidden:
            cards = list(self._cards)
            hidden_pos = []
            while hidden:
                low = hidden & -hidden
                i = low.bit_length() - 1
                hidden_pos.append(i)
                hidden ^= low
            unseen = [cards[i] for i in hidden_pos]
            unseen += self._stock[stock_pos:]
            unseen.sort()
            rng.shuffle(unseen)
            for k, i in enumerate(hidden_pos):
                cards[i] = unseen[k]
            other._cards = tuple(cards)
            other._fit = _fit_table(cards, self._next, self.layout.full_mask)
            rest = unseen[len(hidden_pos) :]
        else:
            rest = sorted(self._stock[stock_pos:])
            rng.shuffle(rest)
        other._stock = stock = (*self._stock[:stock_pos], *rest)
        deal = (*other._cards, self._deals[self._round][n], *stock)
        other._deals = (*self._deals[: self._round], deal)
        other._setup = _lazy_deals(other._deals, other._rng.copy(), self._rounds)
        other.seed = None
        return other


class PiramidesGame(Game[PiramidesMove]):
    """Pirámides: clear a 28-card pyramid onto the waste, one rank up or down."""

    id = "piramides"
    title = "Pirámides"
    min_players = 1
    max_players = 1
    summary = (
        "Solitaire: clear a card pyramid, one rank up or down (5 rounds); "
        "also the tripeaks and golf layouts."
    )
    options = (
        Option(
            "jokers_per_round",
            1,
            int,
            "Jokers the player may use in each round (each costs 50 points).",
            minimum=0,
            maximum=52,
        ),
        Option(
            "face_down",
            False,
            bool,
            "Only uncovered pyramid cards are face up, as in Elevator.",
        ),
        Option(
            "rounds",
            MAX_ROUNDS,
            int,
            "Rounds at most (each clear deals a new pyramid).",
            minimum=1,
            maximum=MAX_ROUNDS,
        ),
        Option(
            "layout",
            PYRAMID.name,
            str,
            "Card layout: pyramid (28 cards, 5 rounds, jokers), tripeaks (three peaks, one "
            "deal, covered cards face down) or golf (7 columns of 5, one deal, golf score). "
            "The rounds and jokers options apply to the pyramid only.",
            choices=tuple(LAYOUTS),
        ),
        Option(
            "wrap",
            True,
            bool,
            "The Ace is next to both the 2 and the King, as in the rulebook; when off, "
            "they are not adjacent (classic Golf).",
        ),
    )

    layout = PYRAMID
    #: the deal is shuffled; the stock order (and covered cards, face down) are unknown
    chance = True
    hidden_information = True

    def score_bounds(
        self, players: int, variant: Mapping[str, VariantValue]
    ) -> tuple[float, float]:
        """Every round at worst: the whole stock turned, every joker used, no card played.

        At best: one run through every card and joker (5, 10, 15, ... points)
        and the clear bonus. Golf's own score stays within both.
        """
        positions, stock, jokers, rounds = _round_size(variant)
        worst = rounds * (STOCK_PENALTY * stock + JOKER_PENALTY * jokers) + positions
        steps = positions + jokers
        best = rounds * (RUN_STEP * steps * (steps + 1) // 2 + CLEAR_BONUS)
        return -float(worst), float(best)

    def max_game_length(self, players: int, variant: Mapping[str, VariantValue]) -> int:
        """Each round, at most one move per card of the layout, stock card and joker."""
        positions, stock, jokers, rounds = _round_size(variant)
        return rounds * (positions + stock + jokers)

    def new(
        self,
        players: int | None = None,
        seed: int = 0,
        names: Sequence[str] | None = None,
        **variant: Any,
    ) -> PiramidesState:
        """A new game of ``seed``, with only its first round shuffled.

        The same game as :meth:`Game.new` gives (the deals of a seed are
        forever, and :meth:`PiramidesState.setup` names all of them): a later
        round is shuffled from the same stream when the game reaches it, and
        the setup when a record asks for it (:func:`_lazy_deals`). Why: most
        games end in their first round, and shuffling every round up front was
        most of the cost of a new game.
        """
        if players is None:
            players = self.min_players
        self.check_players(players)
        options = self.resolve_variant(variant)
        rng = Rng(seed)
        first = (tuple(shuffled_deck(rng)),)
        state = self._initial(_lazy_deals(first, rng.copy(), rounds_of(options)), first, options)
        state._rng = rng
        state.seed = seed
        state.names = _check_names(names, players)
        return state

    def _initial(
        self,
        setup: Mapping[str, Any],
        deals: tuple[tuple[int, ...], ...],
        variant: Mapping[str, VariantValue],
    ) -> PiramidesState:
        """The first position of a game from its setup and the deals shuffled so far."""
        state = PiramidesState.__new__(PiramidesState)
        state._init_base(setup, 1, variant)
        state.layout = layout_of(variant)
        state._next = NEXT_RANKS if variant.get("wrap", True) else NEXT_RANKS_NO_WRAP
        state._hide = bool(variant["face_down"]) or state.layout.covered_face_down
        state._golf = state.layout.name == "golf"
        state._deals = deals
        state._rounds = rounds_of(variant)
        state._finished = ()
        state._over = False
        state._start_round(0)
        return state

    def make_setup(
        self, players: int, variant: Mapping[str, VariantValue], rng: Rng
    ) -> dict[str, Any]:
        """One shuffled deck per round: the round-1 deal of seed N is deal number N."""
        deals = [shuffled_deck(rng) for _ in range(rounds_of(variant))]
        return {"deals": [[CARD_NAMES[c] for c in d] for d in deals]}

    def from_setup(
        self, setup: Mapping[str, Any], players: int, variant: Mapping[str, VariantValue]
    ) -> PiramidesState:
        deals_in = setup.get("deals") if isinstance(setup, Mapping) else None
        if not isinstance(deals_in, list):
            raise RecordError("setup.deals", "must be a list of deals")
        rounds = rounds_of(variant)
        if len(deals_in) != rounds:
            raise RecordError(
                "setup.deals",
                "must hold one deal per round ({rounds}), not {count}",
                rounds=rounds,
                count=len(deals_in),
            )
        deals = []
        for r, deal in enumerate(deals_in):
            field = f"setup.deals[{r}]"
            if not isinstance(deal, list) or len(deal) != DECK_SIZE:
                raise RecordError(field, "must list all {count} cards", count=DECK_SIZE)
            try:
                cards = [CARD_BY_NAME[name] for name in deal]
            except (KeyError, TypeError):
                k, name = next(
                    (k, n)
                    for k, n in enumerate(deal)
                    if not isinstance(n, str) or n not in CARD_BY_NAME
                )
                raise RecordError(
                    f"{field}[{k}]", "{value} is not a card name like 'TH'", value=repr(name)
                ) from None
            if len(set(cards)) != DECK_SIZE:
                raise RecordError(field, "must hold every card of the deck exactly once")
            deals.append(tuple(cards))
        return self._initial(setup, tuple(deals), variant)

    # -- notation ---------------------------------------------------------------

    @staticmethod
    def _layout_in(state: State[PiramidesMove]) -> Layout:
        return state.layout if isinstance(state, PiramidesState) else PYRAMID

    def move_to_str(self, state: State[PiramidesMove], move: PiramidesMove) -> str:
        """``draw``, ``joker``, or the position label of the card played (``G3``)."""
        if move.kind == "play":
            return self._layout_in(state).labels[move.pos]
        return move.kind

    def parse_move(self, state: State[PiramidesMove], text: str) -> PiramidesMove:
        """Read ``draw``/``d``, ``joker``/``j``, a position (``g3``) or a card shown (``7h``)."""
        t = text.strip().lower()
        if t in ("draw", "d", "stock", "s", "turn", "t"):
            return DRAW
        if t in ("joker", "j"):
            return USE_JOKER
        layout = self._layout_in(state)
        pos = layout.index_of(t)
        if pos is not None:
            return PLAY[pos]
        card = parse_card(t)
        if card is not None and isinstance(state, PiramidesState):
            for i in range(layout.size):
                if state._cards[i] == card and not state._removed >> i & 1:
                    if not state.face_up(i):
                        break
                    return PLAY[i]
            raise NotationError(
                "{card} is not among the {layout} cards you can see",
                text,
                card=card_label(card),
                layout=layout.name,
            )
        raise NotationError(
            "'{text}' is not a move: type a position like G3, a card like 7h, 'draw' or 'joker'",
            text,
            text=text,
        )


GAME = PiramidesGame()
PiramidesState.game = GAME
