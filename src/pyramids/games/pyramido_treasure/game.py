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

The package's other modules: ``board`` (spots, fields, turned views),
``treasures`` (treasures, cards, decks), ``moves``, ``phases`` (the decision
awaited and the event under way), ``notation``, ``setups`` (writing and
reading a setup), ``views`` and ``news``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

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
from pyramids.games.pyramido_treasure import notation
from pyramids.games.pyramido_treasure.board import (
    FIELD_SPOTS,
    FIELDS,
    INTERNAL_NAMES,
    NEIGHBOUR_MASK,
    NEIGHBOURS,
    SPOTS,
    VIEW_NAME,
)
from pyramids.games.pyramido_treasure.moves import (
    GIVE,
    KINDS,
    NAME,
    POKER,
    SLIDE,
    SLIDES_FROM,
    MoveKind,
    TreasureMove,
    give_move,
    name_move,
    poker_move,
)
from pyramids.games.pyramido_treasure.phases import (
    AWAITS,
    DANGER_GIVE,
    DANGER_NAME,
    DANGER_SLIDE,
    GIFT_GIVE,
    GIFT_SLIDE,
    MIRAGE_GIVE,
    MIRAGE_SLIDE,
    OVER,
    PHASE_NAMES,
    POKER_NAME,
    POKER_SLIDE,
    SEARCH,
    SLIDE_PHASES,
    DangerEvent,
    Event,
    GiftEvent,
    MirageEvent,
    Phase,
    PokerEvent,
)
from pyramids.games.pyramido_treasure.setups import (
    decks_of,
    pyramid_rows,
    read_decks,
    read_pyramids,
    read_tokens,
    token_rows,
)
from pyramids.games.pyramido_treasure.treasures import (
    BLANK,
    CARD_NAMES,
    CARD_POINTS,
    DANGER,
    DECKS,
    EVENT_NAMES,
    GAME_OVER,
    GIFT,
    N_TREASURES,
    SANDSTORM,
    TREASURES,
    card_points,
    card_treasure,
    is_treasure_card,
)
from pyramids.games.pyramido_treasure.treasures import (
    POKER as POKER_CARD,
)
from pyramids.games.pyramido_treasure.views import event_view, full_view

