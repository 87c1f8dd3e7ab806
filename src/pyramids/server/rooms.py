"""Rooms: live games in memory, their connections, moves, undo and bots.

The database is the truth; a :class:`Room` caches the state rebuilt from it
(seed + variant + seats + the move log) so a move costs one ``play`` and one
committed insert. Each room has one :class:`asyncio.Lock`: a move is checked,
committed, and only then applied, acknowledged and broadcast, all under that
lock, so two moves sent at once can never both be accepted.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Coroutine, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import orjson

from pyramids.ai.base import Agent
from pyramids.engine.errors import IllegalMove, PyramidsError, UnknownGame
from pyramids.engine.records import make_record
from pyramids.engine.registry import get_game, new_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.i18n import Translator
from pyramids.server import fair
from pyramids.server.bots import build_agent
from pyramids.server.limits import Bucket
from pyramids.server.protocol import (
    ProtocolError,
    PublicSeat,
    event_message,
    seat_payload,
    shown,
    snapshot_message,
)
from pyramids.server.storage import (
    CHAT_KEPT,
    Append,
    ChatRow,
    EventRow,
    RoomRow,
    SeatRow,
    StorageError,
    Store,
)

log = logging.getLogger("pyramids.server")

#: states kept per room so a reconnecting client can be sent the events it missed
HISTORY = 64
#: a client that lets this many messages pile up is disconnected (it resyncs on reconnect)
OUTBOX_LIMIT = 2000
#: a chat line is at most this long (how often one may be sent: :mod:`.limits`)
CHAT_MAX_LENGTH = 300
#: seeds a room may be dealt from: 0 to 2**53 - 1, so that every client, JavaScript
#: included, reads a revealed seed exactly (as message ids, see protocol.py)
SEED_LIMIT = 2**53
#: the longest seat name
NAME_MAX_LENGTH = 40


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed: reading the database does not let anyone take a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def rebuild(
    game_id: str,
    players: int,
    seed: int,
    names: Sequence[str],
    variant: dict[str, Any],
    moves: Sequence[str],
) -> State[Any]:
    """The state after ``moves`` (notation) from the deal of ``seed``; chance follows the seed."""
    state = new_game(game_id, players=players, seed=seed, names=list(names), **variant)
    for text in moves:
        state.play(state.parse_move(text))
    return state


class Connection:
    """One client connected to a room as a seat (or as a spectator when ``seat`` is None)."""

    def __init__(
        self, seat: int | None, tr: Translator | None = None, address: str | None = None
    ) -> None:
        self.seat = seat
        #: the language this client reads (errors are worded in it)
        self.tr = tr
        #: the client's address (rate limits per address)
        self.address = address
        #: this connection's rate-limit buckets, per action (:mod:`.limits`)
        self.buckets: dict[str, Bucket] = {}
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False

    def send(self, msg: dict[str, Any]) -> None:
        """Queue a message; a client that does not keep up is cut off (it will resync)."""
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(msg)

    def close(self) -> None:
        """Stop sending; the sender task ends at the ``None`` sentinel."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


@dataclass(frozen=True)
class Past:
    """One accepted event kept in memory for resyncs."""

    version: int
    kind: str
    mover: int | None
    move_text: str | None
    state: State[Any]


