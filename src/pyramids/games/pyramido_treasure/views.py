"""Treasure-hunt views: the JSON a web app or terminal draws everything from.

Every reveal is seen by the whole table, so the public part is the same for
all seats; what a player *remembers* of it is modelled by the agents, not
here. ``revealed`` lists each spot ever revealed (tokens never move, so a
spot and its token are the whole history) with the ply it was last revealed
at and how often; ``visible`` is the one token on show now. The seat only
changes which part of the history is called new: ``recent`` (the reveals) and
``news`` (what happened, in words) run from the seat's own last slide, so a
screen can replay what the table saw while others moved; the spectator gets
those of the last move. Spot names are given as seen now (``spot``) and in
box coordinates (``box``, ``index``). ``limit`` bounds ``recent`` and ``news``
(see ``game.RECENT_LIMIT``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pyramids.games.pyramido_treasure.board import (
    FIELD_SPOTS,
    INTERNAL_NAMES,
    VIEW_NAME,
    VIEW_ORDER,
    view_dims,
)
from pyramids.games.pyramido_treasure.news import news_item
from pyramids.games.pyramido_treasure.phases import (
    DANGER_SLIDE,
    GIFT_GIVE,
    GIVE_PHASES,
    MIRAGE_GIVE,
    MIRAGE_SLIDE,
    OVER,
    PHASE_NAMES,
    POKER_SLIDE,
    DangerEvent,
    GiftEvent,
    MirageEvent,
    PokerEvent,
)
from pyramids.games.pyramido_treasure.setups import COLOR_CHARS
from pyramids.games.pyramido_treasure.treasures import (
    CARD_NAMES,
    TOKEN_NAMES,
    TREASURES,
    card_points,
    card_treasure,
    is_treasure_card,
)

if TYPE_CHECKING:
    from pyramids.games.pyramido_treasure.game import TreasureState


class RevealSummary(NamedTuple):
    """What one pass over the reveals (newest first) finds for a viewer."""

    #: per spot ever revealed: [ply of its last reveal, times revealed]
    last: dict[int, list[int]]
    #: (ply, spot, seat) of the reveals the viewer has not seen yet, oldest first
    recent: list[tuple[int, int, int]]
    #: the ply the viewer's news start at
    since: int


def full_view(
    state: TreasureState, header: dict[str, Any], player: int | None, limit: int
) -> dict[str, Any]:
    """The view of ``player`` (``None``: a spectator) on top of the engine's ``header``."""
    rot = state._rot
    rows, cols = view_dims(rot)
    reveals = summarize_reveals(state, player, limit)
    header.update(
        {
            "rotation": rot,
            "rows": rows,
            "cols": cols,
            "board": board_rows(state),
            "visible": spot_token(VIEW_NAME[rot], state._tokens, state._empty),
            "revealed": revealed_spots(state, reveals.last),
            "fields": fields_view(state),
            "phase": PHASE_NAMES[state._phase],
            "search": search_view(state),
            "event": event_view(state),
            "deck": state.deck_number,
            "deck_left": sorted(CARD_NAMES[c] for c in state.deck_left()),
            "decks_left": state.decks_left(),
            "hands": [[CARD_NAMES[x] for x in h] for h in state._hands],
            "eliminated": [state.is_out(p) for p in range(state.players)],
            "slides": state._slides,
            "news": news_since(state, reveals.since, limit),
            "recent": recent_reveals(state, reveals.recent),
            "end": state._end or None,
        }
    )
    return header


def spot_token(names: Sequence[str], tokens: Sequence[int], s: int) -> dict[str, Any]:
    """Spot ``s`` named as seen now (``spot``, from ``names``) and in the box's frame
    (``box``, ``index``), and its token."""
    return {"spot": names[s], "box": INTERNAL_NAMES[s], "index": s, "token": TOKEN_NAMES[tokens[s]]}


def board_rows(state: TreasureState) -> list[str]:
    """The pyramids row by row as the players see the box now (``.``: the gap)."""
    rot = state._rot
    rows, cols = view_dims(rot)
    c = state._colors
    order = VIEW_ORDER[rot]
    return [
        "".join(COLOR_CHARS[(c >> (s << 1)) & 3] for s in order[r * cols : (r + 1) * cols])
        for r in range(rows)
    ]


