"""Treasure-hunt search knowledge: a careful walker, short playouts, a ranking of moves.

Why this shape. With perfect memory the treasure hunt has little to decide:
a slide has at most four choices, and what matters is (a) reaching the spot
where the sought treasure may lie and (b) not revealing another treasure on
the way, which hands the same card to the opponent. Slides are free, so a
long detour over known blanks beats a short cut over a spot that may hide
another treasure.

* The **walker** plays like a careful player with perfect memory: it reads
  only what the whole table has seen (which spots were ever revealed and
  their tokens, ``_known``), never the determinized tokens of unseen spots,
  so playouts fail where a real player would. It heads for the likeliest spot
  of a treasure it wants along the path least likely to reveal another one
  (a step costs 1 plus a large multiple of ``-log`` of its survival chance:
  risk first, length only to break ties).
* **Playouts are short** (:data:`LIMIT` plies): the current card's hunt is
  what a slide decides; later cards are luck that only adds noise. The
  cut-off position is scored by the card points held plus a share of the
  card still being sought, for its seeker.
* **Candidates**: at slides only the walker's steps that are about as good as
  its best (usually one, and then MCTS plays it without searching);
  ``greedy``'s ranking, cut to a few, when naming treasures or an opponent
  (66 pairs otherwise). The search is thus left the near-ties and the events.
* **Decide** (``hard``): no tree at all. Slides as ``greedy``; each event
  option played to the end of its card in a few sampled worlds
  (:func:`decide`), which the short playouts above cannot see.

Everything here is a pure function of public information (the known spots,
their tokens, hands, the phase), cached by that information, so the hidden-
information test holds and repeated positions inside a search are cheap.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Hashable
from typing import Any

from pyramids.ai.greedy.pyramido_treasure import TreasureMemoryAgent
from pyramids.ai.policies import GamePolicy
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.games.pyramido_treasure import SLIDES, TreasureMove, TreasureState
from pyramids.games.pyramido_treasure.board import FIELD, FIELD_SPOTS, FIELDS, NEIGHBOURS, SPOTS
from pyramids.games.pyramido_treasure.phases import (
    DANGER_NAME,
    DANGER_SLIDE,
    GIFT_SLIDE,
    GIVE_PHASES,
    MIRAGE_SLIDE,
    POKER_NAME,
    POKER_SLIDE,
    SEARCH,
    SLIDE_PHASES,
    DangerEvent,
    MirageEvent,
    PokerEvent,
)
from pyramids.games.pyramido_treasure.treasures import (
    N_TREASURES,
    card_points,
    card_treasure,
    is_treasure_card,
)

#: plies a playout runs before the position is scored (a hunt takes about 4 slides)
LIMIT = 16
#: share of the sought card's points credited to its seeker when a playout stops
PENDING = 0.6
#: cost of a step per unit of ``-log(survival)``: risk first, length breaks ties
RISK = 200.0
#: plan-cost margin of the slides a search node may try (see :func:`close_steps`)
MARGIN = 1.5
#: chance of a random move in playouts (so that playouts of one guess differ)
NOISE = 0.05
#: candidates kept when naming (danger: two treasures; poker: opponent and treasure)
TOP_NAMES = 6
#: utility scale: a lead of this many points is worth tanh(1) of a win
SCALE = 8.0

_CACHE_MAX = 50_000
_plan_cache: dict[Any, tuple[list[float], list[float]]] = {}
_mask_cache: dict[tuple[int, ...], int] = {}


def _treasure_mask(tokens: tuple[int, ...]) -> int:
    """Bitmask of the spots holding a treasure token in this layout."""
    mask = _mask_cache.get(tokens)
    if mask is None:
        if len(_mask_cache) > 10_000:
            _mask_cache.clear()
        mask = sum(1 << s for s in range(SPOTS) if tokens[s])
        _mask_cache[tokens] = mask
    return mask


def wanted(state: TreasureState) -> tuple[int, ...]:
    """The treasures the player to move wants to reveal now (empty: none in particular)."""
    phase = state._phase
    ev = state._ev
    if phase == SEARCH:
        return (card_treasure(state._card),)
    if phase == DANGER_SLIDE and isinstance(ev, DangerEvent):
        named = (ev.treasure_a, ev.treasure_b)
        return tuple(t for t in named if t not in ev.revealed) or named
    if phase == MIRAGE_SLIDE and isinstance(ev, MirageEvent):
        return (card_treasure(ev.card),)
    if phase == POKER_SLIDE and isinstance(ev, PokerEvent):
        return (ev.treasure,)
    if phase == GIFT_SLIDE:
        me = state._turn
        counts = [0] * N_TREASURES
        for p, hand in enumerate(state._hands):
            if p != me and not state.is_out(p):
                for t in {card_treasure(c) for c in hand if is_treasure_card(c)}:
                    counts[t] += 1
        top = max(counts)
        return tuple(t for t in range(N_TREASURES) if counts[t] == top) if top else ()
    return ()


def _public_key(state: TreasureState, want: tuple[int, ...]) -> tuple[Any, ...]:
    """Everything the walker's plan depends on besides the empty spot, all of it public."""
    known = state._known
    located = known & _treasure_mask(state._tokens)
    shuffled = bool(state.variant["shuffle_fields"])
    extra: tuple[int, ...] = ()
    if shuffled:
        extra = tuple(state._tokens[s] for s in range(SPOTS) if located >> s & 1)
    return (known, located, want, shuffled, extra)