#: at most this many reveals (and news lines) in a view's ``recent`` (``news``): they run
#: from the seat's own last slide, so a seat that is out, or never slides, would
#: otherwise get the whole game's history in every view (the board has 48 spots)
RECENT_LIMIT = 48


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
#: (id of a deck, position, cards taken out of order) -> (the deck, the cards left, sorted);
#: see ``deck_left``
_DECK_LEFT: dict[tuple[int, int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
_DECK_LEFT_MAX = 1 << 14
#: id of a tuple of hands -> (the hands, each seat's card points); see ``scores``
_SCORES: dict[int, tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]] = {}
_SCORES_MAX = 1 << 14


def _tname(t: int) -> str:
    return TREASURES[t].name


def _card_params(card: int) -> dict[str, Param]:
    """The parameters naming a treasure card in news: its treasure and points."""
    return {"treasure": TREASURES[card_treasure(card)].name, "points": card_points(card)}


#: Why a move is refused when the phase awaits another kind of move:
#: ``_NOT_NOW[kind awaited][kind tried]()`` (kind awaited ``None``: the game is over). One
#: complete sentence per pair, so that each is a message of its own for translation; each
#: is built only when raised.
_NOT_NOW: dict[MoveKind | None, dict[MoveKind, Callable[[], IllegalMove]]] = {
    SLIDE: {
        NAME: lambda: IllegalMove(
            "not-naming", "no treasures to name now: the player must slide a pyramid"
        ),
        POKER: lambda: IllegalMove(
            "not-naming", "no opponent to name now: the player must slide a pyramid"
        ),
        GIVE: lambda: IllegalMove(
            "not-giving", "nobody gives a card now: the player must slide a pyramid"
        ),
    },
    NAME: {
        SLIDE: lambda: IllegalMove(
            "not-sliding", "no sliding now: the player must name two treasures"
        ),
        POKER: lambda: IllegalMove(
            "not-naming", "no opponent to name now: the player must name two treasures"
        ),
        GIVE: lambda: IllegalMove(
            "not-giving", "nobody gives a card now: the player must name two treasures"
        ),
    },
    POKER: {
        SLIDE: lambda: IllegalMove(
            "not-sliding", "no sliding now: the player must name an opponent and a treasure"
        ),
        NAME: lambda: IllegalMove(
            "not-naming",
            "no treasures to name now: the player must name an opponent and a treasure",
        ),
        GIVE: lambda: IllegalMove(
            "not-giving",
            "nobody gives a card now: the player must name an opponent and a treasure",
        ),
    },
    GIVE: {
        SLIDE: lambda: IllegalMove(
            "not-sliding", "no sliding now: the player must choose a card to give"
        ),
        NAME: lambda: IllegalMove(
            "not-naming", "no treasures to name now: the player must choose a card to give"
        ),
        POKER: lambda: IllegalMove(
            "not-naming", "no opponent to name now: the player must choose a card to give"
        ),
    },
    None: {
        SLIDE: lambda: IllegalMove("not-sliding", "no sliding now: the game is over"),
        NAME: lambda: IllegalMove("not-naming", "no treasures to name now: the game is over"),
        POKER: lambda: IllegalMove("not-naming", "no opponent to name now: the game is over"),
        GIVE: lambda: IllegalMove("not-giving", "nobody gives a card now: the game is over"),
    },
}


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
    _phase: Phase
    _card: int
    _card_deck: int
    #: the event under way, if it needs more than one decision (see ``phases``)
    _ev: Event
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
                name_move(a, b)
                for a in range(N_TREASURES)
                for b in range(a + 1, N_TREASURES)
                if seen not in (a, b)
            ]
        if phase == POKER_NAME:
            seen = self.visible_treasure
            return [
                poker_move(o, t)
                for o in self._opponents(self._turn)
                for t in range(N_TREASURES)
                if t != seen
            ]
        cards, to = self._give_options()
        return [give_move(c, p) for c in cards for p in to]

    # -- checking ---------------------------------------------------------------------

    def _check(self, move: TreasureMove) -> None:
        kind = move.kind if isinstance(move, TreasureMove) else ""
        awaited = AWAITS[self._phase]
        if kind != awaited or awaited is None:
            if kind not in KINDS:
                raise IllegalMove(
                    "not-a-move", "{move} is not a treasure-hunt move", move=repr(move)
                )
            raise _NOT_NOW[awaited][kind]()
        if kind == SLIDE:
            s = move.spot
            if not (isinstance(s, int) and 0 <= s < SPOTS and NEIGHBOUR_MASK[self._empty] >> s & 1):
                raise self._not_adjacent(s)
        elif kind == NAME:
            self._check_name(move.treasure_a, move.treasure_b)
        elif kind == POKER:
            self._check_poker(move.opponent, move.treasure)
        else:
            self._check_give(move.card, move.to)

    def _check_name(self, a: int, b: int) -> None:
        if not (0 <= a < b < N_TREASURES):
            raise IllegalMove("bad-treasures", "name two different treasures")
        if self.visible_treasure in (a, b):
            raise IllegalMove(
                "treasure-visible",
                "the {treasure} is visible: name treasures that are not visible",
                treasure=_tname(self.visible_treasure),
            )

    def _check_poker(self, opponent: int, treasure: int) -> None:
        if opponent not in self._opponents(self._turn):
            raise IllegalMove("bad-opponent", "name an opponent who is still in the game")
        if not 0 <= treasure < N_TREASURES:
            raise IllegalMove("bad-treasures", "name one of the twelve treasures")
        if treasure == self.visible_treasure:
            raise IllegalMove(
                "treasure-visible",
                "the {treasure} is visible: name a treasure that is not visible",
                treasure=_tname(treasure),
            )

    def _check_give(self, card: int, to: int) -> None:
        cards, seats = self._give_options()
        ev = self._ev
        if card not in cards:
            if isinstance(ev, GiftEvent) and self._phase == GIFT_GIVE:
                raise IllegalMove(
                    "bad-card",
                    "you must give a card of the {treasure}",
                    treasure=_tname(ev.treasure),
                )
            raise IllegalMove("bad-card", "you can only give a card you hold")
        if to not in seats:
            if self._phase == DANGER_GIVE:
                raise IllegalMove(
                    "bad-recipient",
                    "that player cannot receive the card here: "
                    "give it to an opponent still in the game",
                )
            raise IllegalMove(
                "bad-recipient",
                "that player cannot receive the card here: it goes to {recipient}",
                recipient=self.names[seats[0]],
            )

    def _not_adjacent(self, s: object) -> IllegalMove:
        """Why a slide from ``s`` is refused, in the spot names the players see now.

        The spots next to the gap (two to four) are one ``alternatives`` parameter,
        which each face joins with its language's "or".
        """
        names = VIEW_NAME[self._rot]
        gap = names[self._empty]
        near = " ".join(sorted(names[n] for n in NEIGHBOURS[self._empty]))
        if s == self._empty:
            return IllegalMove(
                "not-adjacent",
                "{gap} is the gap itself: slide a pyramid into it from {alternatives}",
                gap=gap,
                alternatives=near,
            )
        return IllegalMove(
            "not-adjacent",
            "{spot} is not next to the gap at {gap}: only a pyramid orthogonally next "
            "to the gap can slide into it (from {alternatives})",
            spot=names[s] if isinstance(s, int) and 0 <= s < SPOTS else repr(s),
            gap=gap,
            alternatives=near,
        )

    # -- applying ---------------------------------------------------------------------

    def _apply(self, move: TreasureMove) -> None:
        kind = move.kind
        if kind == SLIDE:
            self._slide(move.spot)
        elif kind == NAME:
            self._ev = DangerEvent(move.treasure_a, move.treasure_b)
            self._phase = DANGER_SLIDE
            self._say(
                "names-treasures",
                seat=self._turn,
                treasure_a=_tname(move.treasure_a),
                treasure_b=_tname(move.treasure_b),
            )
        elif kind == POKER:
            opponent = move.opponent
            self._ev = PokerEvent(opponent, move.treasure)
            self._say(
                "challenges",
                seat=self._turn,
                seat_opponent=opponent,
                treasure=_tname(move.treasure),
            )
            self._turn = opponent
            self._phase = POKER_SLIDE
        else:
            self._give(self._turn, move.card, move.to)
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
        """Treasure ``t`` shows under the pyramid just slid: what it does in this phase."""
        phase = self._phase
        p = self._turn
        if phase == SEARCH:
            self._search_reveal(p, t)
            return
        self._say("reveals", seat=p, treasure=_tname(t))
        ev = self._ev
        if phase == GIFT_SLIDE:
            holders = tuple(
                q
                for q in self._clockwise_from(p)
                if q != p and any(self._is_card_of(c, t) for c in self._hands[q])
            )
            self._ev = GiftEvent(t, holders)
            self._next_gift_giver()
        elif phase == DANGER_SLIDE:
            assert isinstance(ev, DangerEvent)
            self._danger_reveal(p, ev, t)
        elif phase == MIRAGE_SLIDE:
            assert isinstance(ev, MirageEvent)
            self._mirage_reveal(p, ev, t)
        else:  # POKER_SLIDE: the opponent slides
            assert isinstance(ev, PokerEvent)
            owner = self._owner
            if t == ev.treasure:
                self._take_random(ev.opponent, owner)
            else:
                self._take_random(owner, ev.opponent)
            self._end_turn()

    @staticmethod
    def _is_card_of(card: int, treasure: int) -> bool:
        return is_treasure_card(card) and card_treasure(card) == treasure

    def _search_reveal(self, p: int, t: int) -> None:
        """The seeker found the sought treasure, or revealed another (and may be out)."""
        sought = card_treasure(self._card)
        if t == sought:
            self._say("finds", seat=p, treasure=_tname(t))
            self._take_sought(p)
            self._draw(self._next_active(p))
            return
        self._say("reveals-wrong", seat=p, treasure=_tname(t), treasure_sought=_tname(sought))
        if self._card_deck == 2 and self.players >= 4:
            self._out |= 1 << p
            self._say("out", seat=p)
            if self.active_count < 2:
                self._finish("one-left")
                return
        self._turn = self._owner = self._next_active(p)

    def _danger_reveal(self, p: int, ev: DangerEvent, t: int) -> None:
        """The first reveal is noted; at the second, both named ones win their cards."""
        if not ev.revealed:
            self._ev = ev._replace(revealed=(t,))
            return
        named = (ev.treasure_a, ev.treasure_b)
        if {ev.revealed[0], t} != set(named):
            self._say("missed-both", seat=p)
            self._enter_give(DANGER_GIVE)
            return
        self._say("revealed-both", seat=p)
        for treasure in named:
            pos = self._find_in_deck(treasure)
            if pos < 0:
                self._say("no-card-of", treasure=_tname(treasure))
                continue
            card = self._decks[self._deck_no][pos]
            self._gone |= 1 << pos
            self._add_card(p, card)
            self._say("takes-from-deck", seat=p, **_card_params(card))
        self._end_turn()

    def _mirage_reveal(self, p: int, ev: MirageEvent, t: int) -> None:
        """The card taken is kept if its treasure shows, else it goes back and one more."""
        card = ev.card
        if t == card_treasure(card):
            self._say("keeps", seat=p, **_card_params(card))
            self._end_turn()
            return
        self._remove_card(p, card)
        self._add_card(ev.neighbour, card)
        self._say("returns", seat=p, seat_to=ev.neighbour, **_card_params(card))
        self._enter_give(MIRAGE_GIVE)

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
        self._say("gives", seat=giver, seat_to=to, **_card_params(card))

    def _take_random(self, taker: int, victim: int) -> None:
        """``taker`` draws a card at random from ``victim``'s hand (a chance event)."""
        hand = self._hands[victim]
        if not hand:
            self._say("no-card-to-lose", seat=victim)
            return
        card = hand[self._chance(len(hand))]
        self._remove_card(victim, card)
        self._add_card(taker, card)
        self._say("takes-at-random", seat=taker, seat_from=victim, **_card_params(card))

    def _take_sought(self, p: int) -> None:
        card = self._card
        self._add_card(p, card)
        self._say("takes", seat=p, **_card_params(card))
        if self._card_deck == 1:
            self._rot = (self._rot + 1) & 3
            self._say("box-quarter-turn")

    def _find_in_deck(self, treasure: int) -> int:
        deck = self._decks[self._deck_no]
        for pos in range(self._pos, len(deck)):
            if not self._gone >> pos & 1 and self._is_card_of(deck[pos], treasure):
                return pos
        return -1

    def _give_options(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Distinct cards the player to move may give, and the seats that may receive."""
        phase = self._phase
        hand = self._hands[self._turn]
        ev = self._ev
        if phase == GIFT_GIVE and isinstance(ev, GiftEvent):
            of_it = {c for c in hand if self._is_card_of(c, ev.treasure)}
            return tuple(sorted(of_it)), (self._owner,)
        if phase == DANGER_GIVE:
            return tuple(sorted(set(hand))), self._opponents(self._turn)
        if phase == MIRAGE_GIVE and isinstance(ev, MirageEvent):
            return tuple(sorted(set(hand))), (ev.neighbour,)
        return (), ()

    def _enter_give(self, phase: Phase) -> None:
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
        ev = self._ev
        if self._phase == GIFT_GIVE and isinstance(ev, GiftEvent):
            self._ev = ev._replace(givers=ev.givers[1:])
            self._next_gift_giver()
        else:
            self._end_turn()

    def _next_gift_giver(self) -> None:
        """Gift: the next holder of the treasure gives a card of it; none left, the turn ends."""
        ev = self._ev
        assert isinstance(ev, GiftEvent)
        if not ev.givers:
            self._turn = self._owner
            self._end_turn()
            return
        self._turn = ev.givers[0]
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
            self._ev = None
            if is_treasure_card(card):
                self._say("draws", seat=p, deck=self._deck_no + 1, **_card_params(card))
                if self.visible_treasure == card_treasure(card):
                    self._say("already-visible", treasure=_tname(card_treasure(card)))
                    self._take_sought(p)
                    p = self._next_active(p)
                    continue
                self._phase = SEARCH
                return
            self._say("draws-event", seat=p, event=EVENT_NAMES[card], deck=self._deck_no + 1)
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
            if card == POKER_CARD:
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
            self._say("takes-at-random", seat=p, seat_from=neighbour, **_card_params(taken))
            self._ev = MirageEvent(neighbour, taken)
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
        """Card points held per seat, remembered per tuple of hands.

        Why remembered: the adapters ask before and after every step, and the
        hands change only when a card is taken (a new tuple of hands then).
        """
        hands = self._hands
        hit = _SCORES.get(id(hands))
        if hit is not None and hit[0] is hands:
            return list(hit[1])
        points = CARD_POINTS.__getitem__
        scores = [sum(map(points, h)) for h in hands]
        if len(_SCORES) >= _SCORES_MAX:
            _SCORES.clear()
        _SCORES[id(hands)] = (hands, tuple(scores))
        return scores

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
                table, tokens_known = list(hit[1]), list(hit[2])
                break
            newer.append(node[1])
            node = node[0]
        else:
            table, tokens_known = [-1] * SPOTS, [-1] * SPOTS
        tokens = self._tokens  # tokens never move: a revealed spot's token is the one there
        for ply, spot, _ in reversed(newer):
            table[spot] = ply
            tokens_known[spot] = tokens[spot]
        last = tuple(table)
        known = tuple(tokens_known)
        if len(memo) >= _LAST_REVEALS_MAX:
            memo.clear()
        memo[id(log)] = (log, last, known)
        return last, known

    def reveals_since(
        self, mark: object, limit: int = 64
    ) -> tuple[object, list[tuple[int, int]] | None]:
        """``(now, new)``: a mark of the reveal history as it is now, and the reveals
        ``(ply, spot)`` made since ``mark``, oldest first. Public knowledge.

        ``mark`` is a mark this method returned before (or ``None``: the start).
        ``new`` is ``None`` when ``mark`` is not among this history's last
        ``limit`` reveals (another game, a guess that branched off, a state
        further back, an observer that looked away too long): start again from
        :meth:`last_reveals` then. Why: an observer that keeps what it wrote
        from the reveals it saw last needs only the one or two made since, and
        the history can be thousands of reveals long. The mark is the
        history's own persistent node, compared by identity.
        """
        log = self._reveals
        newer: list[tuple[int, int, int]] = []
        node = log
        while node is not mark:
            if node is None or len(newer) >= limit:
                return log, None
            newer.append(node[1])
            node = node[0]
        return log, [(ply, spot) for ply, spot, _ in reversed(newer)]

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

    def deck_left(self) -> tuple[int, ...]:
        """The cards still in the current deck, as card types in ascending order (public).

        Remembered per deck, position and cards taken out of order, so that the
        same cards left are the same tuple: an observer that asks every step
        (the research adapters) sees by identity that nothing changed, and
        nobody sorts forty cards again.
        """
        current = self._decks[self._deck_no]
        key = (id(current), self._pos, self._gone)
        hit = _DECK_LEFT.get(key)
        if hit is not None and hit[0] is current:
            return hit[1]
        gone = self._gone
        left = tuple(
            sorted(current[i] for i in range(self._pos, len(current)) if not gone >> i & 1)
        )
        if len(_DECK_LEFT) >= _DECK_LEFT_MAX:
            _DECK_LEFT.clear()
        _DECK_LEFT[key] = (current, left)
        return left

    def decks_left(self) -> list[int]:
        """Cards left in each of the three decks (public)."""
        # the current deck's cards from _pos on, less those taken out of order (_gone)
        left = len(self._decks[self._deck_no]) - self._pos - (self._gone >> self._pos).bit_count()
        return [
            left if d == self._deck_no else (len(self._decks[d]) if d > self._deck_no else 0)
            for d in range(3)
        ]

    def event_view(self) -> dict[str, Any] | None:
        """The event under way as the view shows it (``None`` outside events)."""
        return event_view(self)

    # -- hidden information -------------------------------------------------------

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything public: the board as seen now, every token revealed so far, cards.

        See :mod:`.views` for what is in it and why ``recent`` and ``news``
        depend on the seat.
        """
        self._check_viewer(player)
        return full_view(self, self._view_header(player), player, RECENT_LIMIT)

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
        other._tokens = self._guess_tokens(rng)
        other._decks = self._guess_decks(rng)
        base, guessed_tokens, guessed_decks = self._setup, other._tokens, other._decks

        def setup() -> dict[str, Any]:
            out = dict(base)
            out["tokens"] = token_rows(guessed_tokens)
            out["decks"] = [[CARD_NAMES[x] for x in d] for d in guessed_decks]
            return out

        other._setup = LazySetup(setup)
        other.seed = None
        return other

    def _guess_tokens(self, rng: Rng) -> tuple[int, ...]:
        """A token layout that agrees with every spot revealed so far."""
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
        return tuple(tokens)

    def _guess_decks(self, rng: Rng) -> tuple[tuple[int, ...], ...]:
        """The decks with the cards not drawn yet in a new order (each deck's own)."""
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
        return tuple(decks)

    def setup(self) -> Mapping[str, Any]:
        """The explicit setup (a guess's is written out only now: see :mod:`..lazy`)."""
        return plain_setup(self._setup)


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
        for deck in decks_of(variant):
            cards = list(deck)
            rng.shuffle(cards)
            decks.append([CARD_NAMES[x] for x in cards])
        return {
            "tokens": token_rows(tokens),
            "pyramids": pyramid_rows(colours),
            "decks": decks,
            "first_player": first,
        }

    def from_setup(
        self, setup: Mapping[str, Any], players: int, variant: Mapping[str, VariantValue]
    ) -> TreasureState:
        if not isinstance(setup, Mapping):
            raise RecordError("setup", "must be an object")
        tokens = read_tokens(setup.get("tokens"), bool(variant["shuffle_fields"]))
        colours, empty = read_pyramids(setup.get("pyramids"))
        if tokens[empty] != BLANK:
            raise RecordError(
                "setup.pyramids",
                "the empty spot {spot} must be on a blank token",
                spot=INTERNAL_NAMES[empty],
            )
        decks = read_decks(setup.get("decks"), decks_of(variant))
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
        state._ev = None
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
        rotation = state.rotation if isinstance(state, TreasureState) else 0
        return notation.move_to_str(rotation, move)

    def parse_move(self, state: State[TreasureMove], text: str) -> TreasureMove:
        """Read a move; spot names follow the board as the players see it now."""
        if not isinstance(state, TreasureState):
            raise NotationError("not a treasure-hunt position", text)
        return notation.parse_move(state, text)


GAME = TreasureGame()
TreasureState.game = GAME
