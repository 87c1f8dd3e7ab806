"""Review of the treasure hunt against RULINGS.md §2, clause by clause.

Each test here re-derives what the ruling says in its own way (an independent
rotation of the grid, card counts from the ruling's text, seats counted by
hand) instead of reusing the engine's tables, so that a shared mistake in the
engine and its first tests would still show up.
"""

from __future__ import annotations

from collections import Counter

import pytest

import pyramids
from pyramids.cli.games import game_hooks
from pyramids.engine.errors import IllegalMove, NotationError, RecordError
from pyramids.games.pyramido_treasure import TreasureState
from pyramids.games.pyramido_treasure.board import COLS, ROWS, SPOTS
from pyramids.games.pyramido_treasure.treasures import (
    DECKS,
    EVENT_NAMES,
    GAME_OVER,
    card_points,
    is_treasure_card,
)
from tests.pyramido_treasure.helpers import arrange, setup, slide_to, start


def _turn_clockwise(grid: list[list[int]]) -> list[list[int]]:
    """The grid as seen after the box turns a quarter turn clockwise (rows of the new view)."""
    return [list(row) for row in zip(*grid[::-1], strict=True)]


@pytest.mark.parametrize("rotation", [0, 1, 2, 3])
def test_typed_names_follow_an_independently_turned_grid(rotation: int) -> None:
    grid = [[r * COLS + c for c in range(COLS)] for r in range(ROWS)]
    for _ in range(rotation):
        grid = _turn_clockwise(grid)
    state = start(3)
    state._rot = rotation
    view = state.view(0)
    assert (view["rows"], view["cols"]) == (len(grid), len(grid[0]))
    for r, row in enumerate(grid):
        for c, s in enumerate(row):
            name = f"{chr(ord('a') + c)}{r + 1}"
            # the board string is drawn in the same turned frame
            assert (view["board"][r][c] == ".") == (s == state.empty_spot)
            if s in {m.a for m in state.legal_moves()}:
                move = state.parse_move(name)
                assert move.a == s
                assert state.move_to_str(move).split("=")[0] == name
            else:
                with pytest.raises(IllegalMove):
                    state.copy().play(state.parse_move(name))
    # the visible token is named where the gap is drawn
    (gr, gc) = next((r, line.index(".")) for r, line in enumerate(view["board"]) if "." in line)
    assert view["visible"]["spot"] == f"{chr(ord('a') + gc)}{gr + 1}"


def test_deck_contents_match_the_ruling() -> None:
    d1, d2, d3 = DECKS
    assert [len(d) for d in DECKS] == [16, 16, 16]
    t1 = [c for c in d1 if is_treasure_card(c)]
    assert len(t1) == 16 and {card_points(c) for c in t1} == {1}
    per_treasure = Counter(c >> 2 for c in t1)
    assert len(per_treasure) == 12 and sorted(per_treasure.values()) == [1] * 8 + [2] * 4
    t2 = [c for c in d2 if is_treasure_card(c)]
    assert Counter(card_points(c) for c in t2) == {2: 6, 3: 5}
    assert sorted(EVENT_NAMES[c] for c in d2 if not is_treasure_card(c)) == [
        "danger",
        "desert-poker",
        "gift",
        "mirage",
        "sandstorm",
    ]
    t3 = [c for c in d3 if is_treasure_card(c)]
    assert len(t3) == 10 and {card_points(c) for c in t3} == {4}
    assert sorted(EVENT_NAMES[c] for c in d3 if not is_treasure_card(c)) == [
        "danger",
        "desert-poker",
        "game-over",
        "gift",
        "mirage",
        "sandstorm",
    ]
    assert d3.count(GAME_OVER) == 1 and GAME_OVER not in d1 + d2


def test_every_find_in_deck_two_turns_a_quarter_clockwise_and_events_do_not() -> None:
    state = start(3, setup({"mummy": "C2"}))
    arrange(state, deck=2, cards=["sphinx/2", "gift", "mummy/2", "parrot/2"], turn=0)
    slide_to(state, "B1", "A1")  # the sphinx: found
    assert state.rotation == 1
    # gift: any treasure revealed; no turn for it
    slide_to(state, "B1", "C1", "C2")
    # nobody held a mummy card; seat 2 then drew mummy/2 with the mummy visible and
    # took it at once (counts as found, **Ruling**): one more quarter turn, none for the gift
    assert state.hand(2) == (4 + 1,)
    assert state.rotation == 2
    assert state.current_player == 0 and state.phase == "search"
    assert state.view(None)["search"]["card"] == "parrot/2"