class Room:
    """A game being played: cached state, log, connections and bot seats."""

    def __init__(self, row: RoomRow) -> None:
        self.id = row.id
        self.game = get_game(row.game)
        self.variant = row.variant
        self.seed = row.seed
        self.players = row.players
        self.created_at = row.created_at
        self.seats = row.seats
        self.public_seed = bool(row.public_seed)
        moves: list[str] = []
        #: moves taken back (a record says how many: a take-back shows hidden cards)
        self.undos = 0
        for ev in row.events:
            if ev.kind == "move":
                moves.append(ev.data)
            elif ev.kind == "undo" and moves:
                moves.pop()
                self.undos += 1
        self.moves = moves
        self.version = row.version
        self.state = rebuild(
            row.game, row.players, row.seed, [s.name for s in row.seats], row.variant, moves
        )
        self.history: deque[Past] = deque(maxlen=HISTORY)
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.agents: dict[int, Agent] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self._replay: list[State[Any]] | None = None
        self.spectator_chat = bool(row.spectator_chat)
        self.chat: deque[ChatRow] = deque(row.chat, maxlen=CHAT_KEPT)
        self.practice = bool(row.practice)
        self.secret = row.secret
        #: the published commitment to the seed (None for rooms made before schema 3)
        self.commitment = fair.commitment(row.seed, row.secret) if row.secret else None

    # -- seats -----------------------------------------------------------------

    def public_seats(self) -> list[PublicSeat]:
        """Names and kinds of the seats (public)."""
        return [PublicSeat(s.seat, s.name, s.kind, s.agent, s.level) for s in self.seats]

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat a token opens; ``None`` (spectator) without a token; bad-token otherwise."""
        if token is None or token == "":
            return None
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        raise ProtocolError("bad-token", "this link's seat token does not belong to this game")

    def agent(self, seat: int) -> Agent:
        """The agent playing bot seat ``seat`` (built on first use)."""
        if seat not in self.agents:
            s = self.seats[seat]
            assert s.agent is not None
            self.agents[seat] = build_agent(s.agent, self.game.id, s.level)
        return self.agents[seat]

    def bot_to_move(self) -> int | None:
        """The seat to move if a bot plays it."""
        p = self.state.current_player
        if p is None or self.state.is_over or self.seats[p].kind != "bot":
            return None
        return p

    @property
    def can_undo(self) -> bool:
        """Undo is offered in single-player games only, once a move has been played."""
        return self.game.max_players == 1 and bool(self.moves)

    def replay_states(self) -> list[State[Any]]:
        """Every position of the game from the deal (built once, dropped by an undo)."""
        states = self._replay
        if states is None or len(states) != len(self.moves) + 1:
            names = [s.name for s in self.seats]
            state = rebuild(self.game.id, self.players, self.seed, names, self.variant, [])
            states = [state.copy()]
            for text in self.moves:
                state.play(state.parse_move(text))
                states.append(state.copy())
            self._replay = states
        return states

    # -- messages -----------------------------------------------------------------

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """The full message for ``seat`` at the current version."""
        msg = snapshot_message(
            self.id,
            self.version,
            self.state,
            seat,
            self.public_seats(),
            self.can_undo,
            commitment=self.commitment,
            practice=self.practice,
        )
        if self.public_seed:
            msg["deal"] = self.seed
        return msg

    def missed(self, since: int, seat: int | None) -> list[dict[str, Any]] | None:
        """Events after ``since`` for ``seat``, or ``None`` if they are no longer in memory."""
        if since == self.version:
            return []
        if since > self.version or since < 0:
            return None
        wanted = [p for p in self.history if p.version > since]
        if not wanted or wanted[0].version != since + 1:
            return None
        return [
            event_message(
                self.id,
                p.version,
                p.kind,
                p.mover,
                p.move_text,
                seat_payload(p.state, seat),
                seat,
                self._undo_at(p),
            )
            for p in wanted
        ]

    def _undo_at(self, p: Past) -> bool:
        return self.game.max_players == 1 and p.state.ply > 0

    def summary(self) -> dict[str, Any]:
        """Public facts for the lobby's game list."""
        view = self.state.view(None)
        return {
            "room": self.id,
            "game": self.game.id,
            "title": self.game.title,
            "version": self.version,
            "over": self.state.is_over,
            "current_player": self.state.current_player,
            "scores": view.get("scores"),
            "ranking": view.get("ranking"),
            "seats": [s.to_dict() for s in self.public_seats()],
            "created_at": self.created_at,
            "practice": self.practice,
            "commitment": self.commitment,
            "reveal": self.reveal(),
        }

    def record(self) -> dict[str, Any]:
        """The game record (``docs/records.md``) with the room, its commitment and reveal.

        ``pyramids verify`` checks such a record: the moves, the deal against the
        seed, and the seed against the commitment published at the room's creation.
        """
        out = make_record(self.state, undos=self.undos)
        out["room"] = self.id
        out["practice"] = self.practice
        out["commitment"] = self.commitment
        out["reveal"] = self.reveal()
        return out

    def reveal(self) -> dict[str, Any] | None:
        """The seed and the commitment's secret, once the game is over (else ``None``).

        Why only then: the seed fixes every hidden card and every future chance.
        """
        if not self.state.is_over or self.secret is None:
            return None
        return {"seed": self.seed, "secret": self.secret, "scheme": fair.SCHEME}

    def broadcast(
        self,
        kind: str,
        mover: int | None,
        move_text: str | None,
        origin: Connection | None,
        reply_to: Any,
    ) -> None:
        """Send the accepted event to every connection, each from its own seat's view."""
        payloads: dict[int | None, dict[str, Any]] = {}
        for conn in list(self.conns):
            if conn.seat not in payloads:
                payloads[conn.seat] = seat_payload(self.state, conn.seat)
            msg = event_message(
                self.id,
                self.version,
                kind,
                mover,
                move_text,
                payloads[conn.seat],
                conn.seat,
                self.can_undo,
                reply_to if conn is origin else None,
            )
            conn.send(msg)