def summarize_reveals(state: TreasureState, player: int | None, limit: int) -> RevealSummary:
    """One pass over the reveals, newest first: every spot's last reveal and count, and
    what the table saw since ``player`` last slid (the spectator: since the last move),
    at most ``limit`` reveals."""
    since = state._ply if player is None else 0
    recent: list[tuple[int, int, int]] = []
    looking = True
    last: dict[int, list[int]] = {}
    log = state._reveals
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
            if who == player or len(recent) == limit:
                since = ply
                looking = False
    recent.reverse()
    return RevealSummary(last, recent, since)


def news_since(state: TreasureState, since: int, limit: int) -> list[dict[str, Any]]:
    """The news lines from ply ``since`` on (the newest ``limit`` at most), oldest first."""
    news: list[dict[str, Any]] = []
    log = state._news
    while log is not None:
        log, (ply, code, params) = log
        if ply < since or len(news) == limit:
            break
        news.append(news_item(code, params, state.names))
    news.reverse()
    return news


def revealed_spots(state: TreasureState, last: dict[int, list[int]]) -> list[dict[str, Any]]:
    """Every spot ever revealed, in box order: its token, last ply and times revealed."""
    names, tokens = VIEW_NAME[state._rot], state._tokens
    out = []
    for s in sorted(last):
        entry = spot_token(names, tokens, s)
        entry["ply"], entry["times"] = last[s]
        out.append(entry)
    return out


def recent_reveals(
    state: TreasureState, recent: list[tuple[int, int, int]]
) -> list[dict[str, Any]]:
    """The reveals new to the viewer, oldest first: spot, token and the seat that slid."""
    names, tokens = VIEW_NAME[state._rot], state._tokens
    out = []
    for _, s, who in recent:
        entry = spot_token(names, tokens, s)
        entry["player"] = who
        out.append(entry)
    return out


def fields_view(state: TreasureState) -> list[dict[str, Any]]:
    """Per field: the treasure it is known to hold (or ``None``) and its spots as seen now."""
    names = VIEW_NAME[state._rot]
    return [
        {
            "treasure": None if t is None else _name(t),
            "spots": [names[s] for s in FIELD_SPOTS[f]],
        }
        for f, t in enumerate(state.field_treasures())
    ]


def search_view(state: TreasureState) -> dict[str, Any] | None:
    """The card being sought or resolved and whose it is (``None`` once over)."""
    if state._phase == OVER:
        return None
    card = state._card
    search: dict[str, Any] = {"card": CARD_NAMES[card], "owner": state._owner}
    if is_treasure_card(card):
        search["treasure"] = _name(card_treasure(card))
        search["points"] = card_points(card)
    return search


def event_view(state: TreasureState) -> dict[str, Any] | None:
    """The event under way (``None`` outside events); at a give, what may be given to whom."""
    event: dict[str, Any] | None = None
    ev = state._ev
    phase = state._phase
    if phase == GIFT_GIVE and isinstance(ev, GiftEvent):
        event = {"treasure": _name(ev.treasure), "givers": list(ev.givers), "to": state._owner}
    elif phase == DANGER_SLIDE and isinstance(ev, DangerEvent):
        event = {
            "named": [_name(ev.treasure_a), _name(ev.treasure_b)],
            "revealed": [_name(t) for t in ev.revealed],
        }
    elif phase == MIRAGE_SLIDE and isinstance(ev, MirageEvent):
        event = {"neighbour": ev.neighbour, "card": CARD_NAMES[ev.card]}
    elif phase == MIRAGE_GIVE and isinstance(ev, MirageEvent):
        event = {"neighbour": ev.neighbour}
    elif phase == POKER_SLIDE and isinstance(ev, PokerEvent):
        event = {
            "opponent": ev.opponent,
            "treasure": _name(ev.treasure),
            "challenger": state._owner,
        }
    if phase in GIVE_PHASES:
        cards, to = state._give_options()
        event = {**(event or {}), "may_give": [CARD_NAMES[x] for x in cards], "to": list(to)}
    return event


def _name(treasure: int) -> str:
    return TREASURES[treasure].name