def test_mirage_takes_from_the_previous_active_seat() -> None:
    state = start(5)
    state._out = 1 << 1  # seat 1 was eliminated
    hands = {0: ["vase/1"], 1: ["crown/1"], 3: ["lamp/1"]}
    arrange(state, deck=3, cards=["mirage", "parrot/4"], turn=2, hands=hands)
    # right of seat 2 is seat 1 (out), so seat 0; never seat 3 on the left
    assert state.phase == "mirage"
    assert state.view(None)["event"] == {"neighbour": 0, "card": "vase/1"}
    assert state.hand(3) != () and state.hand(1) != ()


def test_poker_cannot_name_an_eliminated_opponent_or_oneself() -> None:
    state = start(4)
    state._out = 1 << 3
    arrange(state, deck=3, cards=["desert-poker", "parrot/4"], turn=0)
    opponents = {m.a for m in state.legal_moves()}
    assert opponents == {1, 2}


def test_elimination_counts_the_players_who_started() -> None:
    """**Ruling**: deck 3 eliminates in a game that started with 4-5 players, even
    once eliminations have left three or fewer in play."""
    state = start(4)
    state._out = 1 << 3
    arrange(state, deck=3, cards=["mummy/4", "parrot/4"], turn=0)
    slide_to(state, "B1", "A1")  # the sphinx, not the mummy
    assert state.is_out(0) and state.active_count == 2
    assert state.current_player == 1


def test_a_slide_away_from_the_gap_names_the_spots_as_seen() -> None:
    state = start(2)  # the gap is at B2
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("h6"))
    assert err.value.rule == "not-adjacent"
    assert "h6" in err.value.message and "b2" in err.value.message
    for name in ("a2", "b1", "c2", "b3"):
        assert name in err.value.message
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("b2"))
    assert "b2" in err.value.message and "gap" in err.value.message


def test_give_outside_a_giving_phase_says_why() -> None:
    state = start(2)
    with pytest.raises(IllegalMove) as err:
        state.play(state.parse_move("give mummy/1"))
    assert err.value.rule == "not-giving"


def test_give_with_several_recipients_asks_for_one() -> None:
    state = start(3)
    arrange(state, deck=2, cards=["danger", "parrot/2"], turn=0, hands={0: ["vase/1"]})
    state.play(state.parse_move("name mummy parrot"))
    slide_to(state, "B1", "A1", "B1", "A1")  # the sphinx twice: failed
    assert state.phase == "danger-give"
    with pytest.raises(NotationError):
        state.parse_move("give vase/1")


def test_move_list_shows_the_names_players_type() -> None:
    describe = game_hooks("pyramido-treasure").describe
    assert describe is not None
    state = start(2)
    state._rot = 1
    view = state.view(0)
    for m in state.legal_moves():
        text = state.move_to_str(m)
        shown = describe(view, text)
        assert "=" not in shown
        assert state.parse_move(shown) == m
    assert describe(view, "give mummy/2 to p2") == "give mummy/2 to p2"


def test_determinize_checks_the_seat() -> None:
    state = pyramids.new_game("pyramido-treasure", players=2, seed=3)
    assert isinstance(state, TreasureState)
    with pytest.raises(ValueError):
        state.determinize(2, pyramids.Rng(1))


def test_no_view_names_a_token_nobody_has_revealed() -> None:
    state = pyramids.new_game("pyramido-treasure", players=3, seed=5, shuffle_fields=True)
    assert isinstance(state, TreasureState)
    rng = pyramids.Rng(9)
    for _ in range(150):
        if state.is_over:
            break
        moves = state.legal_moves()
        state.play(moves[rng.below(len(moves))])
        seen = {s for _, s in state.reveal_history()}
        hidden = [s for s in range(SPOTS) if s not in seen and state.token_at(s)]
        for p in [None, *range(3)]:
            view = state.view(p)
            named = {r["index"] for r in view["revealed"]} | {r["index"] for r in view["recent"]}
            assert named <= seen and view["visible"]["index"] == state.empty_spot
            assert view["deck_left"] == sorted(view["deck_left"])
            known = {r["token"] for r in view["revealed"]}
            shown = {f["treasure"] for f in view["fields"] if f["treasure"] is not None}
            assert shown <= known, "with shuffle_fields a field's treasure shows once seen"
            assert not any(h in named for h in hidden)