def _chances(state: TreasureState, want: tuple[int, ...]) -> tuple[list[float], list[float]]:
    """Per spot: chance of a wanted treasure, chance of another treasure (public belief)."""
    known = state._known
    tokens = state._tokens
    shuffled = bool(state.variant["shuffle_fields"])
    good = [0.0] * SPOTS
    bad = [0.0] * SPOTS
    solved = set()
    seen_treasures = set()
    for s in range(SPOTS):
        if known >> s & 1 and tokens[s]:
            t = tokens[s] - 1
            solved.add(FIELD[s])
            seen_treasures.add(t)
            if t in want:
                good[s] = 1.0
            else:
                bad[s] = 1.0
    free = [t for t in range(N_TREASURES) if t not in seen_treasures]
    wanted_share = sum(1 for t in free if t in want) / len(free) if free else 0.0
    for f in range(FIELDS):
        if f in solved:
            continue
        spots = [s for s in FIELD_SPOTS[f] if not known >> s & 1]
        if not spots:
            continue
        p = 1.0 / len(spots)
        share = wanted_share if shuffled else (1.0 if f in want else 0.0)
        for s in spots:
            good[s] = p * share
            bad[s] = p * (1.0 - share)
    return good, bad


def _plan(state: TreasureState, want: tuple[int, ...]) -> tuple[list[float], list[float]]:
    """Step cost per spot, and the cheapest cost from each spot to a likeliest wanted spot.

    One multi-source Dijkstra from the likeliest spots (moving the empty spot
    from ``n`` onto ``s`` costs ``cost[s]``). It does not depend on where the
    empty spot is, so it is cached by the public information alone and
    reused for every step of a walk over known spots.
    """
    key = _public_key(state, want)
    hit = _plan_cache.get(key)
    if hit is not None:
        return hit
    good, bad = _chances(state, want)
    # a known other treasure is almost a wall
    cost = [1.0 + (RISK * -math.log(1.0 - b) if b < 1.0 else RISK * 50.0) for b in bad]
    top = max(good)
    dist = [0.0] * SPOTS
    if top > 0.0:
        dist = [math.inf] * SPOTS
        heap = []
        for s in range(SPOTS):
            if good[s] >= top - 1e-12:
                dist[s] = 0.0
                heap.append((0.0, s))
        heapq.heapify(heap)
        while heap:
            d, s = heapq.heappop(heap)
            if d > dist[s]:
                continue
            nd = d + cost[s]
            for n in NEIGHBOURS[s]:
                if nd < dist[n]:
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n))
    if len(_plan_cache) > _CACHE_MAX:
        _plan_cache.clear()
    plan = _plan_cache[key] = (cost, dist)
    return plan


