"""Pyramido treasure hunt: sliding pyramids, memory and events (RULINGS.md §2).

The state is flat and cheap to copy, because random play and search slide
thousands of pyramids per game:

* ``_tokens`` is the hidden token layout (a tuple shared by every copy),
  indexed by internal spot (see ``board.py``); it never changes;
* ``_colors`` packs the pyramid on every spot into one int, two bits a spot
  (0 = no pyramid), so a slide is three bit operations;
* the decks are the setup's three tuples plus a read position and a bitmask of
  positions taken out early by the danger event;
* the reveal history is a persistent linked list (O(1) to extend and copy)
  plus a bitmask of every spot revealed so far.

Drawing a card is not a move: nobody chooses anything when drawing, so the
engine draws for the player as soon as a turn ends, resolves what needs no
decision (a treasure already visible, a sandstorm, the game-over card) and
stops at the next decision: a slide, naming treasures, naming an opponent, or
choosing a card to give.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from pyramids.engine.errors import IllegalMove, NotationError, RecordError
from pyramids.engine.names import Param
from pyramids.engine.rng import Rng
from pyramids.engine.state import Game, State
from pyramids.engine.variant import (
    Option,
    VariantValue,
    check_first_player,
    draw_first_player,
    first_player_option,
)
from pyramids.games.lazy import LazySetup, plain_setup
from pyramids.games.pyramido_treasure.board import (
    COLS,
    FIELD_SPOTS,
    FIELDS,
    INTERNAL_NAMES,
    NEIGHBOUR_MASK,
    NEIGHBOURS,
    ROWS,
    SPOT_BY_INTERNAL,
    SPOT_BY_VIEW,
    SPOTS,
    VIEW_NAME,
    VIEW_ORDER,
    view_dims,
)
from pyramids.games.pyramido_treasure.news import news_item
from pyramids.games.pyramido_treasure.treasures import (
    BLANK,
    CARD_BY_NAME,
    CARD_NAMES,
    DANGER,
    DECKS,
    EVENT_NAMES,
    GAME_OVER,
    GIFT,
    N_TREASURES,
    POKER,
    SANDSTORM,
    TOKEN_BY_NAME,
    TOKEN_NAMES,
    TREASURES,
    card_points,
    parse_treasure,
)

# -- phases: what the player to move must decide ------------------------------

#: at most this many reveals (and news lines) in a view's ``recent`` (``news``): they run
#: from the seat's own last slide, so a seat that is out, or never slides, would
#: otherwise get the whole game's history in every view (the board has 48 spots)
RECENT_LIMIT = 48

SEARCH = 0  # slide to find the sought treasure
GIFT_SLIDE = 1  # gift: slide until any treasure shows
GIFT_GIVE = 2  # gift: a holder chooses which card of that treasure to give
DANGER_NAME = 3  # danger: name two treasures
DANGER_SLIDE = 4  # danger: slide until a treasure shows (twice)
DANGER_GIVE = 5  # danger failed: give a card to an opponent
MIRAGE_SLIDE = 6  # mirage: slide until a treasure shows
MIRAGE_GIVE = 7  # mirage failed: give the neighbour a card
POKER_NAME = 8  # desert poker: name an opponent and a treasure
POKER_SLIDE = 9  # desert poker: the opponent slides until a treasure shows
OVER = 10

PHASE_NAMES = (
    "search",
    "gift",
    "gift-give",
    "danger-name",
    "danger",
    "danger-give",
    "mirage",
    "mirage-give",
    "poker-name",
    "poker",
    "over",
)
SLIDE_PHASES = frozenset({SEARCH, GIFT_SLIDE, DANGER_SLIDE, MIRAGE_SLIDE, POKER_SLIDE})
GIVE_PHASES = frozenset({GIFT_GIVE, DANGER_GIVE, MIRAGE_GIVE})

COLOR_CHARS = ".RYB"  # 0 = no pyramid; red, yellow, blue are decoration
COLOR_NAMES = (None, "red", "yellow", "blue")


class TreasureMove(NamedTuple):
    """A decision of the player to move.

    ``kind`` is ``"slide"`` (``a`` = internal spot of the pyramid slid into the
    empty spot), ``"name"`` (danger: treasures ``a < b``), ``"poker"`` (``a`` =
    opponent seat, ``b`` = treasure) or ``"give"`` (``a`` = card type, ``b`` =
    seat receiving it).
    """

    kind: str
    a: int = -1
    b: int = -1


SLIDES: tuple[TreasureMove, ...] = tuple(TreasureMove("slide", s) for s in range(SPOTS))
SLIDES_FROM: tuple[tuple[TreasureMove, ...], ...] = tuple(
    tuple(SLIDES[n] for n in NEIGHBOURS[e]) for e in range(SPOTS)
)


def _unlink(log: Any) -> list[Any]:
    """The items of a persistent linked list ``(rest, item)``, oldest first."""
    items = []
    while log is not None:
        log, item = log
        items.append(item)
    items.reverse()
    return items


#: id of a reveal-list node -> (the node, per spot its last reveal and its token if
#: revealed); see ``last_reveals``
_LAST_REVEALS: dict[int, tuple[Any, tuple[int, ...], tuple[int, ...]]] = {}
_LAST_REVEALS_MAX = 1 << 14


def _tname(t: int) -> str:
    return TREASURES[t].name


def _card(card: int) -> dict[str, Param]:
    """The parameters naming a treasure card in news: its treasure and points."""
    return {"treasure": TREASURES[card >> 2].name, "points": card_points(card)}


class TreasureState(State[TreasureMove]):
    """A position of the treasure hunt."""

    __slots__ = (
        "_card",
        "_card_deck",
        "_colors",
        "_deck_no",
        "_decks",
        "_empty",
        "_end",
        "_ev",
        "_gone",
        "_hands",
        "_known",
        "_news",
        "_out",
        "_owner",
        "_phase",
        "_pos",
        "_reveals",
        "_rot",
        "_slides",
        "_tokens",
        "_turn",
    )

    _tokens: tuple[int, ...]
    _colors: int
    _empty: int
    _rot: int
    _decks: tuple[tuple[int, ...], ...]
    _deck_no: int
    _pos: int
    _gone: int
    _hands: tuple[tuple[int, ...], ...]
    _out: int
    _turn: int
    _owner: int
    _phase: int
    _card: int
    _card_deck: int
    _ev: tuple[int, ...]
    _known: int
    _reveals: Any
    _slides: int
    _news: Any
    _end: str

    # -- the contract -------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._phase == OVER else self._turn

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    def legal_moves(self) -> list[TreasureMove]:
        phase = self._phase
        if phase in SLIDE_PHASES:
            return list(SLIDES_FROM[self._empty])
        if phase == OVER:
            return []
        if phase == DANGER_NAME:
            seen = self.visible_treasure
            return [
                TreasureMove("name", a, b)
                for a in range(N_TREASURES)
                for b in range(a + 1, N_TREASURES)
                if seen not in (a, b)
            ]
        if phase == POKER_NAME:
            seen = self.visible_treasure
            return [
                TreasureMove("poker", o, t)
                for o in self._opponents(self._turn)
                for t in range(N_TREASURES)
                if t != seen
            ]
        cards, to = self._give_options()
        return [TreasureMove("give", c, p) for c in cards for p in to]

    def _check(self, move: TreasureMove) -> None:
        if not isinstance(move, TreasureMove):
            raise IllegalMove("not-a-move", "{move} is not a treasure-hunt move", move=repr(move))
        phase = self._phase
        kind = move.kind
        if kind == "slide":
            if phase not in SLIDE_PHASES:
                raise self._not_now(kind)
            s = move.a
            if not (isinstance(s, int) and 0 <= s < SPOTS and NEIGHBOUR_MASK[self._empty] >> s & 1):
                raise self._not_adjacent(s)
            return
        if kind == "name":
            if phase != DANGER_NAME:
                raise self._not_now(kind)
            a, b = move.a, move.b
            if not (0 <= a < b < N_TREASURES):
                raise IllegalMove("bad-treasures", "name two different treasures")
            if self.visible_treasure in (a, b):
                raise IllegalMove(
                    "treasure-visible",
                    "the {treasure} is visible: name treasures that are not visible",
                    treasure=_tname(self.visible_treasure),
                )
            return
        if kind == "poker":
            if phase != POKER_NAME:
                raise self._not_now(kind)
            if move.a not in self._opponents(self._turn):
                raise IllegalMove("bad-opponent", "name an opponent who is still in the game")
            if not 0 <= move.b < N_TREASURES:
                raise IllegalMove("bad-treasures", "name one of the twelve treasures")
            if move.b == self.visible_treasure:
                raise IllegalMove(
                    "treasure-visible",
                    "the {treasure} is visible: name a treasure that is not visible",
                    treasure=_tname(move.b),
                )
            return
        if kind == "give":
            if phase not in GIVE_PHASES:
                raise self._not_now(kind)
            cards, to = self._give_options()
            if move.a not in cards:
                if phase == GIFT_GIVE:
                    raise IllegalMove(
                        "bad-card",
                        "you must give a card of the {treasure}",
                        treasure=_tname(self._ev[0]),
                    )
                raise IllegalMove("bad-card", "you can only give a card you hold")
            if move.b not in to:
                if phase == DANGER_GIVE:
                    raise IllegalMove(
                        "bad-recipient",
                        "that player cannot receive the card here: "
                        "give it to an opponent still in the game",
                    )
                raise IllegalMove(
                    "bad-recipient",
                    "that player cannot receive the card here: it goes to {recipient}",
                    recipient=self.names[to[0]],
                )
            return
        raise IllegalMove("not-a-move", "{move} is not a treasure-hunt move", move=repr(move))

    def _not_adjacent(self, s: object) -> IllegalMove:
        """Why a slide from ``s`` is refused, in the spot names the players see now."""
        names = VIEW_NAME[self._rot]
        gap = names[self._empty]
        near = sorted(names[n] for n in NEIGHBOURS[self._empty])
        if s == self._empty:
            if len(near) == 2:
                return IllegalMove(
                    "not-adjacent",
                    "{gap} is the gap itself: slide a pyramid into it from {first} or {second}",
                    gap=gap,
                    first=near[0],
                    second=near[1],
                )
            if len(near) == 3:
                return IllegalMove(
                    "not-adjacent",
                    "{gap} is the gap itself: slide a pyramid into it from {first}, {second} "
                    "or {third}",
                    gap=gap,
                    first=near[0],
                    second=near[1],
                    third=near[2],
                )
            return IllegalMove(
                "not-adjacent",
                "{gap} is the gap itself: slide a pyramid into it from {first}, {second}, "
                "{third} or {fourth}",
                gap=gap,
                first=near[0],
                second=near[1],
                third=near[2],
                fourth=near[3],
            )
        where = names[s] if isinstance(s, int) and 0 <= s < SPOTS else repr(s)
        if len(near) == 2:
            return IllegalMove(
                "not-adjacent",
                "{spot} is not next to the gap at {gap}: only a pyramid orthogonally next "
                "to the gap can slide into it (from {first} or {second})",
                spot=where,
                gap=gap,
                first=near[0],
                second=near[1],
            )
        if len(near) == 3:
            return IllegalMove(
                "not-adjacent",
                "{spot} is not next to the gap at {gap}: only a pyramid orthogonally next "
                "to the gap can slide into it (from {first}, {second} or {third})",
                spot=where,
                gap=gap,
                first=near[0],
                second=near[1],
                third=near[2],
            )
        return IllegalMove(
            "not-adjacent",
            "{spot} is not next to the gap at {gap}: only a pyramid orthogonally next "
            "to the gap can slide into it (from {first}, {second}, {third} or {fourth})",
            spot=where,
            gap=gap,
            first=near[0],
            second=near[1],
            third=near[2],
            fourth=near[3],
        )

    def _not_now(self, kind: str) -> IllegalMove:
        """Why a move of ``kind`` is refused in this phase: what the player must do instead.

        One complete sentence per (kind of move, decision awaited), so that each
        is a message of its own for translation.
        """
        phase = self._phase
        if kind == "slide":
            if phase == DANGER_NAME:
                return IllegalMove(
                    "not-sliding", "no sliding now: the player must name two treasures"
                )
            if phase == POKER_NAME:
                return IllegalMove(
                    "not-sliding",
                    "no sliding now: the player must name an opponent and a treasure",
                )
            if phase in GIVE_PHASES:
                return IllegalMove(
                    "not-sliding", "no sliding now: the player must choose a card to give"
                )
            return IllegalMove("not-sliding", "no sliding now: the game is over")
        if kind == "name":
            if phase in SLIDE_PHASES:
                return IllegalMove(
                    "not-naming", "no treasures to name now: the player must slide a pyramid"
                )
            if phase == POKER_NAME:
                return IllegalMove(
                    "not-naming",
                    "no treasures to name now: the player must name an opponent and a treasure",
                )
            if phase in GIVE_PHASES:
                return IllegalMove(
                    "not-naming",
                    "no treasures to name now: the player must choose a card to give",
                )
            return IllegalMove("not-naming", "no treasures to name now: the game is over")
        if kind == "poker":
            if phase in SLIDE_PHASES:
                return IllegalMove(
                    "not-naming", "no opponent to name now: the player must slide a pyramid"
                )
            if phase == DANGER_NAME:
                return IllegalMove(
                    "not-naming", "no opponent to name now: the player must name two treasures"
                )
            if phase in GIVE_PHASES:
                return IllegalMove(
                    "not-naming", "no opponent to name now: the player must choose a card to give"
                )
            return IllegalMove("not-naming", "no opponent to name now: the game is over")
        if phase in SLIDE_PHASES:
            return IllegalMove(
                "not-giving", "nobody gives a card now: the player must slide a pyramid"
            )
        if phase == DANGER_NAME:
            return IllegalMove(
                "not-giving", "nobody gives a card now: the player must name two treasures"
            )
        if phase == POKER_NAME:
            return IllegalMove(
                "not-giving",
                "nobody gives a card now: the player must name an opponent and a treasure",
            )
        return IllegalMove("not-giving", "nobody gives a card now: the game is over")

    def _apply(self, move: TreasureMove) -> None:
        kind = move.kind
        if kind == "slide":
            self._slide(move.a)
        elif kind == "name":
            self._ev = (move.a, move.b)
            self._phase = DANGER_SLIDE
            self._say(
                "names-treasures",
                seat=self._turn,
                treasure_a=_tname(move.a),
                treasure_b=_tname(move.b),
            )
        elif kind == "poker":
            self._ev = (move.a, move.b)
            self._say("challenges", seat=self._turn, seat_opponent=move.a, treasure=_tname(move.b))
            self._turn = move.a
            self._phase = POKER_SLIDE
        else:
            self._give(self._turn, move.a, move.b)
            self._after_give()

    # -- sliding -----------------------------------------------------------------

    def _slide(self, s: int) -> None:
        e = self._empty
        c = self._colors
        shift = s << 1
        self._colors = (c & ~(3 << shift)) | (((c >> shift) & 3) << (e << 1))
        self._empty = s
        self._slides += 1
        self._known |= 1 << s
        self._reveals = (self._reveals, (self._ply, s, self._turn))
        token = self._tokens[s]
        if token != BLANK:
            self._treasure_revealed(token - 1)
        limit = self.variant["slide_limit"]
        if limit and self._slides >= int(limit) and self._phase != OVER:
            self._say("slide-limit", limit=int(limit))
            self._finish("slide-limit")

    def _treasure_revealed(self, t: int) -> None:
        phase = self._phase
        p = self._turn
        if phase == SEARCH:
            if t == self._card >> 2:
                self._say("finds", seat=p, treasure=_tname(t))
                self._take_sought(p)
                self._draw(self._next_active(p))
                return
            self._say(
                "reveals-wrong", seat=p, treasure=_tname(t), treasure_sought=_tname(self._card >> 2)
            )
            if self._card_deck == 2 and self.players >= 4:
                self._out |= 1 << p
                self._say("out", seat=p)
                if self.active_count < 2:
                    self._finish("one-left")
                    return
            self._turn = self._owner = self._next_active(p)
            return
        self._say("reveals", seat=p, treasure=_tname(t))
        if phase == GIFT_SLIDE:
            holders = [
                q
                for q in self._clockwise_from(p)
                if q != p and any(c >> 2 == t for c in self._hands[q] if c < 48)
            ]
            self._ev = (t, *holders)
            self._next_gift_giver()
        elif phase == DANGER_SLIDE:
            if len(self._ev) == 2:
                self._ev = (*self._ev, t)
                return
            a, b, first = self._ev
            if {first, t} == {a, b}:
                self._say("revealed-both", seat=p)
                for named in (a, b):
                    pos = self._find_in_deck(named)
                    if pos < 0:
                        self._say("no-card-of", treasure=_tname(named))
                        continue
                    card = self._decks[self._deck_no][pos]
                    self._gone |= 1 << pos
                    self._add_card(p, card)
                    self._say("takes-from-deck", seat=p, **_card(card))
                self._end_turn()
            else:
                self._say("missed-both", seat=p)
                self._enter_give(DANGER_GIVE)
        elif phase == MIRAGE_SLIDE:
            neighbour, card = self._ev
            if t == card >> 2:
                self._say("keeps", seat=p, **_card(card))
                self._end_turn()
            else:
                self._remove_card(p, card)
                self._add_card(neighbour, card)
                self._say("returns", seat=p, seat_to=neighbour, **_card(card))
                self._ev = (neighbour,)
                self._enter_give(MIRAGE_GIVE)
        else:  # POKER_SLIDE: the opponent slides
            opponent, named = self._ev
            owner = self._owner
            if t == named:
                self._take_random(opponent, owner)
            else:
                self._take_random(owner, opponent)
            self._end_turn()

    # -- cards --------------------------------------------------------------------

    def _add_card(self, p: int, card: int) -> None:
        hands = list(self._hands)
        hands[p] = tuple(sorted((*hands[p], card)))
        self._hands = tuple(hands)

    def _remove_card(self, p: int, card: int) -> None:
        hands = list(self._hands)
        h = list(hands[p])
        h.remove(card)
        hands[p] = tuple(h)
        self._hands = tuple(hands)

    def _give(self, giver: int, card: int, to: int) -> None:
        self._remove_card(giver, card)
        self._add_card(to, card)
        self._say("gives", seat=giver, seat_to=to, **_card(card))

    def _take_random(self, taker: int, victim: int) -> None:
        """``taker`` draws a card at random from ``victim``'s hand (a chance event)."""
        hand = self._hands[victim]
        if not hand:
            self._say("no-card-to-lose", seat=victim)
            return
        card = hand[self._chance(len(hand))]
        self._remove_card(victim, card)
        self._add_card(taker, card)
        self._say("takes-at-random", seat=taker, seat_from=victim, **_card(card))

    def _take_sought(self, p: int) -> None:
        card = self._card
        self._add_card(p, card)
        self._say("takes", seat=p, **_card(card))
        if self._card_deck == 1:
            self._rot = (self._rot + 1) & 3
            self._say("box-quarter-turn")

    def _find_in_deck(self, treasure: int) -> int:
        deck = self._decks[self._deck_no]
        for pos in range(self._pos, len(deck)):
            if not self._gone >> pos & 1 and deck[pos] < 48 and deck[pos] >> 2 == treasure:
                return pos
        return -1

    def _give_options(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Distinct cards the player to move may give, and the seats that may receive."""
        phase = self._phase
        hand = self._hands[self._turn]
        if phase == GIFT_GIVE:
            t = self._ev[0]
            return tuple(sorted({c for c in hand if c < 48 and c >> 2 == t})), (self._owner,)
        if phase == DANGER_GIVE:
            return tuple(sorted(set(hand))), self._opponents(self._turn)
        if phase == MIRAGE_GIVE:
            return tuple(sorted(set(hand))), (self._ev[0],)
        return (), ()

    def _enter_give(self, phase: int) -> None:
        """Ask for a card to give, or give it at once when there is no choice."""
        self._phase = phase
        cards, to = self._give_options()
        if not cards or not to:
            self._say("no-card-to-give", seat=self._turn)
            self._after_give()
        elif len(cards) == 1 and len(to) == 1:
            self._give(self._turn, cards[0], to[0])
            self._after_give()

    def _after_give(self) -> None:
        if self._phase == GIFT_GIVE:
            self._ev = (self._ev[0], *self._ev[2:])
            self._next_gift_giver()
        else:
            self._end_turn()

    def _next_gift_giver(self) -> None:
        if len(self._ev) == 1:
            self._turn = self._owner
            self._end_turn()
            return
        self._turn = self._ev[1]
        self._enter_give(GIFT_GIVE)

    # -- turns and decks ------------------------------------------------------------

    def _opponents(self, p: int) -> tuple[int, ...]:
        return tuple(q for q in self._clockwise_from(p) if q != p)

    def _clockwise_from(self, p: int) -> list[int]:
        """Active seats in turn order starting after ``p`` (``p`` itself last, if active)."""
        n = self.players
        return [q for q in ((p + i) % n for i in range(1, n + 1)) if not self._out >> q & 1]

    def _next_active(self, p: int) -> int:
        n = self.players
        q = (p + 1) % n
        while self._out >> q & 1:
            q = (q + 1) % n
        return q

    def _prev_active(self, p: int) -> int:
        n = self.players
        q = (p - 1) % n
        while self._out >> q & 1:
            q = (q - 1) % n
        return q

    @property
    def active_count(self) -> int:
        """Players still in the game (not eliminated in deck 3)."""
        return self.players - bin(self._out).count("1")

    def _end_turn(self) -> None:
        """The card of ``_owner`` is resolved: the next player draws."""
        self._draw(self._next_active(self._owner))

    def _next_card(self) -> int:
        """The next card of the current deck (moving on to the next deck), or -1."""
        while True:
            deck = self._decks[self._deck_no]
            pos = self._pos
            gone = self._gone
            while pos < len(deck) and gone >> pos & 1:
                pos += 1
            if pos < len(deck):
                self._pos = pos + 1
                return deck[pos]
            self._pos = pos
            if self._deck_no == 2:
                return -1
            self._deck_no += 1
            self._pos = 0
            self._gone = 0

    def _draw(self, p: int) -> None:
        """Player ``p`` draws; resolve until someone must decide something."""
        while True:
            card = self._next_card()
            if card < 0:
                self._say("deck-used-up")
                self._finish("deck-empty")
                return
            self._turn = self._owner = p
            self._card = card
            self._card_deck = self._deck_no
            self._ev = ()
            if card < 48:
                self._say("draws", seat=p, deck=self._deck_no + 1, **_card(card))
            else:
                self._say("draws-event", seat=p, event=EVENT_NAMES[card], deck=self._deck_no + 1)
            if card < 48:
                if self.visible_treasure == card >> 2:
                    self._say("already-visible", treasure=_tname(card >> 2))
                    self._take_sought(p)
                    p = self._next_active(p)
                    continue
                self._phase = SEARCH
                return
            if card == SANDSTORM:
                self._rot = (self._rot + 2) & 3
                self._say("box-half-turn")
                continue
            if card == GAME_OVER:
                self._finish("game-over-card")
                return
            if card == GIFT:
                self._phase = GIFT_SLIDE
                return
            if card == DANGER:
                self._phase = DANGER_NAME
                return
            if card == POKER:
                self._phase = POKER_NAME
                return
            # MIRAGE
            neighbour = self._prev_active(p)
            hand = self._hands[neighbour]
            if not hand:
                self._say("mirage-fades", seat=neighbour)
                p = self._next_active(p)
                continue
            taken = hand[self._chance(len(hand))]
            self._remove_card(neighbour, taken)
            self._add_card(p, taken)
            self._say("takes-at-random", seat=p, seat_from=neighbour, **_card(taken))
            self._ev = (neighbour, taken)
            self._phase = MIRAGE_SLIDE
            return

    def _finish(self, reason: str) -> None:
        self._phase = OVER
        self._end = reason

    def _say(self, code: str, **params: Param) -> None:
        """Log a news line: a code of :data:`NEWS` and its parameters (rendered by views)."""
        self._news = (self._news, (self._ply, code, params))

    # -- copying and scoring -------------------------------------------------------

    def copy(self) -> TreasureState:
        o = TreasureState.__new__(TreasureState)
        self._copy_base(o)
        o._tokens = self._tokens
        o._colors = self._colors
        o._empty = self._empty
        o._rot = self._rot
        o._decks = self._decks
        o._deck_no = self._deck_no
        o._pos = self._pos
        o._gone = self._gone
        o._hands = self._hands
        o._out = self._out
        o._turn = self._turn
        o._owner = self._owner
        o._phase = self._phase
        o._card = self._card
        o._card_deck = self._card_deck
        o._ev = self._ev
        o._known = self._known
        o._reveals = self._reveals
        o._slides = self._slides
        o._news = self._news
        o._end = self._end
        return o

    def scores(self) -> list[int]:
        return [sum(card_points(c) for c in h) for h in self._hands]

    # -- read-only accessors (public knowledge only, except token_at) ---------------

    @property
    def rotation(self) -> int:
        """Quarter turns clockwise the box has made since the start (0..3)."""
        return self._rot

    @property
    def empty_spot(self) -> int:
        """Internal index of the one spot without a pyramid."""
        return self._empty

    @property
    def visible_token(self) -> int:
        """The token under the empty spot: 0 blank, ``t + 1`` treasure ``t``."""
        return self._tokens[self._empty]

    @property
    def visible_treasure(self) -> int:
        """The treasure visible now, or -1 if the visible token is blank."""
        return self._tokens[self._empty] - 1

    @property
    def phase(self) -> str:
        """What the player to move must do (``"search"``, ``"danger-name"``, ...)."""
        return PHASE_NAMES[self._phase]

    @property
    def sought(self) -> int:
        """The card being sought or resolved (card type), -1 once over."""
        return -1 if self._phase == OVER else self._card

    @property
    def slides(self) -> int:
        """Pyramids slid so far in the game."""
        return self._slides

    @property
    def end_reason(self) -> str:
        """Why the game ended (``"game-over-card"``, ``"deck-empty"``, ``"one-left"``,
        ``"slide-limit"``), or ``""`` while it runs."""
        return self._end

    def hand(self, p: int) -> tuple[int, ...]:
        """Card types taken by seat ``p`` (face up on the table)."""
        return self._hands[p]

    def is_out(self, p: int) -> bool:
        """True once seat ``p`` has been eliminated in deck 3."""
        return bool(self._out >> p & 1)

    def pyramid_count(self) -> int:
        """Pyramids on the board (always 47)."""
        c = self._colors
        return sum(1 for s in range(SPOTS) if (c >> (s << 1)) & 3)

    def token_at(self, spot: int) -> int:
        """The (possibly hidden) token at ``spot``. For tests and tools, not for agents."""
        return self._tokens[spot]

    def reveal_history(self) -> list[tuple[int, int]]:
        """``(ply, spot)`` of every reveal, oldest first (ply 0 = the start)."""
        return [(ply, s) for ply, s, _ in _unlink(self._reveals)]

    def last_reveals(self) -> tuple[int, ...]:
        """Per spot, the ply of its last reveal (-1: never revealed). Public knowledge.

        Why memoized: the history is a persistent list of every reveal, and a
        spot's last reveal can lie thousands of slides back, so walking it for
        every observation (the research adapters ask after every step) cost
        more than the game. Every state of one game shares the older part of
        its list, so the table of the node a state extends is nearly always
        known already: only the reveals since are walked.
        """
        return self._reveal_tables()[0]

    def known_tokens(self) -> tuple[int, ...]:
        """Per spot, its token if it was ever revealed (public then), else -1."""
        return self._reveal_tables()[1]

    def _reveal_tables(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        log = self._reveals
        memo = _LAST_REVEALS
        hit = memo.get(id(log))
        if hit is not None and hit[0] is log:
            return hit[1], hit[2]
        newer: list[tuple[int, int, int]] = []
        node = log
        while node is not None:
            hit = memo.get(id(node))
            if hit is not None and hit[0] is node:
                table = list(hit[1])
                break
            newer.append(node[1])
            node = node[0]
        else:
            table = [-1] * SPOTS
        for ply, spot, _ in reversed(newer):
            table[spot] = ply
        last = tuple(table)
        tokens = self._tokens
        known = tuple(tokens[s] if p >= 0 else -1 for s, p in enumerate(last))
        if len(memo) >= _LAST_REVEALS_MAX:
            memo.clear()
        memo[id(log)] = (log, last, known)
        return last, known

    def known_token(self, spot: int) -> int:
        """The token at ``spot`` if it was ever revealed (public then), else -1."""
        return self._tokens[spot] if self._known >> spot & 1 else -1

    @property
    def deck_number(self) -> int:
        """The deck being drawn from, 1..3 (public)."""
        return self._deck_no + 1

    @property
    def owner(self) -> int:
        """The seat whose search or event card is being resolved."""
        return self._owner

    def field_treasures(self) -> list[int | None]:
        """Per field, the treasure it is known to hold (``None``: not known yet).

        Every field's treasure is public unless ``shuffle_fields``; then it is
        known once a spot of the field has shown a treasure.
        """
        if not self.variant["shuffle_fields"]:
            return list(range(FIELDS))
        out: list[int | None] = []
        for f in range(FIELDS):
            found = [s for s in FIELD_SPOTS[f] if self._known >> s & 1 and self._tokens[s] != BLANK]
            out.append(self._tokens[found[0]] - 1 if found else None)
        return out

    def deck_left(self) -> list[int]:
        """The cards still in the current deck, as card types in ascending order (public)."""
        current = self._decks[self._deck_no]
        gone = self._gone
        return sorted(current[i] for i in range(self._pos, len(current)) if not gone >> i & 1)

    def decks_left(self) -> list[int]:
        """Cards left in each of the three decks (public)."""
        left = len(self.deck_left())
        return [
            left if d == self._deck_no else (len(self._decks[d]) if d > self._deck_no else 0)
            for d in range(3)
        ]

    def event_view(self) -> dict[str, Any] | None:
        """The event under way as the view shows it (``None`` outside events)."""
        event: dict[str, Any] | None = None
        ev = self._ev
        phase = self._phase
        if phase in (GIFT_GIVE,):
            event = {"treasure": _tname(ev[0]), "givers": list(ev[1:]), "to": self._owner}
        elif phase == DANGER_SLIDE:
            event = {
                "named": [_tname(ev[0]), _tname(ev[1])],
                "revealed": [_tname(t) for t in ev[2:]],
            }
        elif phase in (MIRAGE_SLIDE, MIRAGE_GIVE):
            event = {"neighbour": ev[0]}
            if phase == MIRAGE_SLIDE:
                event["card"] = CARD_NAMES[ev[1]]
        elif phase == POKER_SLIDE:
            event = {"opponent": ev[0], "treasure": _tname(ev[1]), "challenger": self._owner}
        if phase in GIVE_PHASES:
            cards, to = self._give_options()
            event = {**(event or {}), "may_give": [CARD_NAMES[x] for x in cards], "to": list(to)}
        return event

    # -- hidden information -------------------------------------------------------

    def _spot_info(self, s: int) -> dict[str, Any]:
        return {"spot": VIEW_NAME[self._rot][s], "box": INTERNAL_NAMES[s], "index": s}

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything public: the board as seen now, every token revealed so far, cards.

        Every reveal is seen by the whole table, so the public part is the same
        for all seats; what a player *remembers* of it is modelled by the agents,
        not here. ``revealed`` lists each spot ever revealed (tokens never move,
        so a spot and its token are the whole history) with the ply it was last
        revealed at and how often; ``visible`` is the one token on show now.
        The seat only changes which part of the history is called new:
        ``recent`` (the reveals) and ``news`` (what happened, in words) run from
        the seat's own last slide, so a screen can replay what the table saw
        while others moved; the spectator gets those of the last move. Spot
        names are given as seen now (``spot``) and in box coordinates (``box``,
        ``index``).
        """
        self._check_viewer(player)
        v = self._view_header(player)
        rot = self._rot
        rows, cols = view_dims(rot)
        c = self._colors
        board = []
        order = VIEW_ORDER[rot]
        for r in range(rows):
            board.append(
                "".join(COLOR_CHARS[(c >> (s << 1)) & 3] for s in order[r * cols : (r + 1) * cols])
            )
        # one pass over the reveals, newest first: the last reveal of every spot,
        # how often it was revealed, and what the table saw since this seat last slid
        since = self._ply if player is None else 0
        recent: list[tuple[int, int, int]] = []
        looking = True
        last: dict[int, list[int]] = {}
        log = self._reveals
        while log is not None:
            log, item = log
            ply, s, who = item
            seen = last.get(s)
            if seen is None:
                last[s] = [ply, 1]
            else:
                seen[1] += 1
            if looking:
                if player is None and ply < since:
                    looking = False
                elif ply > 0:
                    recent.append(item)
                if who == player or len(recent) == RECENT_LIMIT:
                    since = ply
                    looking = False
        recent.reverse()
        news: list[dict[str, Any]] = []
        log = self._news
        while log is not None:
            log, (ply, code, params) = log
            if ply < since or len(news) == RECENT_LIMIT:
                break
            news.append(news_item(code, params, self.names))
        news.reverse()
        revealed = []
        for s in sorted(last):
            ply, times = last[s]
            info = self._spot_info(s)
            info.update({"token": TOKEN_NAMES[self._tokens[s]], "ply": ply, "times": times})
            revealed.append(info)
        visible = self._spot_info(self._empty)
        visible["token"] = TOKEN_NAMES[self._tokens[self._empty]]
        fields = [
            {
                "treasure": None if t is None else TREASURES[t].name,
                "spots": [VIEW_NAME[rot][s] for s in FIELD_SPOTS[f]],
            }
            for f, t in enumerate(self.field_treasures())
        ]
        over = self._phase == OVER
        search = None
        if not over:
            card = self._card
            search = {"card": CARD_NAMES[card], "owner": self._owner}
            if card < 48:
                search.update({"treasure": TREASURES[card >> 2].name, "points": card_points(card)})
        event = self.event_view()
        phase = self._phase
        left = sorted(CARD_NAMES[c] for c in self.deck_left())
        v.update(
            {
                "rotation": rot,
                "rows": rows,
                "cols": cols,
                "board": board,
                "visible": visible,
                "revealed": revealed,
                "fields": fields,
                "phase": PHASE_NAMES[phase],
                "search": search,
                "event": event,
                "deck": self.deck_number,
                "deck_left": left,
                "decks_left": self.decks_left(),
                "hands": [[CARD_NAMES[x] for x in h] for h in self._hands],
                "eliminated": [bool(self._out >> p & 1) for p in range(self.players)],
                "slides": self._slides,
                "news": news,
                "recent": [
                    {**self._spot_info(s), "token": TOKEN_NAMES[self._tokens[s]], "player": who}
                    for _, s, who in recent
                ],
                "end": self._end or None,
            }
        )
        return v

    def determinize(self, player: int | None, rng: Rng) -> TreasureState:
        """Re-hide what nobody has seen: unrevealed treasure spots and the deck order.

        Each field keeps a treasure it was seen to hold; otherwise its treasure
        (any treasure not yet seen, if ``shuffle_fields``) goes to a random spot
        of the field not revealed so far. Remaining cards of each deck are
        shuffled among their own positions, since every deck's contents are
        public and only the order is hidden.
        """
        self._check_viewer(player)
        other = self.copy()
        other._rng = rng.fork()
        known = self._known
        tokens = [BLANK] * SPOTS
        open_fields = []
        for f in range(FIELDS):
            seen = [s for s in FIELD_SPOTS[f] if known >> s & 1 and self._tokens[s] != BLANK]
            if seen:
                tokens[seen[0]] = self._tokens[seen[0]]
            else:
                open_fields.append(f)
        if self.variant["shuffle_fields"]:
            placed = {self._tokens[s] for s in range(SPOTS) if tokens[s] != BLANK}
            free = [t + 1 for t in range(N_TREASURES) if t + 1 not in placed]
            rng.shuffle(free)
        else:
            free = [f + 1 for f in open_fields]
        for f, token in zip(open_fields, free, strict=True):
            spots = [s for s in FIELD_SPOTS[f] if not known >> s & 1]
            tokens[spots[rng.below(len(spots))]] = token
        other._tokens = tuple(tokens)
        decks = []
        for d, deck in enumerate(self._decks):
            if d < self._deck_no:
                decks.append(deck)
                continue
            start, gone = (self._pos, self._gone) if d == self._deck_no else (0, 0)
            where = [i for i in range(start, len(deck)) if not gone >> i & 1]
            # Sorted first: the result must depend on what the seat knows (which
            # cards are left), never on the hidden order they are in.
            cards = sorted(deck[i] for i in where)
            rng.shuffle(cards)
            new = list(deck)
            for i, card in zip(where, cards, strict=True):
                new[i] = card
            decks.append(tuple(new))
        other._decks = tuple(decks)
        base, guessed_tokens, guessed_decks = self._setup, other._tokens, other._decks

        def setup() -> dict[str, Any]:
            out = dict(base)
            out["tokens"] = _token_rows(guessed_tokens)
            out["decks"] = [[CARD_NAMES[x] for x in d] for d in guessed_decks]
            return out

        other._setup = LazySetup(setup)
        other.seed = None
        return other

    def setup(self) -> Mapping[str, Any]:
        """The explicit setup (a guess's is written out only now: see :mod:`..lazy`)."""
        return plain_setup(self._setup)


def _token_rows(tokens: Sequence[int]) -> list[list[str]]:
    return [[TOKEN_NAMES[tokens[r * COLS + c]] for c in range(COLS)] for r in range(ROWS)]


class TreasureGame(Game[TreasureMove]):
    """Pyramido treasure hunt: slide pyramids to find the treasure on your card."""

    id = "pyramido-treasure"
    title = "Pyramido: the treasure hunt"
    min_players = 2
    max_players = 5
    summary = "Slide the pyramids to find the pharaoh's treasures: remember what you saw."
    options = (
        first_player_option(),
        Option(
            "shuffle_fields",
            False,
            bool,
            "Deal the twelve treasures to the twelve fields at random. Default: every "
            "field holds its own treasure (the rulebook lets players choose only the "
            "spot inside a field); only the spot within the field is random.",
        ),
        Option(
            "game_over_card",
            True,
            bool,
            "Shuffle the game-over card into deck 3 (the rulebook's game). Off: the card is "
            "taken out, as the rulebook allows when younger players take part, and the game "
            "ends when deck 3 runs out.",
        ),
        Option(
            "slide_limit",
            0,
            int,
            "The game ends after this many slides in all (0 = no limit). A guard against "
            "a hunt that never ends; players who remember need far fewer.",
            minimum=0,
        ),
    )

    #: tokens, colours and decks are shuffled; what lies under a pyramid is unseen
    chance = True
    hidden_information = True
    #: a perfect memory is no fair opponent for people: the forgetful one first
    opponents = ("child", "greedy")

    def score_bounds(
        self, players: int, variant: Mapping[str, VariantValue]
    ) -> tuple[float, float]:
        """From nothing to every treasure card of the three decks."""
        return 0.0, float(sum(card_points(c) for deck in DECKS for c in deck))

    def max_game_length(self, players: int, variant: Mapping[str, VariantValue]) -> int | None:
        """Unbounded unless ``slide_limit``: each slide is a move, naming and giving a few more."""
        limit = int(variant["slide_limit"])
        return limit + 1_000 if limit else None

    # -- setup --------------------------------------------------------------------

    def make_setup(
        self, players: int, variant: Mapping[str, VariantValue], rng: Rng
    ) -> dict[str, Any]:
        """Token layout, pyramid colours, the three shuffled decks and the first player."""
        first = draw_first_player(variant, players, rng)
        treasure_of_field = list(range(N_TREASURES))
        if variant["shuffle_fields"]:
            rng.shuffle(treasure_of_field)
        tokens = [BLANK] * SPOTS
        for f in range(FIELDS):
            spots = FIELD_SPOTS[f]
            tokens[spots[rng.below(len(spots))]] = treasure_of_field[f] + 1
        blanks = [s for s in range(SPOTS) if tokens[s] == BLANK]
        empty = blanks[rng.below(len(blanks))]
        colours = [1 + (i % 3) for i in range(SPOTS - 1)]
        rng.shuffle(colours)
        colours.insert(empty, 0)
        decks = []
        for deck in _decks_of(variant):
            cards = list(deck)
            rng.shuffle(cards)
            decks.append([CARD_NAMES[x] for x in cards])
        return {
            "tokens": _token_rows(tokens),
            "pyramids": [
                "".join(COLOR_CHARS[colours[r * COLS + c]] for c in range(COLS))
                for r in range(ROWS)
            ],
            "decks": decks,
            "first_player": first,
        }

    def from_setup(
        self, setup: Mapping[str, Any], players: int, variant: Mapping[str, VariantValue]
    ) -> TreasureState:
        if not isinstance(setup, Mapping):
            raise RecordError("setup", "must be an object")
        tokens = _read_tokens(setup.get("tokens"), bool(variant["shuffle_fields"]))
        colours, empty = _read_pyramids(setup.get("pyramids"))
        if tokens[empty] != BLANK:
            raise RecordError(
                "setup.pyramids",
                "the empty spot {spot} must be on a blank token",
                spot=INTERNAL_NAMES[empty],
            )
        decks = _read_decks(setup.get("decks"), _decks_of(variant))
        first = check_first_player(setup, players, variant)
        state = TreasureState.__new__(TreasureState)
        state._init_base(setup, players, variant)
        state._tokens = tokens
        state._colors = colours
        state._empty = empty
        state._rot = 0
        state._decks = decks
        state._deck_no = 0
        state._pos = 0
        state._gone = 0
        state._hands = tuple(() for _ in range(players))
        state._out = 0
        state._turn = state._owner = first
        state._phase = SEARCH
        state._card = -1
        state._card_deck = 0
        state._ev = ()
        state._known = 1 << empty
        state._reveals = (None, (0, empty, first))
        state._slides = 0
        state._news = None
        state._end = ""
        state._draw(first)
        return state

    # -- notation -------------------------------------------------------------------

    def move_to_str(self, state: State[TreasureMove], move: TreasureMove) -> str:
        """Slides as the players see the board (``e2``; turned: ``e2=C4`` adds the box name);
        ``name sphinx mummy``; ``poker p2 lamp``; ``give mummy/2 to p3``."""
        kind = move.kind
        if kind == "slide":
            rot = state.rotation if isinstance(state, TreasureState) else 0
            seen = VIEW_NAME[rot][move.a]
            return seen if rot == 0 else f"{seen}={INTERNAL_NAMES[move.a]}"
        if kind == "name":
            return f"name {_tname(move.a)} {_tname(move.b)}"
        if kind == "poker":
            return f"poker p{move.a + 1} {_tname(move.b)}"
        return f"give {CARD_NAMES[move.a]} to p{move.b + 1}"

    def parse_move(self, state: State[TreasureMove], text: str) -> TreasureMove:
        """Read a move; spot names follow the board as the players see it now."""
        if not isinstance(state, TreasureState):
            raise NotationError("not a treasure-hunt position", text)
        words = text.strip().lower().split()
        if not words:
            raise NotationError("type a move: a spot like c4, or see 'moves'", text)
        head = words[0]
        if len(words) == 1:
            return self._parse_slide(state, head, text)
        if head == "name" and len(words) == 3:
            a, b = (_treasure_word(w, text) for w in words[1:])
            if a == b:
                raise NotationError("name two different treasures", text)
            return TreasureMove("name", min(a, b), max(a, b))
        if head == "poker" and len(words) == 3:
            return TreasureMove(
                "poker", _seat_word(words[1], state.players, text), _treasure_word(words[2], text)
            )
        if head == "give" and len(words) in (2, 3, 4):
            card = CARD_BY_NAME.get(words[1])
            if card is None or card >= 48:
                raise NotationError(
                    "'{word}' is not a treasure card like mummy/2", text, word=words[1]
                )
            rest = [w for w in words[2:] if w != "to"]
            if rest:
                to = _seat_word(rest[0], state.players, text)
            else:
                _, seats = state._give_options()
                if not seats:
                    # not a typo but the wrong moment: let the rules say why
                    return TreasureMove("give", card, -1)
                if len(seats) != 1:
                    raise NotationError("say who receives the card: give mummy/2 to p2", text)
                to = seats[0]
            return TreasureMove("give", card, to)
        raise NotationError(
            "'{text}' is not a move: type a spot like c4, 'name sphinx mummy', "
            "'poker p2 lamp' or 'give mummy/2 to p2'",
            text,
            text=text,
        )

    def _parse_slide(self, state: TreasureState, word: str, text: str) -> TreasureMove:
        seen, eq, box = word.partition("=")
        rot = state.rotation
        spot = SPOT_BY_VIEW[rot].get(seen)
        if spot is None:
            rows, cols = view_dims(rot)
            raise NotationError(
                "'{word}' is not a spot: columns a-{last_column}, rows 1-{rows} "
                "as you see the board",
                text,
                word=seen,
                last_column=chr(ord("a") + cols - 1),
                rows=rows,
            )
        if eq and SPOT_BY_INTERNAL.get(box.upper()) != spot:
            raise NotationError(
                "{spot} as the board is seen now is {box} in box coordinates, not {given}",
                text,
                spot=seen,
                box=INTERNAL_NAMES[spot],
                given=box.upper(),
            )
        return SLIDES[spot]


def _treasure_word(word: str, text: str) -> int:
    t = parse_treasure(word)
    if t is None:
        raise NotationError(
            "'{word}' is not a treasure (treasures: {choices})",
            text,
            word=word,
            choices=", ".join(tr.name for tr in TREASURES),
        )
    return t


def _seat_word(word: str, players: int, text: str) -> int:
    w = word[1:] if word.startswith("p") else word
    if not w.isdigit() or not 1 <= int(w) <= players:
        raise NotationError(
            "'{word}' is not a player: p1 to p{count}", text, word=word, count=players
        )
    return int(w) - 1


# -- reading a setup -------------------------------------------------------------------


def _read_tokens(rows: Any, shuffled: bool) -> tuple[int, ...]:
    if not isinstance(rows, list) or len(rows) != ROWS:
        raise RecordError(
            "setup.tokens", "must be {rows} rows of {cols} token names", rows=ROWS, cols=COLS
        )
    tokens: list[int] = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != COLS:
            raise RecordError(f"setup.tokens[{r}]", "must list {cols} token names", cols=COLS)
        for c, name in enumerate(row):
            token = TOKEN_BY_NAME.get(name) if isinstance(name, str) else None
            if token is None:
                raise RecordError(
                    f"setup.tokens[{r}][{c}]",
                    "{value} is not 'blank' or a treasure name",
                    value=repr(name),
                )
            tokens.append(token)
    for f in range(FIELDS):
        inside = [tokens[s] for s in FIELD_SPOTS[f] if tokens[s] != BLANK]
        if len(inside) != 1:
            raise RecordError(
                "setup.tokens", "field {number} must hold exactly one treasure token", number=f
            )
        if not shuffled and inside[0] != f + 1:
            raise RecordError(
                "setup.tokens",
                "field {number} must hold the {treasure} (variant shuffle_fields is off)",
                number=f,
                treasure=TREASURES[f].name,
            )
    if sorted(t for t in tokens if t != BLANK) != list(range(1, N_TREASURES + 1)):
        raise RecordError("setup.tokens", "must hold every treasure exactly once")
    return tuple(tokens)


def _read_pyramids(rows: Any) -> tuple[int, int]:
    if not isinstance(rows, list) or len(rows) != ROWS:
        raise RecordError(
            "setup.pyramids",
            "must be {rows} strings of {cols} of R, Y, B, '.'",
            rows=ROWS,
            cols=COLS,
        )
    colours = 0
    empties = []
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != COLS or any(ch not in "RYB." for ch in row):
            raise RecordError(f"setup.pyramids[{r}]", "must be {cols} of R, Y, B or '.'", cols=COLS)
        for c, ch in enumerate(row):
            s = r * COLS + c
            if ch == ".":
                empties.append(s)
            colours |= COLOR_CHARS.index(ch) << (s << 1)
    if len(empties) != 1:
        raise RecordError("setup.pyramids", "exactly one spot must be empty ('.')")
    return colours, empties[0]


def _decks_of(variant: Mapping[str, VariantValue]) -> tuple[tuple[int, ...], ...]:
    """The three decks this variant plays with (deck 3 without the game-over card if off)."""
    if variant.get("game_over_card", True):
        return DECKS
    return (*DECKS[:2], tuple(c for c in DECKS[2] if c != GAME_OVER))


def _read_decks(decks: Any, expected: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    if not isinstance(decks, list) or len(decks) != 3:
        raise RecordError("setup.decks", "must be the three decks, each a list of card names")
    out = []
    for d, deck in enumerate(decks):
        if not isinstance(deck, list):
            raise RecordError(f"setup.decks[{d}]", "must be a list of card names")
        cards = []
        for i, name in enumerate(deck):
            card = CARD_BY_NAME.get(name) if isinstance(name, str) else None
            if card is None:
                raise RecordError(
                    f"setup.decks[{d}][{i}]", "{value} is not a card name", value=repr(name)
                )
            cards.append(card)
        if sorted(cards) != sorted(expected[d]):
            if d < 2:
                raise RecordError(
                    f"setup.decks[{d}]", "must hold exactly the cards of deck {deck}", deck=d + 1
                )
            raise RecordError(
                f"setup.decks[{d}]",
                "must hold exactly the cards of deck {deck} "
                "(with the game-over card only if variant game_over_card)",
                deck=d + 1,
            )
        out.append(tuple(cards))
    return tuple(out)


GAME = TreasureGame()
TreasureState.game = GAME