def test_without_the_game_over_card_the_game_ends_when_deck_three_runs_out() -> None:
    """The rulebook lets a table take the game-over card out (for younger players);
    with it in, deck 3 can never run out, so that end needs this variant."""
    state = pyramids.new_game("pyramido-treasure", players=2, seed=4, game_over_card=False)
    assert isinstance(state, TreasureState)
    deck3 = state.setup()["decks"][2]
    assert len(deck3) == 15 and "game-over" not in deck3
    assert state.view(None)["decks_left"][2] == 15
    rng = pyramids.Rng(2)
    while not state.is_over:
        moves = state.legal_moves()
        # head for the sought treasure most of the time, so the game gets through the decks
        state.play(min(moves, key=lambda m: _distance_to_sought(state, m.a, rng)))
    assert state.end_reason == "deck-empty"
    assert state.view(None)["decks_left"] == [0, 0, 0]
    with pytest.raises(RecordError) as err:
        pyramids.replay(
            {**state.record(), "variant": {**state.record()["variant"], "game_over_card": True}}
        )
    assert err.value.field == "setup.decks[2]"
    assert pyramids.replay(state.record()).scores() == state.scores()


def _distance_to_sought(state: TreasureState, spot_index: int, rng: pyramids.Rng) -> int:
    if state.phase != "search" or rng.below(4) == 0:
        return rng.below(100)
    target = next(s for s in range(SPOTS) if state.token_at(s) - 1 == state.sought >> 2)
    return abs(spot_index // COLS - target // COLS) + abs(spot_index % COLS - target % COLS)


# -- the whole game against a naive reading of the ruling ------------------------------------


def _near(s: int) -> set[int]:
    r, c = divmod(s, COLS)
    steps = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return {rr * COLS + cc for rr, cc in steps if 0 <= rr < ROWS and 0 <= cc < COLS}


class NaiveHunt:
    """The treasure hunt as RULINGS.md §2 reads, with plain lists and no speed tricks.

    Random cards taken from a hand come from the engine's logged chance outcomes
    (an index into the victim's sorted hand), so both draw the same card.
    """

    def __init__(self, state: TreasureState) -> None:
        self.n = state.players
        self.tokens = [state.token_at(s) for s in range(SPOTS)]
        self.empty = state.empty_spot
        self.rot = 0
        self.decks = [list(d) for d in state._decks]
        self.deck = 0
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.out: set[int] = set()
        self.end: str | None = None
        self.chance: list[tuple[int, int, int]] = []
        self.phase = "search"
        self.givers: list[int] = []
        self.card = self.card_deck = self.turn = self.owner = -1
        self.gift = self.first = self.bet = self.opponent = self.taken = self.right = -1
        self.named: tuple[int, int] = (-1, -1)
        self.draw(int(state.setup()["first_player"]))

    def left_of(self, p: int) -> int:
        q = (p + 1) % self.n
        while q in self.out:
            q = (q + 1) % self.n
        return q

    def right_of(self, p: int) -> int:
        q = (p - 1) % self.n
        while q in self.out:
            q = (q - 1) % self.n
        return q

    def visible(self) -> int:
        return self.tokens[self.empty] - 1

    def add(self, p: int, c: int) -> None:
        self.hands[p] = sorted([*self.hands[p], c])

    def take_random(self, taker: int, victim: int) -> int:
        if not self.hands[victim]:
            return -1
        _ply, choices, outcome = self.chance.pop(0)
        assert choices == len(self.hands[victim])
        c = self.hands[victim][outcome]
        self.hands[victim].remove(c)
        self.add(taker, c)
        return c

    def found(self, p: int) -> None:
        self.add(p, self.card)
        if self.card_deck == 1:
            self.rot = (self.rot + 1) % 4

    def draw(self, p: int) -> None:
        while True:
            if not self.decks[self.deck]:
                if self.deck == 2:
                    self.end, self.phase = "deck-empty", "over"
                    return
                self.deck += 1
                continue
            card = self.decks[self.deck].pop(0)
            self.card, self.card_deck, self.turn, self.owner = card, self.deck, p, p
            if card < 48:
                if self.visible() == card >> 2:
                    self.found(p)
                    p = self.left_of(p)
                    continue
                self.phase = "search"
                return
            name = EVENT_NAMES[card]
            if name == "sandstorm":
                self.rot = (self.rot + 2) % 4
                continue
            if name == "game-over":
                self.end, self.phase = "game-over-card", "over"
                return
            if name == "mirage":
                self.right = self.right_of(p)
                if not self.hands[self.right]:
                    p = self.left_of(p)
                    continue
                self.taken = self.take_random(p, self.right)
            self.phase = {
                "gift": "gift",
                "danger": "danger-name",
                "desert-poker": "poker-name",
            }.get(name, "mirage")
            return

    def legal(self) -> set[tuple[str, int, int]]:
        phase, me = self.phase, self.turn
        others = [q for q in range(self.n) if q != me and q not in self.out]
        if phase in ("search", "gift", "danger", "mirage", "poker"):
            return {("slide", s, -1) for s in _near(self.empty)}
        if phase == "danger-name":
            seen = self.visible()
            return {
                ("name", a, b) for a in range(12) for b in range(a + 1, 12) if seen not in (a, b)
            }
        if phase == "poker-name":
            return {("poker", o, t) for o in others for t in range(12) if t != self.visible()}
        if phase == "gift-give":
            return {("give", c, self.owner) for c in self.hands[me] if c >> 2 == self.gift}
        if phase == "danger-give":
            return {("give", c, o) for c in self.hands[me] for o in others}
        if phase == "mirage-give":
            return {("give", c, self.right) for c in self.hands[me]}
        return set()

    def ask_to_give(self, phase: str) -> None:
        self.phase = phase
        options = self.legal()
        if len(options) == 1:
            ((_, c, to),) = options
            self.hands[self.turn].remove(c)
            self.add(to, c)
        if len(options) <= 1:
            self.after_giving()

    def after_giving(self) -> None:
        if self.phase == "gift-give":
            self.next_giver()
        else:
            self.draw(self.left_of(self.owner))

    def next_giver(self) -> None:
        if not self.givers:
            self.draw(self.left_of(self.owner))
            return
        self.turn = self.givers.pop(0)
        self.ask_to_give("gift-give")

    def play(self, kind: str, a: int, b: int) -> None:
        if kind == "name":
            self.named, self.first, self.phase = (a, b), -1, "danger"
        elif kind == "poker":
            self.opponent, self.bet, self.turn, self.phase = a, b, a, "poker"
        elif kind == "give":
            self.hands[self.turn].remove(a)
            self.add(b, a)
            self.after_giving()
        else:
            self.empty = a
            if self.tokens[a]:
                self.revealed(self.tokens[a] - 1)

    def revealed(self, t: int) -> None:
        p, phase = self.turn, self.phase
        if phase == "search":
            if t == self.card >> 2:
                self.found(p)
                self.draw(self.left_of(p))
                return
            if self.card_deck == 2 and self.n >= 4:
                self.out.add(p)
                if self.n - len(self.out) < 2:
                    self.end, self.phase = "one-left", "over"
                    return
            self.turn = self.owner = self.left_of(p)
        elif phase == "gift":
            self.gift = t
            after = [(p + i) % self.n for i in range(1, self.n)]
            self.givers = [
                q for q in after if q not in self.out and any(c >> 2 == t for c in self.hands[q])
            ]
            self.next_giver()
        elif phase == "danger" and self.first < 0:
            self.first = t
        elif phase == "danger":
            if {self.first, t} == set(self.named):
                for x in self.named:
                    deck = self.decks[self.card_deck]
                    hits = [c for c in deck if c < 48 and c >> 2 == x]
                    if hits:
                        deck.remove(hits[0])
                        self.add(p, hits[0])
                self.draw(self.left_of(p))
            else:
                self.ask_to_give("danger-give")
        elif phase == "mirage":
            if t == self.taken >> 2:
                self.draw(self.left_of(p))
            else:
                self.hands[p].remove(self.taken)
                self.add(self.right, self.taken)
                self.ask_to_give("mirage-give")
        else:  # desert poker: the opponent slid
            if t == self.bet:
                self.take_random(self.opponent, self.owner)
            else:
                self.take_random(self.owner, self.opponent)
            self.draw(self.left_of(self.owner))


@pytest.mark.parametrize("seed", range(40))
def test_engine_agrees_with_a_naive_reading_of_the_ruling(seed: int) -> None:
    players = 2 + seed % 4
    state = pyramids.new_game(
        "pyramido-treasure",
        players=players,
        seed=seed,
        shuffle_fields=seed % 2 == 1,
        game_over_card=seed % 3 != 0,
    )
    assert isinstance(state, TreasureState)
    naive = NaiveHunt(state)
    rng = pyramids.Rng(seed + 5)
    while not state.is_over:
        legal = {(m.kind, m.a, m.b) for m in state.legal_moves()}
        assert legal == naive.legal(), f"ply {state.ply} phase {state.phase}"
        move = min(state.legal_moves(), key=lambda m: _distance_to_sought(state, m.a, rng))
        logged = len(list(state.chance_outcomes()))
        state.play(move)
        naive.chance = list(state.chance_outcomes())[logged:]
        naive.play(move.kind, move.a, move.b)
        assert naive.chance == []
        assert [list(state.hand(p)) for p in range(players)] == naive.hands, f"ply {state.ply}"
        assert (state.phase, state.end_reason or None) == (naive.phase, naive.end)
        if not state.is_over:
            assert (state.current_player, state.rotation) == (naive.turn, naive.rot)
            assert [state.is_out(p) for p in range(players)] == [
                p in naive.out for p in range(players)
            ]
