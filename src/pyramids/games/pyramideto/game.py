"""Pyramideto, the stacking goal game (RULINGS.md §3).

State layout, chosen for search speed: the 15 pieces are ints and the stacks
are two 15-entry lists, ``below[p]`` and ``above[p]`` (``-1`` = table / top),
so a move rewrites three entries and goal checks are two lookups. A move can
only *form* one link (the moved group's lowest piece on the target top), so
after a move only the goals that use that link can have newly come to stand;
:data:`LINK_GOALS` lists them, which keeps the check after each move O(1).

Hidden information is the hands and the deck order. What a seat knows beyond
its view (where the cards it put under the deck went since) is kept as a small
tuple of facts, so that :meth:`PyramidetoState.determinize` can respect it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pyramids.engine.errors import IllegalMove, RecordError
from pyramids.engine.rng import Rng
from pyramids.engine.state import Game, State
from pyramids.engine.variant import (
    Option,
    VariantValue,
    check_first_player,
    draw_first_player,
    first_player_option,
)
from pyramids.games.pyramideto.goals import FRAMES, GOAL_BY_ID, GOAL_COUNT, GOALS
from pyramids.games.pyramideto.hidden import UnseenDeal, hand_place
from pyramids.games.pyramideto.moves import (
    EXCHANGE,
    MOVE_ONTO,
    TABLE,
    TO_TABLE,
    PyramidetoMove,
    move_text,
    read_move,
)
from pyramids.games.pyramideto.pieces import (
    CODES,
    PIECE_COUNT,
    PIECES,
    SIZE,
    nests,
)

#: the game ends when a player displays this many goals ...
WIN_GOALS = 5
#: ... or cards of this many frame colours ...
WIN_FRAMES = 4
#: ... or this many cards of one frame colour.
WIN_SAME_FRAME = 3


TOWERS: tuple[tuple[int, int, int], ...] = tuple(g.tower for g in GOALS)
FRAME_OF: tuple[int, ...] = tuple(g.frame for g in GOALS)


def _link_goals() -> tuple[tuple[int, ...], ...]:
    table: list[list[int]] = [[] for _ in range(PIECE_COUNT * PIECE_COUNT)]
    for g, (a, b, c) in enumerate(TOWERS):
        table[a * PIECE_COUNT + b].append(g)
        table[b * PIECE_COUNT + c].append(g)
    return tuple(tuple(x) for x in table)


#: goals that use the link "x directly below y", indexed ``x * 15 + y``
LINK_GOALS = _link_goals()


def tower_stands(above: Sequence[int], goal: int) -> bool:
    """Whether the tower of ``goal`` stands: its 3 pieces consecutive, in order, in one stack."""
    a, b, c = TOWERS[goal]
    return above[a] == b and above[b] == c


def has_won(displayed: Sequence[int]) -> bool:
    """Whether these displayed cards end the game (5 goals, 4 frames or 3 of one frame)."""
    if len(displayed) >= WIN_GOALS:
        return True
    counts = [0] * len(FRAMES)
    for c in displayed:
        counts[FRAME_OF[c]] += 1
    return max(counts) >= WIN_SAME_FRAME or sum(1 for k in counts if k) >= WIN_FRAMES


_BIT: tuple[int, ...] = tuple(1 << p for p in PIECES)
_MEDIUM_UP = sum(_BIT[p] for p in PIECES if SIZE[p] >= 1)
_LARGE = sum(_BIT[p] for p in PIECES if SIZE[p] == 2)

#: moves of one piece by key ``(targets << 5 | piece) << 1 | on a piece`` (see legal_moves)
_GROUP_MOVES: dict[int, tuple[PyramidetoMove, ...]] = {}
_GROUP_MOVES_MAX = 1 << 17

#: a board key holds ``below[p] + 1`` (0: on the table) in 4 bits at bit ``4 * p``
_BOARD_BITS = 4
#: where a key of :data:`_BOARD_MOVES` holds ``last + 1``, above the board
_LAST_AT = _BOARD_BITS * PIECE_COUNT
#: the group moves of a whole board, by ``board key | (last + 1) << _LAST_AT``: a search
#: walks the same boards again and again (its tree), with other hidden cards each time
_BOARD_MOVES: dict[int, tuple[PyramidetoMove, ...]] = {}
#: at most this many boards are kept (each about 500 bytes)
_BOARD_MOVES_MAX = 1 << 14


def _board_key(below: Sequence[int]) -> int:
    """The board as one int: ``below[p] + 1`` in 4 bits per piece (kept up to date by moves)."""
    return sum((q + 1) << _BOARD_BITS * p for p, q in enumerate(below))


def _group_moves(key: int) -> tuple[PyramidetoMove, ...]:
    """The moves of a piece (with everything on it) for a key of :meth:`legal_moves`.

    Onto each target in ascending order, then to the table if the piece
    stands on another one: the order in which the moves were always listed.
    """
    off_table = key & 1
    p = key >> 1 & 31
    targets = key >> 6
    row = MOVE_ONTO[p]
    out = [row[u] for u in PIECES if targets >> u & 1]
    if off_table:
        out.append(TO_TABLE[p])
    if len(_GROUP_MOVES) >= _GROUP_MOVES_MAX:
        _GROUP_MOVES.clear()
    moves = _GROUP_MOVES[key] = tuple(out)
    return moves


# Knowledge facts: (viewer, card, locations). A location is a deck slot (its
# serial number, >= 0) or a hand (-(seat + 1)); the card is in one of them.
_Fact = tuple[int, int, frozenset[int]]


class PyramidetoState(State[PyramidetoMove]):
    """A position of Pyramideto."""

    __slots__ = (
        "_above",
        "_below",
        "_board",
        "_deck",
        "_displayed",
        "_end",
        "_fresh",
        "_hands",
        "_know",
        "_last",
        "_last_stood",
        "_limit",
        "_next_serial",
        "_over",
        "_serials",
        "_since",
        "_turn",
        "_unchecked",
        "_winner",
    )

    _above: list[int]
    _below: list[int]
    #: :func:`_board_key` of ``_below``, kept up to date by the moves
    _board: int
    _last: int
    _turn: int
    _hands: tuple[tuple[int, ...], ...]
    _deck: tuple[int, ...]
    _serials: tuple[int, ...]
    _next_serial: int
    _displayed: tuple[tuple[int, ...], ...]
    _since: tuple[int, ...]
    _last_stood: tuple[int, ...]
    _know: tuple[_Fact, ...]
    _fresh: tuple[int, ...]
    _unchecked: tuple[int, ...]
    _over: bool
    _winner: int
    _end: str
    _limit: int

    # -- the contract -----------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._over else self._turn

    @property
    def is_over(self) -> bool:
        return self._over

    def legal_moves(self) -> list[PyramidetoMove]:
        """Every group move (stacks in order of their top piece, each walked down), then exchanges.

        The group moves depend only on the board and the last group moved, so
        those of a board are kept (:data:`_BOARD_MOVES`): a search asks for
        the moves of its tree's boards at every iteration. A board not kept
        is built from rows: a piece's moves depend only on which tops fit it
        (a mask), the top of its own stack (excluded) and whether it stands
        on the table, so each such row is built once and kept too
        (:func:`_group_moves`).
        """
        if self._over:
            return []
        key = self._board | (self._last + 1) << _LAST_AT
        board = _BOARD_MOVES.get(key)
        if board is None:
            board = self._board_moves(key)
        moves = list(board)
        if self._deck:
            moves.extend([EXCHANGE[c] for c in self._hands[self._turn]])
        return moves

    def random_move(self, rng: Rng) -> PyramidetoMove:
        """``legal_moves()[rng.below(n)]``, found by counting instead of listing the moves.

        Random playouts call this at every ply. A piece's moves are the tops
        that fit its size, less its own stack's top, and the table if it stands
        on a piece: so the moves can be counted per piece with two bit counts,
        and only the chosen one is looked up (1.45x faster than building the
        rows, ``docs/performance.md``).
        """
        if self._over:
            raise ValueError("no legal move: the game is over")
        hand = self._hands[self._turn] if self._deck else ()
        board = _BOARD_MOVES.get(self._board | (self._last + 1) << _LAST_AT)
        if board is not None:  # a board the search has seen: no counting needed
            n = len(board)
            if not n + len(hand):
                raise ValueError("no legal move")
            k = rng.below(n + len(hand))
            return board[k] if k < n else EXCHANGE[hand[k - n]]
        below = self._below
        last = self._last
        tops, fit = self._tops_and_fit()
        fits = (fit[0].bit_count(), fit[1].bit_count(), fit[2].bit_count())
        total = 0
        for t in tops:  # the walk of _board_moves, counting
            p = t
            while p >= 0:
                q = below[p]
                if p != last:
                    s = SIZE[p]
                    total += fits[s] - (fit[s] >> t & 1) + (q >= 0)
                p = q
        total += len(hand)
        if not total:
            raise ValueError("no legal move")
        k = rng.below(total)
        for t in tops:  # the same walk, to the k-th move
            p = t
            while p >= 0:
                q = below[p]
                if p != last:
                    targets = fit[SIZE[p]] & ~_BIT[t]
                    n = targets.bit_count()
                    if k < n:  # onto the k-th target, lowest first
                        for _ in range(k):
                            targets &= targets - 1
                        return MOVE_ONTO[p][(targets & -targets).bit_length() - 1]
                    k -= n
                    if q >= 0:
                        if not k:
                            return TO_TABLE[p]
                        k -= 1
                p = q
        return EXCHANGE[hand[k]]

    def _tops_and_fit(self) -> tuple[list[int], tuple[int, int, int]]:
        """The tops in piece order, and the tops a group may go onto by its lowest piece's size.

        As masks: any top for a small piece, the medium and large tops for a
        medium one, the large tops for a large one.
        """
        above = self._above
        tops = [t for t in PIECES if above[t] < 0]
        tmask = 0
        for t in tops:
            tmask |= _BIT[t]
        return tops, (tmask, tmask & _MEDIUM_UP, tmask & _LARGE)

    def _board_moves(self, kept_as: int) -> tuple[PyramidetoMove, ...]:
        """This board's group moves, in the order of :meth:`legal_moves`, kept under ``kept_as``."""
        below = self._below
        last = self._last
        tops, fit = self._tops_and_fit()
        out: list[PyramidetoMove] = []
        rows = _GROUP_MOVES
        for t in tops:
            own = ~_BIT[t]
            p = t
            while p >= 0:
                q = below[p]
                if p != last:
                    key = ((fit[SIZE[p]] & own) << 5 | p) << 1 | (q >= 0)
                    row = rows.get(key)
                    out.extend(_group_moves(key) if row is None else row)
                p = q
        if len(_BOARD_MOVES) >= _BOARD_MOVES_MAX:
            _BOARD_MOVES.clear()
        moves = _BOARD_MOVES[kept_as] = tuple(out)
        return moves

    def _check(self, move: PyramidetoMove) -> None:
        if not isinstance(move, PyramidetoMove):
            raise IllegalMove("not-a-move", "{move} is not a Pyramideto move", move=repr(move))
        p, u, card = move
        if type(p) is not int or type(u) is not int or type(card) is not int:
            raise IllegalMove("not-a-move", "{move} is not a Pyramideto move", move=repr(move))
        if p == -1 and u == TABLE and 0 <= card < GOAL_COUNT:
            if card not in self._hands[self._turn]:
                raise IllegalMove(
                    "not-in-hand",
                    "{goal} is not in your hand: you can only exchange your own card",
                    goal=GOALS[card].id,
                )
            if not self._deck:
                raise IllegalMove(
                    "deck-empty",
                    "the deck is empty: there is no card to draw, so you cannot exchange",
                )
            return
        if card != -1 or not 0 <= p < PIECE_COUNT or not -1 <= u < PIECE_COUNT:
            raise IllegalMove("not-a-move", "{move} is not a Pyramideto move", move=repr(move))
        if p == self._last:
            raise IllegalMove(
                "same-group",
                "the previous player just moved {group} as a group: "
                "that exact group may not move again now (a part of it or a bigger group may)",
                group=self._group_words(p),
            )
        if u == TABLE:
            if self._below[p] < 0:
                raise IllegalMove(
                    "no-change",
                    "{moved} already stands on the table: moving a whole stack to the table "
                    "changes nothing",
                    moved=CODES[p],
                )
            return
        if self._above[u] >= 0:
            raise IllegalMove(
                "not-a-top",
                "{onto} is covered by {cover}: pieces go only on the top piece of a stack",
                onto=CODES[u],
                cover=CODES[self._above[u]],
            )
        if self._top_of(p) == u:
            raise IllegalMove(
                "same-stack",
                "{onto} is part of the group you move: it cannot go onto itself",
                onto=CODES[u],
            )
        if SIZE[u] < SIZE[p]:
            raise IllegalMove(
                "too-small",
                "{moved} ({piece_moved}) cannot go on {onto} ({piece_onto}): "
                "a group goes only onto a piece at least as large as its lowest piece",
                moved=CODES[p],
                piece_moved=CODES[p],
                onto=CODES[u],
                piece_onto=CODES[u],
            )

    def _apply(self, move: PyramidetoMove) -> None:
        p, u, card = move
        if p < 0:
            self._exchange(card)
        else:
            above = self._above
            below = self._below
            q = below[p]
            self._fresh = ()
            if q >= 0:
                broken = [g for g in LINK_GOALS[q * PIECE_COUNT + p] if tower_stands(above, g)]
                above[q] = -1
                if broken:
                    stood = list(self._last_stood)
                    for g in broken:
                        stood[g] = self._ply - 1
                    self._last_stood = tuple(stood)
            below[p] = u
            self._board += u - q << _BOARD_BITS * p
            if u >= 0:
                above[u] = p
                fresh = [g for g in LINK_GOALS[u * PIECE_COUNT + p] if tower_stands(above, g)]
                if fresh:
                    self._fresh = tuple(fresh)
                    self._settle(fresh)
            self._last = p
        if self._over:
            return
        if self._limit and self._ply >= self._limit:
            self._finish(-1, "turn-limit")
            return
        self._turn = (self._turn + 1) % self.players

    # -- effects of a move ------------------------------------------------------

    def _exchange(self, card: int) -> None:
        seat = self._turn
        hands = list(self._hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        self._hands = tuple(hands)
        serial = self._next_serial
        self._next_serial += 1
        self._deck = (*self._deck, card)
        self._serials = (*self._serials, serial)
        mine = hand_place(seat)
        facts = [
            (v, c, locs | {serial}) if v != seat and mine in locs else (v, c, locs)
            for v, c, locs in self._know
            if c != card or v != seat
        ]
        facts.append((seat, card, frozenset((serial,))))
        self._know = tuple(facts)
        self._last = -1
        self._fresh = ()
        drawn = self._draw(seat)
        if drawn is not None and tower_stands(self._above, drawn):
            self._fresh = (drawn,)
            self._settle([drawn])

    def _draw(self, seat: int) -> int | None:
        """Top card of the deck into ``seat``'s hand (None if the deck is empty)."""
        if not self._deck:
            return None
        card = self._deck[0]
        serial = self._serials[0]
        self._deck = self._deck[1:]
        self._serials = self._serials[1:]
        hands = list(self._hands)
        hands[seat] = tuple(sorted((*hands[seat], card)))
        self._hands = tuple(hands)
        since = list(self._since)
        since[card] = self._ply
        self._since = tuple(since)
        if self._know:
            facts: list[_Fact] = []
            for v, c, locs in self._know:
                if serial in locs:
                    if v == seat:
                        if c == card:
                            continue  # the drawer now sees it in its own hand
                        locs = locs - {serial}
                    else:
                        locs = (locs - {serial}) | {hand_place(seat)}
                facts.append((v, c, locs))
            self._know = tuple(facts)
        return card

    def _settle(self, standing: list[int]) -> None:
        """Display the standing goals held in hands, mover first; redraw; detect the winner."""
        n = self.players
        for k in range(n):
            seat = (self._turn + k) % n
            todo = [g for g in standing if g in self._hands[seat]]
            while todo:
                card = todo.pop(0)
                hands = list(self._hands)
                hands[seat] = tuple(c for c in hands[seat] if c != card)
                self._hands = tuple(hands)
                shown = list(self._displayed)
                shown[seat] = (*shown[seat], card)
                self._displayed = tuple(shown)
                if self._know:
                    self._know = tuple(f for f in self._know if f[1] != card)
                if has_won(self._displayed[seat]):
                    self._unchecked = tuple((self._turn + j) % n for j in range(k, n))
                    self._finish(seat, "goal")
                    return
                drawn = self._draw(seat)
                if drawn is not None and tower_stands(self._above, drawn):
                    todo.append(drawn)
        if not self._deck and not any(self._hands):
            self._finish(-1, "no-cards")

    def _finish(self, winner: int, reason: str) -> None:
        self._over = True
        self._winner = winner
        self._end = reason

    # -- copies, scores -------------------------------------------------------

    def copy(self) -> PyramidetoState:
        other = PyramidetoState.__new__(PyramidetoState)
        self._copy_base(other)
        other._above = self._above[:]
        other._below = self._below[:]
        other._board = self._board
        other._last = self._last
        other._turn = self._turn
        other._hands = self._hands
        other._deck = self._deck
        other._serials = self._serials
        other._next_serial = self._next_serial
        other._displayed = self._displayed
        other._since = self._since
        other._last_stood = self._last_stood
        other._know = self._know
        other._fresh = self._fresh
        other._unchecked = self._unchecked
        other._over = self._over
        other._winner = self._winner
        other._end = self._end
        other._limit = self._limit
        return other

    def scores(self) -> list[int]:
        """Goals each seat has displayed."""
        return [len(d) for d in self._displayed]

    def ranking(self) -> list[int]:
        """Winner 1st, the others by goals displayed from 2nd; a drawn game ranks everyone 1st."""
        if self._over and self._winner < 0:
            return [1] * self.players
        if not self._over:
            return super().ranking()
        s = self.scores()
        w = self._winner
        return [
            1 if p == w else 2 + sum(1 for o in range(self.players) if o != w and s[o] > s[p])
            for p in range(self.players)
        ]

    # -- read-only accessors for faces and agents -------------------------------

    def stacks(self) -> list[list[int]]:
        """Every stack bottom to top, ordered by bottom piece."""
        out = []
        for p in PIECES:
            if self._below[p] < 0:
                stack = []
                while p >= 0:
                    stack.append(p)
                    p = self._above[p]
                out.append(stack)
        return out

    @property
    def above(self) -> tuple[int, ...]:
        """For each piece, the piece directly on it (-1: none)."""
        return tuple(self._above)

    @property
    def below(self) -> tuple[int, ...]:
        """For each piece, the piece directly under it (-1: the table)."""
        return tuple(self._below)

    def last_group(self) -> list[int]:
        """The group the previous player moved (it may not move again as that group)."""
        out = []
        p = self._last
        while p >= 0:
            out.append(p)
            p = self._above[p]
        return out

    def hand(self, seat: int) -> tuple[int, ...]:
        """Goal indices in ``seat``'s hand: secret, for that seat's own use only."""
        return self._hands[seat]

    def displayed(self, seat: int) -> tuple[int, ...]:
        """Goal indices ``seat`` has displayed, in order (public)."""
        return self._displayed[seat]

    @property
    def deck_size(self) -> int:
        """Cards left in the deck."""
        return len(self._deck)

    @property
    def winner(self) -> int | None:
        """The seat that ended the game by its goals, or None (not over, or drawn)."""
        return self._winner if self._winner >= 0 else None

    @property
    def end_reason(self) -> str | None:
        """``goal``, ``turn-limit`` or ``no-cards`` once over, else None."""
        return self._end or None

    def _top_of(self, p: int) -> int:
        above = self._above
        while above[p] >= 0:
            p = above[p]
        return p

    def _group_words(self, p: int) -> str:
        return "+".join(CODES[x] for x in self.last_group()) if p == self._last else CODES[p]

    # -- hidden information ---------------------------------------------------

    def view(self, player: int | None) -> dict[str, Any]:
        self._check_viewer(player)
        v = self._view_header(player)
        v.update(
            {
                "stacks": [[CODES[p] for p in s] for s in self.stacks()],
                "last_group": [CODES[p] for p in self.last_group()],
                "turn": self._ply,
                "turn_limit": self._limit,
                "deck": len(self._deck),
                "hand_size": int(self.variant["hand_size"]),
                "hand_sizes": [len(h) for h in self._hands],
                "hand": None
                if player is None
                else [GOALS[c].to_json(FRAMES) for c in self._hands[player]],
                "displayed": [[GOALS[c].to_json(FRAMES) for c in d] for d in self._displayed],
                "frames": [{"id": f.id, "theme": f.theme, "rgb": f.rgb} for f in FRAMES],
                "remembered": self._remembered(player),
                "winner": self.winner,
                "end": self.end_reason,
            }
        )
        return v

    def _remembered(self, player: int | None) -> list[dict[str, Any]]:
        """Where the cards ``player`` put under the deck can be now (its own memory)."""
        out: list[dict[str, Any]] = []
        for v, c, places in self._know:
            if v != player:
                continue
            hands = sorted(-x - 1 for x in places if x < 0)
            depth = len(self._serials)
            from_bottom = sorted(
                depth - 1 - i for i, serial in enumerate(self._serials) if serial in places
            )
            out.append({"card": GOALS[c].id, "in_hands": hands, "deck_from_bottom": from_bottom})
        out.sort(key=lambda r: str(r["card"]))
        return out

    def determinize(self, player: int | None, rng: Rng) -> PyramidetoState:
        """Deal the cards ``player`` cannot see anew, consistently with what it has seen.

        Kept: the stacks, every displayed card, ``player``'s hand, how many
        cards each hand and the deck hold. Respected: what ``player``
        remembers of the cards it put under the deck, and that no hand keeps
        a card whose tower stood since it was drawn (see :mod:`.hidden`).
        """
        self._check_viewer(player)
        return self._sample(player, UnseenDeal(self, player), rng)

    def determinizer(self, player: int | None) -> Callable[[Rng], PyramidetoState]:
        """:meth:`determinize`, with where the hidden cards may go worked out once.

        See :class:`.hidden.UnseenDeal`: the samples (and the numbers drawn from
        ``rng``) are exactly ``determinize``'s, for about a third less time each.
        """
        self._check_viewer(player)
        plan = UnseenDeal(self, player)
        ply = self._ply

        def sample(rng: Rng) -> PyramidetoState:
            if self._ply != ply:  # played on since: the plan is of another position
                return self.determinize(player, rng)
            return self._sample(player, plan, rng)

        return sample

    def _sample(self, player: int | None, plan: UnseenDeal, rng: Rng) -> PyramidetoState:
        """One sample: ``plan``'s deal from ``rng``, on a copy of this state."""
        hands, deck, since = plan.deal(rng)
        other = self.copy()
        other._rng = rng.fork()
        other.seed = None
        other._hands = hands
        other._deck = deck
        other._since = since
        # keep the facts other seats remember only where they still hold in the sample
        if self._know:
            where = {c: hand_place(q) for q, h in enumerate(hands) for c in h}
            where.update(zip(deck, self._serials, strict=True))
            other._know = tuple(f for f in self._know if f[0] == player or where.get(f[1]) in f[2])
        # A sample is not a game that happened: it keeps no secret initial deal.
        other._setup = {
            "first_player": self._setup.get("first_player"),
            "determinized_for": player,
        }
        return other


class PyramidetoGame(Game[PyramidetoMove]):
    """Pyramideto: restack 15 pyramids so the towers on your goal cards stand."""

    id = "pyramideto"
    title = "Pyramideto"
    min_players = 2
    max_players = 4
    summary = "Move the nesting pyramids to build the towers on your secret goal cards."
    options = (
        first_player_option(),
        Option(
            "turn_limit",
            200,
            int,
            "Moves after which a game without a winner ends drawn (0 = no limit).",
            minimum=0,
        ),
        Option(
            "hand_size",
            3,
            int,
            "Goal cards dealt to each player (the rulebook deals 3).",
            minimum=1,
            maximum=GOAL_COUNT // 4,
        ),
    )

    #: the goal cards are shuffled and dealt; each hand is its seat's secret
    chance = True
    hidden_information = True

    def score_bounds(
        self, players: int, variant: Mapping[str, VariantValue]
    ) -> tuple[float, float]:
        """A score counts goal cards: from none to the whole deck."""
        return 0.0, float(GOAL_COUNT)

    def max_game_length(self, players: int, variant: Mapping[str, VariantValue]) -> int | None:
        """``turn_limit`` moves, one a turn; with no limit (0) nothing bounds a game."""
        limit = int(variant["turn_limit"])
        return limit if limit else None

    def make_setup(
        self, players: int, variant: Mapping[str, VariantValue], rng: Rng
    ) -> dict[str, Any]:
        """Seat to start, then a shuffled deck; each hand is dealt from its top."""
        first = draw_first_player(variant, players, rng)
        deck = list(range(GOAL_COUNT))
        rng.shuffle(deck)
        h = int(variant["hand_size"])
        hands = [sorted(deck[i * h : (i + 1) * h]) for i in range(players)]
        return {
            "first_player": first,
            "hands": [[GOALS[c].id for c in hand] for hand in hands],
            "deck": [GOALS[c].id for c in deck[players * h :]],
        }

    def from_setup(
        self, setup: Mapping[str, Any], players: int, variant: Mapping[str, VariantValue]
    ) -> PyramidetoState:
        if not isinstance(setup, Mapping):
            raise RecordError("setup", "must be an object")
        first = check_first_player(setup, players, variant)
        h = int(variant["hand_size"])
        hands_in = setup.get("hands")
        if not isinstance(hands_in, list) or len(hands_in) != players:
            raise RecordError("setup.hands", "must list {count} hands", count=players)
        hands = [self._cards(hand, f"setup.hands[{i}]") for i, hand in enumerate(hands_in)]
        for i, hand in enumerate(hands):
            if len(hand) != h:
                raise RecordError(
                    f"setup.hands[{i}]", "must hold {count} cards (hand_size)", count=h
                )
        deck = self._cards(setup.get("deck"), "setup.deck")
        every = [c for hand in hands for c in hand] + deck
        if sorted(every) != list(range(GOAL_COUNT)):
            raise RecordError(
                "setup", "hands and deck must hold all {count} cards once", count=GOAL_COUNT
            )
        state = PyramidetoState.__new__(PyramidetoState)
        state._init_base(setup, players, variant)
        below = [-1] * PIECE_COUNT
        above = [-1] * PIECE_COUNT
        for nest in nests():
            for lower, upper in itertools.pairwise(nest):
                above[lower] = upper
                below[upper] = lower
        state._above = above
        state._below = below
        state._board = _board_key(below)
        state._last = -1
        state._turn = first
        state._hands = tuple(tuple(sorted(hand)) for hand in hands)
        state._deck = tuple(deck)
        state._serials = tuple(range(len(deck)))
        state._next_serial = len(deck)
        state._displayed = tuple(() for _ in range(players))
        state._since = (0,) * GOAL_COUNT
        state._last_stood = (-1,) * GOAL_COUNT
        state._know = ()
        state._fresh = ()
        state._unchecked = ()
        state._over = False
        state._winner = -1
        state._end = ""
        state._limit = int(variant["turn_limit"])
        return state

    @staticmethod
    def _cards(names: Any, field: str) -> list[int]:
        if not isinstance(names, list):
            raise RecordError(field, "must be a list of goal card ids")
        out = []
        for k, name in enumerate(names):
            goal = GOAL_BY_ID.get(name) if isinstance(name, str) else None
            if goal is None:
                raise RecordError(
                    f"{field}[{k}]", "{value} is not a goal card id", value=repr(name)
                )
            out.append(goal.number)
        return out

    # -- notation ---------------------------------------------------------------

    def move_to_str(self, state: State[PyramidetoMove], move: PyramidetoMove) -> str:
        """``Mr>Lg`` (Mr and what is on it onto Lg), ``Mr>table``, ``x watermelon``."""
        return move_text(move)

    def parse_move(self, state: State[PyramidetoMove], text: str) -> PyramidetoMove:
        """Read ``Mr>Lg``, ``mr lg``, ``Mr>table``/``Mr>t``, ``x watermelon`` or ``x 2``."""
        hand: tuple[int, ...] = ()
        if isinstance(state, PyramidetoState) and not state.is_over:
            hand = state.hand(state._turn)
        return read_move(text, hand)


GAME = PyramidetoGame()
PyramidetoState.game = GAME