class RoomManager:
    """Every room of the server: loading, creating, moves, undo, bots."""

    def __init__(self, store: Store, bot_delay: float = 0.4, executor: Executor | None = None):
        self.store = store
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self.executor = executor or ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")
        self._closing = False

    # -- loading ------------------------------------------------------------------

    async def get(self, room_id: str) -> Room:
        """The room ``room_id`` (loaded from the database on first use)."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if not isinstance(room_id, str) or not 0 < len(room_id) <= 32:
            raise ProtocolError("unknown-room", "there is no game {room}", room=repr(room_id))
        pending = self._loading.get(room_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[room_id] = pending
            try:
                loaded = await asyncio.to_thread(self._load, room_id)
                if loaded is not None:
                    self.rooms[room_id] = loaded
                pending.set_result(loaded)
            except Exception as e:  # a broken row must not leave waiters hanging
                pending.set_exception(e)
                raise
            finally:
                del self._loading[room_id]
            if loaded is not None:
                self.kick_bots(loaded)
        result = await asyncio.shield(pending)
        if result is None:
            raise ProtocolError("unknown-room", "there is no game {room}", room=repr(room_id))
        return result

    def maybe_evict(self, room: Room) -> None:
        """Drop an idle room from memory (no connection, no bot at work, no move in progress).

        The database is the truth, so the next visitor simply rebuilds it; this
        keeps a long-running server's memory bounded by the games being played.
        """
        busy = room.bot_task is not None and not room.bot_task.done()
        idle = not room.conns and not busy and not room.lock.locked()
        if idle and self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    def _load(self, room_id: str) -> Room | None:
        """Read and rebuild a room (in a worker thread: long games take a while to replay)."""
        row = self.store.load_room(room_id)
        return Room(row) if row is not None else None

    async def resume_all(self) -> int:
        """Load every unfinished game with a bot seat, so that its bots carry on."""
        ids = await asyncio.to_thread(self.store.rooms_with_bots_to_resume)
        for room_id in ids:
            try:
                await self.get(room_id)
            except Exception:
                log.exception("cannot resume game %s", room_id)
        return len(ids)

    # -- creating -----------------------------------------------------------------

    async def create(self, spec: Any) -> dict[str, Any]:
        """Create a room from a lobby request; returns the room with each human seat's token.

        Everything is checked before anything is built: the player count against
        the game's range before a seat is allocated, the seed against its range
        and against the room's kind (see :meth:`_check_seed`).
        """
        if not isinstance(spec, dict):
            raise ProtocolError("bad-request", "the request body must be a JSON object")
        unknown = sorted(set(spec) - CREATE_KEYS)
        if unknown:
            raise ProtocolError(
                "bad-request",
                "unknown field {field}; a new room takes {fields}",
                field=shown(unknown[0]),
                fields=", ".join(sorted(CREATE_KEYS)),
            )
        game_id = spec.get("game")
        if not isinstance(game_id, str):
            raise ProtocolError("bad-request", "'game' must name a game, e.g. 'piramides'")
        try:
            game = get_game(game_id)
        except UnknownGame as e:
            raise ProtocolError.from_engine("unknown-game", e) from None
        seats_in = spec.get("seats")
        players = spec.get("players")
        if players is not None:
            try:  # before any allocation: players=10**8 must not build 10**8 seats
                game.check_players(players)
            except PyramidsError as e:
                raise ProtocolError.from_engine("bad-request", e) from None
        if seats_in is None:
            seats_in = [{"kind": "human"}] * (players if players is not None else game.min_players)
        if not isinstance(seats_in, list):
            raise ProtocolError("bad-request", "'seats' must be a list of seat objects")
        if players is not None and players != len(seats_in):
            raise ProtocolError(
                "bad-request",
                "'players' is {players} but there are {seats} seats",
                players=players,
                seats=len(seats_in),
            )
        try:
            game.check_players(len(seats_in))
        except PyramidsError as e:
            raise ProtocolError.from_engine("bad-request", e) from None
        variant_in = spec.get("variant", {})
        if not isinstance(variant_in, dict):
            raise ProtocolError("bad-request", "'variant' must be an object of options")
        try:
            variant = game.resolve_variant(variant_in)
        except PyramidsError as e:
            raise ProtocolError.from_engine("bad-request", e) from None
        practice = spec.get("practice", False)
        if not isinstance(practice, bool):
            raise ProtocolError("bad-request", "'practice' must be true or false")
        seed = spec.get("seed")
        self._check_seed(seed, len(seats_in), practice)
        public_seed = seed is not None and game.max_players == 1
        spectator_chat = spec.get("spectator_chat", False)
        if not isinstance(spectator_chat, bool):
            raise ProtocolError("bad-request", "'spectator_chat' must be true or false")
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
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
        except ValueError as e:
            raise ProtocolError("bad-request", "{error}", error=str(e)) from None
        row.over = room.state.is_over
        try:
            await asyncio.wrap_future(self.store.create_room(row))
        except StorageError as e:
            raise ProtocolError("storage", "{error}", error=str(e)) from None
        self.rooms[room_id] = room
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
    def _check_seed(seed: Any, seats: int, practice: bool) -> None:
        """A chosen seed must be in range, and is for solitaire or practice rooms only.

        Why: whoever chooses the seed can deal the same game at home and knows
        every hidden card, stack and token. In a room for one that is the
        player's own deal number; in a room for several it is allowed only in a
        practice room, which every seat and spectator is told about
        (``practice`` in the summary and in every snapshot).
        """
        if seed is None:
            return
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
            raise ProtocolError(
                "bad-request",
                "'seed' must be a whole number from 0 to {maximum}",
                maximum=SEED_LIMIT - 1,
            )
        if seats > 1 and not practice:
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
        if not room.state.is_over:
            raise ProtocolError("not-finished", "a rematch starts once the game is over")
        new_id = rematch_id(room.id)
        with contextlib.suppress(ProtocolError):
            return (await self.get(new_id)).summary()
        row = RoomRow(
            id=new_id,
            game=room.game.id,
            variant=dict(room.variant),
            # always a fresh random deal with a fresh commitment: never a seed someone chose
            seed=secrets.randbelow(SEED_LIMIT),
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
        try:
            await asyncio.wrap_future(self.store.create_room(row))
        except StorageError:
            with contextlib.suppress(ProtocolError):  # created meanwhile by another request
                return (await self.get(new_id)).summary()
            raise ProtocolError("storage", "the rematch could not be saved") from None
        self.rooms[new_id] = fresh
        self.kick_bots(fresh)
        for conn in list(room.conns):
            conn.send({"type": "rematch", "room": new_id})
        return fresh.summary()

    @staticmethod
    def _seat(i: int, s: Any, game_id: str, tokens: dict[int, str]) -> SeatRow:
        if not isinstance(s, dict):
            raise ProtocolError("bad-request", "seat {seat} must be an object", seat=i)
        kind = s.get("kind", "bot" if "agent" in s else "human")
        name = s.get("name")
        if name is not None:
            _check_name(i, name)
        if kind == "human":
            token = secrets.token_urlsafe(18)
            tokens[i] = token
            return SeatRow(
                i, (name or f"Player {i + 1}").strip(), "human", None, None, hash_token(token)
            )
        if kind == "bot":
            agent = s.get("agent", "random")
            level = s.get("level")
            if not isinstance(agent, str) or (level is not None and not isinstance(level, str)):
                raise ProtocolError(
                    "bad-request", "seat {seat}: 'agent' and 'level' are text", seat=i
                )
            try:
                build_agent(agent, game_id, level)
            except PyramidsError as e:
                raise ProtocolError(
                    "bad-request", "seat {seat}: {reason}", seat=i, reason=e
                ) from None
            except (ValueError, TypeError) as e:
                raise ProtocolError(
                    "bad-request", "seat {seat}: {reason}", seat=i, reason=str(e)
                ) from None
            label = agent if level is None else f"{agent} {level}"
            return SeatRow(i, (name or f"Bot {i + 1} ({label})").strip(), "bot", agent, level, None)
        raise ProtocolError("bad-request", "seat {seat}: 'kind' must be 'human' or 'bot'", seat=i)

    # -- moves ------------------------------------------------------------------------

    async def submit_move(
        self,
        room: Room,
        seat: int | None,
        text: str,
        version: int,
        origin: Connection | None = None,
        reply_to: Any = None,
    ) -> int:
        """Check, commit, apply and broadcast one move; returns the new version.

        Raises :class:`ProtocolError` (state unchanged) for a spectator, a stale
        version, a finished game, a move out of turn or an illegal move.
        """
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot move")
        return await _uncancellable(self._move(room, seat, text, version, origin, reply_to))

    async def _move(
        self,
        room: Room,
        seat: int,
        text: str,
        version: int,
        origin: Connection | None,
        reply_to: Any,
    ) -> int:
        async with room.lock:
            self._check_version(room, version)
            state = room.state
            if state.is_over:
                raise ProtocolError("game-over", "the game is over: no more moves can be played")
            if state.current_player != seat:
                who = (
                    room.seats[state.current_player].name
                    if state.current_player is not None
                    else "?"
                )
                raise ProtocolError("not-your-turn", "it is {player}'s turn, not yours", player=who)
            try:
                move = state.parse_move(text)
                canonical = state.move_to_str(move)
                after = state.copy()
                after.play(move)
            except IllegalMove as e:
                raise ProtocolError.from_engine("illegal-move", e, move=text) from None
            new_version = room.version + 1
            await self._commit(room, EventRow(new_version, "move", seat, canonical), after.is_over)
            room.state = after
            room.moves.append(canonical)
            room.version = new_version
            room.history.append(Past(new_version, "move", seat, canonical, after))
            room.broadcast("move", seat, canonical, origin, reply_to)
            for agent in room.agents.values():
                agent.observe(after, move, seat)
        self.kick_bots(room)
        return new_version

    async def undo(
        self,
        room: Room,
        seat: int | None,
        version: int,
        origin: Connection | None = None,
        reply_to: Any = None,
    ) -> int:
        """Take back the last move of a single-player game (an ``undo`` event in the log)."""
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot undo")
        return await _uncancellable(self._undo(room, seat, version, origin, reply_to))

    async def _undo(
        self, room: Room, seat: int, version: int, origin: Connection | None, reply_to: Any
    ) -> int:
        async with room.lock:
            self._check_version(room, version)
            if room.game.max_players != 1:
                raise ProtocolError(
                    "undo-not-allowed", "undo is only offered in single-player games"
                )
            if not room.moves:
                raise ProtocolError("nothing-to-undo", "no move has been played yet")
            moves = room.moves[:-1]
            after = rebuild(
                room.game.id,
                room.players,
                room.seed,
                [s.name for s in room.seats],
                room.variant,
                moves,
            )
            new_version = room.version + 1
            await self._commit(room, EventRow(new_version, "undo", seat, "1"), after.is_over)
            room.state = after
            room.moves = moves
            room.undos += 1
            room.version = new_version
            room.history.append(Past(new_version, "undo", seat, None, after))
            room.broadcast("undo", seat, None, origin, reply_to)
        return new_version

    @staticmethod
    def _check_version(room: Room, version: int) -> None:
        if version != room.version:
            raise ProtocolError(
                "stale-version",
                "the game is at version {version}, your move was made at version "
                "{yours}: look at the current position and try again",
                {"version": room.version},
                version=room.version,
                yours=version,
            )

    async def _commit(self, room: Room, ev: EventRow, over: bool) -> None:
        changed = over if over != room.state.is_over else None
        try:
            await self.store.append_async(Append(room.id, ev, changed))
        except StorageError as e:
            raise ProtocolError(
                "storage", "the move could not be saved: {error}", error=str(e)
            ) from None

    # -- chat -------------------------------------------------------------------------

    async def chat(self, room: Room, conn: Connection, text: Any) -> None:
        """Store a seated player's chat line and send it to whoever may read the chat.

        Why these limits: a chat is for the table, not a channel for floods or for
        smuggling data to spectators (they read it only where the room allows).
        How often a connection may chat is checked before (:mod:`.limits`).
        """
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot chat")
        if not isinstance(text, str):
            raise ProtocolError("bad-message", "'text' must be the chat line as text")
        line = " ".join(text.split())
        if not 0 < len(line) <= CHAT_MAX_LENGTH:
            raise ProtocolError(
                "bad-message", "a chat line is 1 to {limit} characters", limit=CHAT_MAX_LENGTH
            )
        if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in line):
            raise ProtocolError("bad-message", "a chat line cannot hold control characters")
        seq = room.chat[-1].seq + 1 if room.chat else 1
        row = ChatRow(seq, conn.seat, line, time.time())
        room.chat.append(row)  # before the await: two lines cannot take one seq
        try:
            await asyncio.wrap_future(self.store.add_chat(room.id, row))
        except StorageError:
            room.chat.remove(row)
            raise ProtocolError("storage", "the chat line could not be saved") from None
        msg = chat_message(room, row)
        for other in list(room.conns):
            if other.seat is not None or room.spectator_chat:
                other.send(msg)

    # -- bots ---------------------------------------------------------------------------

    def kick_bots(self, room: Room) -> None:
        """Start the room's bot task if a bot is to move and none is running."""
        if self._closing or room.bot_to_move() is None:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._run_bots(room))

    async def _run_bots(self, room: Room) -> None:
        loop = asyncio.get_running_loop()
        while not self._closing:
            seat = room.bot_to_move()
            if seat is None:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            version = room.version
            state = room.state
            if room.bot_to_move() != seat:
                continue
            rng = Rng((room.seed * 1_000_003 + version) % 2**63)
            try:
                agent = room.agent(seat)
                move = await loop.run_in_executor(self.executor, agent.choose, state.copy(), rng)
                text = state.move_to_str(move)
            except Exception:
                # A broken agent must not stall the game for the people at the table:
                # log it and play a uniformly random legal move instead.
                log.exception("bot of seat %s in game %s crashed; playing at random", seat, room.id)
                moves = state.legal_moves()
                text = state.move_to_str(moves[rng.below(len(moves))])
            try:
                await self.submit_move(room, seat, text, version)
            except ProtocolError as e:
                if e.code in ("stale-version", "not-your-turn", "game-over"):
                    continue
                log.error("bot of seat %s in game %s failed: %s", seat, room.id, e.reason)
                return

    async def close(self) -> None:
        """Stop bots and connections (the store is closed by the app)."""
        self._closing = True
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):  # cancelled or failed: stopped either way
                await t
        for room in self.rooms.values():
            for conn in list(room.conns):
                conn.close()
        if isinstance(self.executor, ThreadPoolExecutor):
            self.executor.shutdown(wait=False, cancel_futures=True)


