"""Nothing leaves the server about a game but what ``view(seat)`` shows that seat.

Two angles: (1) for random states of every game, player count and seat, every
message the room builds (snapshot, broadcast event, missed events) carries
exactly that seat's view and, for the seat to move only, its legal moves, plus
public room facts; and a state that differs only in what the seat cannot see
(``determinize``) gives the very same message. (2) Over a live server, every
message received by every seat and a spectator during a whole game is checked
against a mirror of the game.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pyramids
from pyramids.engine.registry import game_ids, get_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.server.protocol import PublicSeat, snapshot_message
from pyramids.server.rooms import Connection, Room, hash_token
from pyramids.server.storage import EventRow, RoomRow, SeatRow
from tests.server.client import Session, create, move
from tests.server.conftest import LiveServer

SNAPSHOT_KEYS = {
    "type",
    "room",
    "game",
    "title",
    "version",
    "seat",
    "seats",
    "can_undo",
    "view",
    "legal",
    # public facts about the deal: its commitment (a hash, see server/fair.py) and
    # whether the room is a practice room
    "commitment",
    "practice",
    # public facts of the table: its clocks and the seats that left by the clock ruling
    "clock",
    "left",
}
EVENT_KEYS = {"type", "room", "version", "event", "can_undo", "view", "legal", "reply_to"}
EVENT_KEYS |= {"clock", "left"}
SEAT_KEYS = {"seat", "name", "kind", "agent", "level"}

CASES = [
    (g, n) for g in game_ids() for n in range(get_game(g).min_players, get_game(g).max_players + 1)
]


def _random_state(
    game_id: str, players: int, seed: int, plies: int
) -> tuple[State[Any], list[str]]:
    state = pyramids.new_game(game_id, players=players, seed=seed)
    rng = Rng(seed + 1)
    texts = []
    while not state.is_over and state.ply < plies:
        moves = state.legal_moves()
        m = moves[rng.below(len(moves))]
        texts.append(state.move_to_str(m))
        state.play(m)
    return state, texts


def _legal(state: State[Any], seat: int | None) -> list[str] | None:
    if seat is None or state.is_over or state.current_player != seat:
        return None
    return [state.move_to_str(m) for m in state.legal_moves()]


def check_message(msg: dict[str, Any], state: State[Any], seat: int | None) -> None:
    """``msg`` holds ``seat``'s view, its legal moves if it is to move, and public facts only."""
    allowed = SNAPSHOT_KEYS if msg["type"] == "snapshot" else EVENT_KEYS
    assert set(msg) <= allowed, set(msg) - allowed
    assert msg["view"] == state.view(seat)
    assert msg["legal"] == _legal(state, seat)
    if msg["type"] == "snapshot":
        assert msg["seat"] == seat
        for s in msg["seats"]:
            assert set(s) == SEAT_KEYS
    else:
        assert set(msg["event"]) == {"kind", "seat", "move"}
        if msg["event"]["move"] is not None:
            assert seat is not None and msg["event"]["seat"] == seat


@pytest.mark.parametrize(("game_id", "players"), CASES)
@settings(max_examples=6)
@given(seed=st.integers(0, 2**31), plies=st.integers(0, 80))
def test_room_messages_carry_only_the_seats_view(
    game_id: str, players: int, seed: int, plies: int
) -> None:
    state, texts = _random_state(game_id, players, seed, plies)
    names = [f"Player {i + 1}" for i in range(players)]
    row = RoomRow(
        id="room1",
        game=game_id,
        variant=dict(get_game(game_id).resolve_variant({})),
        seed=seed,
        players=players,
        created_at=0.0,
        version=len(texts),
        over=state.is_over,
        seats=[
            SeatRow(i, names[i], "human", None, None, hash_token(f"t{i}")) for i in range(players)
        ],
        events=[EventRow(k + 1, "move", None, t) for k, t in enumerate(texts)],
    )
    room = Room(row)
    seats: list[int | None] = [None, *range(players)]
    conns = {seat: Connection(seat) for seat in seats}
    room.conns.update(conns.values())
    mover = state.current_player
    room.broadcast("move", mover, texts[-1] if texts else None, conns[seats[-1]], "id")
    for seat in seats:
        check_message(room.snapshot(seat), state, seat)
        sent = conns[seat].outbox.get_nowait()
        assert sent is not None
        check_message(sent, state, seat)
        # a state that differs only in what this seat cannot see gives the same message
        other = state.determinize(seat, Rng(seed ^ 0xABC))
        public = [PublicSeat(i, names[i], "human", None, None) for i in range(players)]
        mine = snapshot_message("room1", room.version, state, seat, public, False)
        theirs = snapshot_message("room1", room.version, other, seat, public, False)
        assert mine == theirs


@pytest.mark.timeout(120)
@pytest.mark.parametrize("game_id", [g for g in game_ids() if get_game(g).max_players > 1])
def test_live_game_messages_match_each_seats_view(live: LiveServer, game_id: str) -> None:
    players = get_game(game_id).min_players + 1
    room = create(live.url, game=game_id, seats=[{"kind": "human"}] * players, seed=77)
    names = [s["name"] for s in room["seats"]]
    tokens = [s["token"] for s in room["seats"]]
    mirror = pyramids.new_game(game_id, players=players, seed=77, names=names)
    history = [mirror.copy()]
    rng = Rng(5)

    async def run() -> None:
        sessions = [Session(live.ws_url, room["room"], t) for t in [None, *tokens]]
        for s in sessions:
            await s.__aenter__()
        version = 0
        while not mirror.is_over and version < 120:
            p = mirror.current_player
            assert p is not None
            moves = mirror.legal_moves()
            text = mirror.move_to_str(moves[rng.below(len(moves))])
            r = await asyncio.to_thread(move, live.url, room["room"], tokens[p], text, version)
            assert r.status_code == 200, r.text
            mirror.play(mirror.parse_move(text))
            history.append(mirror.copy())
            version += 1
        for seat, s in zip([None, *range(players)], sessions, strict=True):
            got = 0
            while got <= version:  # one snapshot plus one event per move
                msg = await s.recv()
                check_message(msg, history[msg["version"]], seat)
                got += 1
            await s.__aexit__()

    asyncio.run(run())