def ranked_steps(state: TreasureState) -> list[int]:
    """The spots next to the empty one, best slide first, for the player to move.

    Best: toward the nearest likeliest spot of a wanted treasure along the
    path least likely to reveal another treasure. With nothing in particular
    wanted, the safest steps first.
    """
    cost, dist = _plan(state, wanted(state))
    return sorted(NEIGHBOURS[state._empty], key=lambda n: (cost[n] + dist[n], n))


def close_steps(state: TreasureState) -> list[int]:
    """The walker's best steps: those within :data:`MARGIN` of the best plan cost.

    Why not all four: playouts cannot tell a step toward the target from a
    step away from it (both end in the same hunt a few plies later), so with
    every step open the search wanders (a game of ~800 slides at 100
    iterations instead of ~80). It is left to choose among routes the
    walker finds about equal, and at event decisions.
    """
    cost, dist = _plan(state, wanted(state))
    value = {n: cost[n] + dist[n] for n in NEIGHBOURS[state._empty]}
    best = min(value.values())
    return sorted((n for n in value if value[n] <= best + MARGIN), key=lambda n: (value[n], n))


def _expected_distance(state: TreasureState, t: int) -> float:
    """Slides the empty spot needs, on average over the public belief, to reach treasure ``t``."""
    good, _ = _chances(state, (t,))
    e = state._empty
    er, ec = divmod(e, 8)
    total = sum(good)
    if total <= 0:
        return 99.0
    return sum(g * (abs(s // 8 - er) + abs(s % 8 - ec)) for s, g in enumerate(good)) / total


def _name_order(state: TreasureState, moves: list[TreasureMove]) -> list[TreasureMove]:
    """Danger: the easiest pair first; poker: the leader, then the hardest treasure."""
    ease = [_expected_distance(state, t) for t in range(N_TREASURES)]
    if state._phase == DANGER_NAME:
        return sorted(moves, key=lambda m: (ease[m.treasure_a] + ease[m.treasure_b], m))
    scores = state.scores()
    return sorted(moves, key=lambda m: (-scores[m.opponent], -ease[m.treasure], m))


def candidates(state: State[Any], moves: list[Any]) -> list[Any]:
    """The moves a search node grows, best first (see the module docstring)."""
    assert isinstance(state, TreasureState)
    phase = state._phase
    if phase in SLIDE_PHASES:
        legal = set(moves)
        return [SLIDES[n] for n in close_steps(state) if SLIDES[n] in legal]
    if phase in (DANGER_NAME, POKER_NAME):
        return _name_order(state, moves)[:TOP_NAMES]
    if phase in GIVE_PHASES:
        # the cheapest card to the poorest opponent first
        scores = state.scores()
        return sorted(moves, key=lambda m: (card_points(m.card), scores[m.to], m))
    return list(moves)


def playout(state: State[Any], rng: Rng) -> Hashable:
    """The walker's slide (rarely a random one); event choices as ``candidates`` rank them."""
    assert isinstance(state, TreasureState)
    moves = state.legal_moves()
    if rng.random() < NOISE:
        return moves[rng.below(len(moves))]
    if state._phase in SLIDE_PHASES:
        return SLIDES[ranked_steps(state)[0]]
    move: Hashable = candidates(state, moves)[0]
    return move


#: plies an event option's playout may take before it is scored as it stands
#: (a card is settled in a few dozen; this only stops a runaway)
SETTLE_HORIZON = 300


def decide(
    state: State[Any],
    moves: list[Any],
    seat: int,
    rng: Rng,
    worlds: int,
    deadline: float | None,
) -> Hashable | None:
    """Every treasure-hunt choice without a tree: slides as ``greedy``, events by flat Monte Carlo.

    Why not the tree. An event's choice (the two treasures named in danger,
    the opponent and treasure of desert poker, the card given) shows its worth
    only when the card is settled, after every player's hunt for it, often
    long after :data:`LIMIT` plies, so a 16-ply playout scores most options
    alike; and with perfect memory a slide leaves little to search (the
    walker's near-ties). Measured at every table (``docs/ai.md``, "Events by
    flat Monte Carlo"): this decision beat the tree's at 3 and 4 players and
    matched it (within the noise) at 5 and 2, thinking 30-45 times less.

    * **Slides**: ``greedy``'s own (its memory rebuilt from the seat's view).
    * **Events**: each option (all names for danger and poker, in ``greedy``'s
      order; the cards to give as :func:`candidates` ranks them) is played out
      to the end of the card being resolved, by ``greedy`` in every seat, in
      the same ``worlds`` worlds sampled from this seat's knowledge
      (``determinize``: hidden tokens, the decks' order and the chance draws
      guessed, never read), and scored by the seat's points minus the best
      other seat's. Every option meets the same worlds and the same random
      stream in each, so their differences are the options'; the first option
      in order wins ties. At least one world is played, and another only
      if it would end by ``deadline`` at the pace of those before.
    """
    assert isinstance(state, TreasureState)
    if state._phase in SLIDE_PHASES:
        return TreasureMemoryAgent().choose(state, rng)
    guess = state.determinize(seat, rng.fork())  # the rankings read public knowledge only
    if state._phase in (DANGER_NAME, POKER_NAME):
        options = _name_order(guess, moves)  # all of them: the tree's shortlist cut is 6
    else:
        options = candidates(guess, moves)
    if len(options) == 1:
        only: Hashable = options[0]
        return only
    totals = [0.0] * len(options)
    started = time.perf_counter()
    for done in range(worlds):
        if done and deadline is not None:
            # another world only if one more like those so far ends by the deadline
            # (naming two treasures, one world of 55 options can take a second)
            now = time.perf_counter()
            if now + (now - started) / done > deadline:
                break
        world = state.determinize(seat, rng.fork())
        stream = rng.next_u64()
        for k, option in enumerate(options):
            trial = world.copy()
            trial.play(option)
            _settle(trial, state._owner, state._card, Rng(stream))
            scores = trial.scores()
            totals[k] += scores[seat] - max(v for q, v in enumerate(scores) if q != seat)
    best = max(range(len(options)), key=lambda k: (totals[k], -k))
    chosen: Hashable = options[best]
    return chosen


def _settle(trial: TreasureState, owner: int, card: int, rng: Rng) -> None:
    """Play ``trial`` on, a fresh ``greedy`` per seat, until ``owner``'s ``card`` is settled."""
    players: dict[int, TreasureMemoryAgent] = {}
    for _ in range(SETTLE_HORIZON):
        if trial.is_over or trial._owner != owner or trial._card != card:
            return
        p = trial._turn
        agent = players.get(p)
        if agent is None:
            agent = players[p] = TreasureMemoryAgent()
        move = agent.choose(trial, rng)
        assert isinstance(move, TreasureMove)
        trial.play(move)


def evaluate(state: State[Any]) -> list[float]:
    """Card points held, plus a share of the card still sought for its seeker."""
    assert isinstance(state, TreasureState)
    scores = [float(x) for x in state.scores()]
    if state._phase == SEARCH and is_treasure_card(state._card):
        scores[state._turn] += PENDING * card_points(state._card)
    return scores


POLICY = GamePolicy(
    playout=playout,
    playout_limit=LIMIT,
    evaluate=evaluate,
    candidates=candidates,
    decide=decide,
    score_scale=SCALE,
    summary=(
        "careful walker from public knowledge (risk first), 16-ply playouts scored by "
        "points held plus a share of the sought card; search only among the walker's near-ties"
    ),
)