async def _uncancellable(coro: Coroutine[Any, Any, int]) -> int:
    """Run a check-commit-apply section to its end even if its caller is cancelled.

    Why: once a move's commit is under way, the room in memory must learn of
    it; a caller cancelled halfway (server shutdown, a dropped request) would
    otherwise leave the cache one move behind the database.
    """
    task = asyncio.ensure_future(coro)
    task.add_done_callback(lambda t: t.cancelled() or t.exception())
    return await asyncio.shield(task)


#: the fields of a request for a new room
CREATE_KEYS = frozenset(
    {"game", "seats", "players", "variant", "seed", "practice", "spectator_chat"}
)


def _check_name(seat: int, name: Any) -> None:
    """A seat's name: 1 to 40 characters of printable text (it is shown to every player)."""
    if not isinstance(name, str) or not 0 < len(name.strip()) <= NAME_MAX_LENGTH:
        raise ProtocolError(
            "bad-request",
            "seat {seat}: a name is 1 to {limit} characters",
            seat=seat,
            limit=NAME_MAX_LENGTH,
        )
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in name):
        raise ProtocolError(
            "bad-request", "seat {seat}: a name cannot hold control characters", seat=seat
        )


def chat_message(room: Room, row: ChatRow) -> dict[str, Any]:
    """One chat line as sent to clients (the seat's public name with it)."""
    return {
        "type": "chat",
        "seq": row.seq,
        "seat": row.seat,
        "name": room.seats[row.seat].name,
        "text": row.text,
        "at": row.created_at,
    }


def chat_history(room: Room, seat: int | None) -> dict[str, Any] | None:
    """The recent chat for a (re)connecting client; None if it may not read it or if the
    room has no chat yet (then nothing extra is sent at all)."""
    if (seat is None and not room.spectator_chat) or not room.chat:
        return None
    return {"type": "chat-history", "lines": [chat_message(room, r) for r in room.chat]}


def rematch_id(room_id: str) -> str:
    """The id of a room's rematch (the same for every seat that asks for it)."""
    return "r" + hashlib.sha256(f"rematch:{room_id}".encode()).hexdigest()[:15]


def _link(room_id: str, token: str | None) -> str:
    """The web app's link to a room (with the seat's token after ``?token=``)."""
    return f"/#/room/{room_id}" + (f"?token={token}" if token else "")


def dumps(msg: dict[str, Any]) -> str:
    """Messages are compact JSON, encoded by orjson.

    Why orjson: every accepted move sends each connection its whole view, and
    the standard encoder took as long as building the view and more (≈ 50 µs
    for a 2.5 KB Pirámides view, against ≈ 5 µs).
    """
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
