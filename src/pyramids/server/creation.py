"""New rooms: a room from the lobby's request, and a finished room's rematch.

What depends on the game is checked before anything is built or stored; the
seed and the commitment to it are made here (see :meth:`Creation.create` and
:meth:`Creation.rematch`), so that every room's deal is either secret until the
end or chosen openly (a solitaire's deal number, a practice room).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pyramids.engine.errors import PyramidsError, UnknownGame
from pyramids.engine.registry import get_game
from pyramids.server import fair
from pyramids.server.bots import build_agent
from pyramids.server.cache import RoomCache
from pyramids.server.clocks import Clock, Control, clock_row, parse_control
from pyramids.server.inputs import NewRoom, SeatRequest
from pyramids.server.protocol import ProtocolError
from pyramids.server.room import Room, hash_token
from pyramids.server.storage import ClockRow, RoomRow, SeatRow, StorageError, Store

if TYPE_CHECKING:
    from pyramids.cluster.broker import Broker


class Creation:
    """Makes rooms, stores them, and hands them to the cache (their bots start at once)."""

    def __init__(
        self,
        store: Store,
        cache: RoomCache,
        broker: Broker | None,
        kick_bots: Callable[[Room], None],
    ) -> None:
        self.store = store
        self.cache = cache
        self.broker = broker
        self.kick_bots = kick_bots

    async def create(self, spec: NewRoom) -> dict[str, Any]:
        """Create a room from a lobby request; returns the room with each human seat's token.

        ``spec`` has its shape checked (:class:`inputs.NewRoom`); what depends on
        the game is checked here, before anything is built: the player count
        against the game's range before a seat is allocated, the options, the
        seed against the room's kind (see :meth:`_check_seed`), the bots.
        """
        try:
            game = get_game(spec.game)
        except UnknownGame as e:
            raise ProtocolError.from_engine("unknown-game", e) from None
        players = spec.players
        if players is not None:
            try:  # before any allocation: players=10**8 must not build 10**8 seats
                game.check_players(players)
            except PyramidsError as e:
                raise ProtocolError.from_engine("bad-request", e) from None
        seats_in = spec.seats
        if seats_in is None:
            count = players if players is not None else game.min_players
            seats_in = [SeatRequest(kind="human")] * count
        if players is not None and players != len(seats_in):
            raise ProtocolError(
                "bad-request",
                "'players' is {players} but there are {seats} seats",
                players=players,
                seats=len(seats_in),
            )
        try:
            game.check_players(len(seats_in))
            variant = game.resolve_variant(spec.variant)
        except PyramidsError as e:
            raise ProtocolError.from_engine("bad-request", e) from None
        seed = spec.seed
        self._check_seed(seed, len(seats_in), spec.practice)
        control = parse_control(game.id, len(seats_in), spec.clock)
        public_seed = seed is not None and game.max_players == 1
        spectator_chat = spec.spectator_chat
        practice = spec.practice
        seats: list[SeatRow] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(seats_in):
            seats.append(self._seat(i, s, game.id, tokens))
        room_id = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        row = RoomRow(
            id=room_id,
            game=game.id,
            variant=dict(variant),
            seed=seed,
            players=len(seats),
            created_at=time.time(),
            version=0,
            over=False,
            public_seed=public_seed,
            seats=seats,
            spectator_chat=spectator_chat,
            secret=fair.new_secret(),
            practice=practice,
        )
        try:
            room = Room(row)
        except PyramidsError as e:
            raise ProtocolError.from_engine("bad-request", e) from None
        row.over = room.state.is_over
        row.clock = _start_clock(room, control)
        if self.broker is not None and room.bot_to_move() is not None:
            await self.broker.mark_due([room_id], self.broker.lease_seconds)
        try:
            await asyncio.wrap_future(self.store.create_room(row))
        except StorageError as e:
            raise ProtocolError("storage", "{error}", error=str(e)) from None
        self.cache.put(room)
        self.kick_bots(room)
        out = room.summary()
        out["seats"] = [
            {
                **p.to_dict(),
                "token": tokens.get(p.seat),
                "link": _link(room_id, tokens[p.seat]) if p.seat in tokens else None,
            }
            for p in room.public_seats()
        ]
        out["spectator_link"] = _link(room_id, None)
        if public_seed:
            out["deal"] = seed
        return out

    @staticmethod
    def _check_seed(seed: int | None, seats: int, practice: bool) -> None:
        """A chosen seed (in range: :class:`inputs.NewRoom`) is for solitaire or practice only.

        Why: whoever chooses the seed can deal the same game at home and knows
        every hidden card, stack and token. In a room for one that is the
        player's own deal number; in a room for several it is allowed only in a
        practice room, which every seat and spectator is told about
        (``practice`` in the summary and in every snapshot).
        """
        if seed is not None and seats > 1 and not practice:
            raise ProtocolError(
                "bad-request",
                "a chosen seed would tell its chooser every hidden card: it is allowed in "
                'games for one, or in a room created with "practice": true, which every '
                "player is shown",
            )

    async def rematch(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The same seats (names, bots, links) at a new deal; the same answer for every seat.

        Why the links stay: each player's secret token opens the same seat in the
        rematch, so friends who played by link need no new link. The new room's id
        is derived from the old one, so a second request (another seat, another
        instance, after a restart) finds the rematch instead of starting another.
        """
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot start a rematch")
        if not room.over:
            raise ProtocolError("not-finished", "a rematch starts once the game is over")
        new_id = rematch_id(room.id)
        with contextlib.suppress(ProtocolError):
            return (await self.cache.get(new_id)).summary()
        row = RoomRow(
            id=new_id,
            game=room.game.id,
            variant=dict(room.variant),
            # always a fresh deal from a fresh secret: never a seed someone chose
            seed=None,
            players=room.players,
            created_at=time.time(),
            version=0,
            over=False,
            public_seed=False,
            seats=list(room.seats),
            spectator_chat=room.spectator_chat,
            secret=fair.new_secret(),
            practice=False,
        )
        try:
            fresh = Room(row)
        except PyramidsError as e:
            raise ProtocolError.from_engine("bad-request", e) from None
        row.clock = _start_clock(fresh, room.clock.control if room.clock else Control())
        if self.broker is not None and fresh.bot_to_move() is not None:
            await self.broker.mark_due([new_id], self.broker.lease_seconds)
        try:
            await asyncio.wrap_future(self.store.create_room(row))
        except StorageError:
            with contextlib.suppress(ProtocolError):  # created meanwhile by another request
                return (await self.cache.get(new_id)).summary()
            raise ProtocolError("storage", "the rematch could not be saved") from None
        self.cache.put(fresh)
        self.kick_bots(fresh)
        for conn in list(room.conns):
            conn.send({"type": "rematch", "room": new_id})
        if self.broker is not None:
            self.broker.publish({"t": "rematch", "r": room.id, "n": new_id})
        return fresh.summary()

    @staticmethod
    def _seat(i: int, s: SeatRequest, game_id: str, tokens: dict[int, str]) -> SeatRow:
        if s.kind == "human":
            token = secrets.token_urlsafe(18)
            tokens[i] = token
            name = s.name or f"Player {i + 1}"
            return SeatRow(i, name, "human", None, None, hash_token(token))
        try:
            build_agent(s.agent, game_id, s.level)
        except PyramidsError as e:
            raise ProtocolError(
                "bad-request", "seat {seat}: {reason}", {"rule": e.code}, seat=i, reason=e
            ) from None
        label = s.agent if s.level is None else f"{s.agent} {s.level}"
        name = s.name or f"Bot {i + 1} ({label})"
        return SeatRow(i, name, "bot", s.agent, s.level, None)

    # -- moves ------------------------------------------------------------------------


def _start_clock(room: Room, control: Control) -> ClockRow | None:
    """Start a new room's clock now (a solitaire has none); the row to store with the room."""
    if room.players < 2:
        return None
    room.clock = Clock.new(control, room.state, room.created_at, room.timed_seat)
    return clock_row(room.clock)


def rematch_id(room_id: str) -> str:
    """The id of a room's rematch (the same for every seat that asks for it)."""
    return "r" + hashlib.sha256(f"rematch:{room_id}".encode()).hexdigest()[:15]


def _link(room_id: str, token: str | None) -> str:
    """The web app's link to a room (with the seat's token after ``?token=``)."""
    return f"/#/room/{room_id}" + (f"?token={token}" if token else "")
