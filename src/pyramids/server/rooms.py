"""Rooms: live games in memory, their connections, moves, undo and bots.

The database is the truth; a :class:`Room` caches the state rebuilt from it
(seed + variant + seats + the move log) so a move costs one ``play`` and one
committed insert. Each room has one :class:`asyncio.Lock`: a move is checked,
committed, and only then applied, acknowledged and broadcast, all under that
lock, so two moves sent at once can never both be accepted. Across the
instances of a cluster (``--broker``, ``docs/deploy.md``) the database's key
(room, version) does the same, and the broker carries each committed event
to the other instances' caches.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine, Hashable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

import orjson
from sqlalchemy.exc import SQLAlchemyError

from pyramids.ai.base import Agent
from pyramids.engine.errors import IllegalMove, PyramidsError, UnknownGame
from pyramids.engine.records import make_record
from pyramids.engine.registry import get_game, new_game
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.i18n import Translator
from pyramids.server import fair
from pyramids.server.bots import build_agent
from pyramids.server.inputs import SEED_LIMIT, NewRoom, SeatRequest, has_control_characters
from pyramids.server.limits import Bucket
from pyramids.server.protocol import (
    ProtocolError,
    PublicSeat,
    event_message,
    seat_payload,
    snapshot_message,
)
from pyramids.server.storage import (
    CHAT_KEPT,
    Append,
    ChatRow,
    ConflictError,
    EventRow,
    RoomRow,
    SeatRow,
    StorageError,
    Store,
)

if TYPE_CHECKING:
    from pyramids.cluster.broker import Broker

log = logging.getLogger("pyramids.server")

#: states kept per room so a reconnecting client can be sent the events it missed
HISTORY = 64
#: a client that lets this many messages pile up is disconnected (it resyncs on reconnect)
OUTBOX_LIMIT = 2000
#: a chat line is at most this long (how often one may be sent: :mod:`.limits`)
CHAT_MAX_LENGTH = 300


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


#: games whose turn is made of several steps that show nothing new (a Pyramido turn: place
#: a domino, put a gem, lay a card; the refill that shows a stack's next domino ends it):
#: the player may take back the steps of the turn being played until it ends
STEP_UNDO_GAMES = frozenset({"pyramido"})


def step_taker(game_id: str, state: State[Any]) -> int | None:
    """The seat that may take back a step now: the one whose turn has had a step, or None.

    Why only within the turn: once it ends, the next player has seen it, and the refill
    that ends a Pyramido turn shows the next domino of a stack (taking it back would let a
    player look under the stacks). Records keep only the steps that stand
    (docs/records.md), and such takebacks are not counted as ``undos``.
    """
    if game_id not in STEP_UNDO_GAMES or state.is_over:
        return None
    turn = state.view(None).get("turn") or {}
    if turn.get("placed") is None and not turn.get("fill_cards_laid"):
        return None
    player = turn.get("player")
    return player if isinstance(player, int) else None


def counts_undo(players: int) -> int:
    """How much an undo adds to a room's ``undos``: 1 in a solitaire, where it may follow
    a card seen; 0 for a step of a turn taken back in a game of several players."""
    return 1 if players == 1 else 0


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
    """One accepted event kept in memory for resyncs: the state after it, and before it
    (so that a page that opens may retell the first event it is sent, see :meth:`Room.missed`)."""

    version: int
    kind: str
    mover: int | None
    move_text: str | None
    state: State[Any]
    before: State[Any] | None = None


@dataclass(frozen=True)
class Change:
    """An event that fits the cached game, not applied yet: what the room becomes with it.

    Why one value for moves and undos, local and remote: whatever its origin
    (a client, a bot, another instance of a cluster), an accepted event is
    applied, kept for resyncs and broadcast by one method, :meth:`Room.accept`.
    """

    kind: Literal["move", "undo"]
    seat: int | None
    #: the state after the event
    after: State[Any]
    #: the move log after the event (notation)
    moves: list[str]
    #: the move played and its canonical notation (``None`` for an undo)
    move: Hashable | None = None
    text: str | None = None

    def event(self, version: int) -> EventRow:
        """The change as the log's entry at ``version``."""
        data = self.text if self.text is not None else "1"
        return EventRow(version, self.kind, self.seat, data)


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
        #: moves taken back (a record says how many: a take-back shows hidden cards)
        self.undos = 0
        self.moves: list[str] = []
        self.version = 0
        self.state: State[Any]
        self.history: deque[Past] = deque(maxlen=HISTORY)
        self._replay: list[State[Any]] | None = None
        self._read_log(row)
        self.lock = asyncio.Lock()
        #: a cluster's chat lines take their numbers one at a time (see RoomManager.chat)
        self.chat_lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.agents: dict[int, Agent] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self.spectator_chat = bool(row.spectator_chat)
        self.chat: deque[ChatRow] = deque(row.chat, maxlen=CHAT_KEPT)
        self.practice = bool(row.practice)
        self.secret = row.secret
        #: the published commitment to the seed (None for rooms made before schema 3)
        self.commitment = fair.commitment(row.seed, row.secret) if row.secret else None

    def _read_log(self, row: RoomRow) -> None:
        """Take the moves, version and state from a stored room (its event log replayed).

        The last :data:`HISTORY` events are kept with their states, as a live room keeps
        them: a page opened after the room was loaded again (a reload, a restart) is sent
        them to retell "What happened".
        """
        names = [s.name for s in row.seats]

        def at(moves: Sequence[str]) -> State[Any]:
            return rebuild(row.game, row.players, row.seed, names, row.variant, moves)

        moves: list[str] = []
        undos = 0
        tail = max(0, len(row.events) - HISTORY)
        state: State[Any] | None = None
        self.history.clear()
        for i, ev in enumerate(row.events):
            if i == tail:
                state = at(moves)  # the state before the events kept
            if ev.kind == "move":
                moves.append(ev.data)
            elif ev.kind == "undo" and moves:
                moves.pop()
                undos += counts_undo(row.players)
            else:
                continue
            if state is not None:
                before = state
                if ev.kind == "move":
                    state = before.copy()
                    state.play(state.parse_move(ev.data))
                else:
                    state = at(moves)
                text = ev.data if ev.kind == "move" else None
                self.history.append(Past(ev.version, ev.kind, ev.seat, text, state, before))
        self.state = state if state is not None else at(moves)
        self.moves = moves
        self.undos = undos
        self.version = row.version
        self._replay = None

    def reload(self, row: RoomRow) -> None:
        """Rebuild the cached game from the database: a cluster's cache in doubt.

        Why in place: connections and tasks hold this object; they keep it,
        and the next message each connection gets is a fresh snapshot.
        """
        self._read_log(row)
        self.chat = deque(row.chat, maxlen=CHAT_KEPT)

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
        return self.bot_seat(self.state)

    def bot_seat(self, state: State[Any]) -> int | None:
        """The seat to move in ``state`` of this room if a bot plays it."""
        p = state.current_player
        if p is None or state.is_over or self.seats[p].kind != "bot":
            return None
        return p

    def can_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back the last move now (see :func:`step_taker`)."""
        if self.game.max_players == 1:
            return bool(self.moves)
        return seat is not None and seat == step_taker(self.game.id, self.state)

    def deal(self, moves: Sequence[str] = ()) -> State[Any]:
        """This room's game rebuilt from its deal, after ``moves`` (notation)."""
        names = [s.name for s in self.seats]
        return rebuild(self.game.id, self.players, self.seed, names, self.variant, moves)

    def replay_states(self) -> list[State[Any]]:
        """Every position of the game from the deal (built once, dropped by an undo)."""
        states = self._replay
        if states is None or len(states) != len(self.moves) + 1:
            state = self.deal()
            states = [state.copy()]
            for text in self.moves:
                state.play(state.parse_move(text))
                states.append(state.copy())
            self._replay = states
        return states

    # -- events -------------------------------------------------------------------

    def checked_move(self, seat: int, text: str) -> Change:
        """``seat`` playing ``text`` now, checked; :class:`ProtocolError` if it may not."""
        state = self.state
        if state.is_over:
            raise ProtocolError("game-over", "the game is over: no more moves can be played")
        if state.current_player != seat:
            p = state.current_player
            who = self.seats[p].name if p is not None else "?"
            raise ProtocolError("not-your-turn", "it is {player}'s turn, not yours", player=who)
        try:
            move = state.parse_move(text)
            canonical = state.move_to_str(move)
            after = state.copy()
            after.play(move)
        except IllegalMove as e:
            raise ProtocolError.from_engine("illegal-move", e, move=text) from None
        return Change("move", seat, after, [*self.moves, canonical], move, canonical)

    def checked_undo(self, seat: int) -> Change:
        """``seat`` taking back the last move, checked: any move of a single-player game, or
        a step of the turn ``seat`` is playing (:func:`step_taker`)."""
        if self.game.max_players != 1 and self.game.id not in STEP_UNDO_GAMES:
            raise ProtocolError("undo-not-allowed", "undo is only offered in single-player games")
        if self.game.max_players != 1 and not self.can_undo(seat):
            raise ProtocolError(
                "undo-not-allowed",
                "only the steps of your own turn can be taken back, until it ends",
            )
        if not self.moves:
            raise ProtocolError("nothing-to-undo", "no move has been played yet")
        moves = self.moves[:-1]
        return Change("undo", seat, self.deal(moves), moves)

    def logged(self, ev: EventRow) -> Change | None:
        """An event another instance committed, as a change of this cache (``None``: no fit).

        Not checked for turn or version: the database accepted it already.
        """
        if ev.kind == "move" and ev.seat is not None:
            move: Hashable = self.state.parse_move(ev.data)
            after = self.state.copy()
            after.play(move)
            return Change("move", ev.seat, after, [*self.moves, ev.data], move, ev.data)
        if ev.kind == "undo" and self.moves:
            moves = self.moves[:-1]
            return Change("undo", ev.seat, self.deal(moves), moves)
        return None

    def accept(
        self,
        change: Change,
        version: int,
        origin: Connection | None = None,
        reply_to: Any = None,
    ) -> None:
        """Apply a committed ``change`` as ``version``: keep it for resyncs, tell every client."""
        before = self.state
        self.state = change.after
        self.moves = change.moves
        if change.kind == "undo":
            self.undos += counts_undo(self.players)
            self.agents.clear()  # the bots observed the move taken back
        self.version = version
        self.history.append(
            Past(version, change.kind, change.seat, change.text, change.after, before)
        )
        self.broadcast(change.kind, change.seat, change.text, origin, reply_to)
        if change.move is not None and change.seat is not None:
            for agent in self.agents.values():
                agent.observe(change.after, change.move, change.seat)

    # -- messages -----------------------------------------------------------------

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """The full message for ``seat`` at the current version."""
        msg = snapshot_message(
            self.id,
            self.version,
            self.state,
            seat,
            self.public_seats(),
            self.can_undo(seat),
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
        out = [
            event_message(
                self.id,
                p.version,
                p.kind,
                p.mover,
                p.move_text,
                seat_payload(p.state, seat),
                seat,
                self._undo_at(p, seat),
            )
            for p in wanted
        ]
        if wanted[0].before is not None:
            # the seat's view before the first event: a page that opens asks for the recent
            # events to retell them, and the first one is told from the view before it
            out[0]["before"] = wanted[0].before.view(seat)
            if self.public_seed:
                out[0]["deal"] = self.seed  # as a snapshot says it: such a page has none
        return out

    def _undo_at(self, p: Past, seat: int | None) -> bool:
        if self.game.max_players == 1:
            return p.state.ply > 0
        return seat is not None and seat == step_taker(self.game.id, p.state)

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
                self.can_undo(conn.seat),
                reply_to if conn is origin else None,
            )
            conn.send(msg)


class RoomManager:
    """Every room of the server: loading, creating, moves, undo, bots.

    With a ``broker`` (:class:`pyramids.cluster.broker.Broker`) this is one
    instance of a cluster sharing the database with others: every committed
    event is published for them, theirs advance the rooms cached here, a lost
    race at a version answers ``stale-version``, bots move under a lease, and
    the cache catches up from the database whenever it may be behind (see
    ``docs/deploy.md``). Without one, nothing of that runs: a single server
    behaves exactly as it always has.
    """

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.4,
        executor: Executor | None = None,
        broker: Broker | None = None,
        audit_seconds: float = 2.0,
        sweep_seconds: float = 0.5,
    ):
        self.store = store
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self.executor = executor or ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")
        self._closing = False
        self.broker = broker
        #: how often a cluster instance compares its cached rooms' versions with the database
        self.audit_seconds = audit_seconds
        #: how often it looks for bots whose instance stopped renewing their lease
        self.sweep_seconds = sweep_seconds
        #: background tasks of a cluster instance (listener work, audit, sweep)
        self._tasks: set[asyncio.Task[Any]] = set()
        #: bot moves this instance computed (a bot's move is computed by one instance)
        self.bot_moves = 0
        #: events this instance learnt from the database rather than from the broker
        self.repaired = 0

    # -- loading ------------------------------------------------------------------

    async def get(self, room_id: str, fresh: bool = False) -> Room:
        """The room ``room_id`` (loaded from the database on first use).

        ``fresh``: in a cluster, a cached room first catches up with the
        database (a client arriving from another instance may hold a newer
        version than the broker has brought here yet).
        """
        room = self.rooms.get(room_id)
        if room is not None:
            if fresh and self.broker is not None:
                await self.refresh(room)
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
        """Load every unfinished game with a bot seat, so that its bots carry on.

        In a cluster the games are only put in the broker's set of bots due
        (those not there yet): the sweeps of all instances share them out, and
        an instance loads a game only once it holds its bot's lease.
        """
        ids = await asyncio.to_thread(self.store.rooms_with_bots_to_resume)
        if self.broker is not None:
            await self.broker.mark_due(ids, only_new=True)
            return len(ids)
        for room_id in ids:
            try:
                await self.get(room_id)
            except Exception:
                log.exception("cannot resume game %s", room_id)
        return len(ids)

    # -- creating -----------------------------------------------------------------

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
        public_seed = seed is not None and game.max_players == 1
        spectator_chat = spec.spectator_chat
        practice = spec.practice
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
        row.over = room.state.is_over
        if self.broker is not None and room.bot_to_move() is not None:
            await self.broker.mark_due([room_id], self.broker.lease_seconds)
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
        if self.broker is not None and fresh.bot_to_move() is not None:
            await self.broker.mark_due([new_id], self.broker.lease_seconds)
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
        check = partial(room.checked_move, seat, text)
        return await _uncancellable(self._accept(room, version, check, origin, reply_to))

    async def undo(
        self,
        room: Room,
        seat: int | None,
        version: int,
        origin: Connection | None = None,
        reply_to: Any = None,
    ) -> int:
        """Take back the last move (an ``undo`` event in the log): any move of a single-player
        game, or a step of the turn the seat is playing (:func:`step_taker`)."""
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot undo")
        check = partial(room.checked_undo, seat)
        return await _uncancellable(self._accept(room, version, check, origin, reply_to))

    async def _accept(
        self,
        room: Room,
        version: int,
        check: Callable[[], Change],
        origin: Connection | None,
        reply_to: Any,
    ) -> int:
        """The one path of a client's or a bot's event: under the room's lock, the version
        and ``check`` first, then the commit, and only then the room changes and every
        client is told. Returns the event's version."""
        async with room.lock:
            if self.broker is not None and version > room.version:
                await self._catch_up_locked(room)  # the client saw more than this cache
            self._check_version(room, version)
            change = check()
            new_version = room.version + 1
            if self.broker is not None and room.bot_seat(change.after) is not None:
                # before the commit: should this instance die right after it, the bot
                # is still found by another instance's sweep
                await self.broker.mark_due([room.id], self.broker.lease_seconds)
            await self._commit(room, change.event(new_version), change.after.is_over)
            room.accept(change, new_version, origin, reply_to)
        self.kick_bots(room)
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
        """Store ``ev``; once it is committed, tell the cluster (if any).

        A key clash means another instance stored an event at this version
        first: the cache catches up with the database and the move is refused
        as stale, with the state that won (the caller sends it along).
        """
        changed = over if over != room.state.is_over else None
        try:
            await self.store.append_async(Append(room.id, ev, changed))
        except ConflictError:
            await self._catch_up_locked(room)
            raise ProtocolError(
                "stale-version",
                "the game is at version {version}, your move was made at version "
                "{yours}: look at the current position and try again",
                {"version": room.version},
                version=room.version,
                yours=ev.version - 1,
            ) from None
        except StorageError as e:
            raise ProtocolError(
                "storage", "the move could not be saved: {error}", error=str(e)
            ) from None
        if self.broker is not None:
            self.broker.publish(
                {
                    "t": "event",
                    "r": room.id,
                    "v": ev.version,
                    "k": ev.kind,
                    "s": ev.seat,
                    "d": ev.data,
                }
            )

    # -- chat -------------------------------------------------------------------------

    async def chat(self, room: Room, conn: Connection, text: str) -> None:
        """Store a seated player's chat line and send it to whoever may read the chat.

        Why these limits: a chat is for the table, not a channel for floods or for
        smuggling data to spectators (they read it only where the room allows).
        How often a connection may chat is checked before (:mod:`.limits`).
        """
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot chat")
        line = " ".join(text.split())
        if not 0 < len(line) <= CHAT_MAX_LENGTH:
            raise ProtocolError(
                "bad-message", "a chat line is 1 to {limit} characters", limit=CHAT_MAX_LENGTH
            )
        if has_control_characters(line):
            raise ProtocolError("bad-message", "a chat line cannot hold control characters")
        if self.broker is not None:
            await self._chat_clustered(room, conn.seat, line, self.broker)
            return
        seq = room.chat[-1].seq + 1 if room.chat else 1
        row = ChatRow(seq, conn.seat, line, time.time())
        room.chat.append(row)  # before the await: two lines cannot take one seq
        try:
            await asyncio.wrap_future(self.store.add_chat(room.id, row))
        except StorageError:
            room.chat.remove(row)
            raise ProtocolError("storage", "the chat line could not be saved") from None
        _send_chat(room, row)

    async def _chat_clustered(self, room: Room, seat: int, line: str, broker: Broker) -> None:
        """A chat line in a cluster: numbered one at a time, renumbered if another instance
        took the number first (the lines it stored are then read and shown here)."""
        async with room.chat_lock:
            for _ in range(5):
                seq = room.chat[-1].seq + 1 if room.chat else 1
                row = ChatRow(seq, seat, line, time.time())
                try:
                    await asyncio.wrap_future(self.store.add_chat(room.id, row))
                except ConflictError:
                    await self._chat_catch_up_locked(room)
                    continue
                except StorageError:
                    raise ProtocolError("storage", "the chat line could not be saved") from None
                room.chat.append(row)
                _send_chat(room, row)
                broker.publish(
                    {"t": "chat", "r": room.id, "q": seq, "s": seat, "x": line, "a": row.created_at}
                )
                return
        raise ProtocolError("storage", "the chat line could not be saved")

    async def _chat_catch_up_locked(self, room: Room) -> None:
        """Show and keep the chat lines stored after the last one this room knows."""
        lines = await asyncio.to_thread(self.store.load_chat, room.id)
        last = room.chat[-1].seq if room.chat else 0
        for row in lines:
            if row.seq > last:
                room.chat.append(row)
                _send_chat(room, row)

    # -- bots ---------------------------------------------------------------------------

    def kick_bots(self, room: Room) -> None:
        """Start the room's bot task if a bot is to move and none is running."""
        if self._closing or room.bot_to_move() is None:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._run_bots(room))
            if self.broker is not None:  # a room kept only for its bots leaves memory after
                room.bot_task.add_done_callback(lambda _: self.maybe_evict(room))

    async def _run_bots(self, room: Room) -> None:
        if self.broker is None:
            await self._play_bots(room)
        else:
            await self._run_bots_leased(room, self.broker)

    async def _run_bots_leased(self, room: Room, broker: Broker) -> None:
        """The bots of a room in a cluster: played only while this instance holds the lease.

        Another instance holding it is thinking already: this one follows its
        moves through the broker and looks again now and then (its sweep also
        finds the room if that instance dies). Holding it, the cache first
        catches up (the previous holder may have moved just before it let go),
        and a keeper renews the lease while the bots play; should it be lost,
        the bots stop. Letting go: when no bot is to move, the room leaves the
        broker's set of bots due; at shutdown it is due at once, for another
        instance to take over.
        """
        score: list[int] = []
        wait = 0.05
        try:
            while not self._closing and room.bot_to_move() is not None:
                got = await broker.claim(room.id)
                if not got:  # held elsewhere (0), or no broker to ask (None)
                    await asyncio.sleep(wait)
                    wait = min(2 * wait, broker.lease_seconds / 4)
                    if self.rooms.get(room.id) is not room:
                        return  # evicted meanwhile: the room is no concern of this instance
                    continue
                score[:] = [got]
                async with room.lock:
                    await self._catch_up_locked(room)
                play = asyncio.ensure_future(self._play_bots(room))
                keeper = asyncio.ensure_future(self._keep_lease(room, broker, play, score))
                try:
                    await asyncio.wait({play})
                finally:
                    keeper.cancel()
                    if not play.done():  # this task itself was cancelled (shutdown)
                        play.cancel()
                if not play.cancelled() and play.exception() is not None:
                    log.error("bots of game %s stopped", room.id, exc_info=play.exception())
                    return
        finally:
            if score:
                await broker.release(room.id, score[0], done=room.bot_to_move() is None)

    async def _keep_lease(
        self, room: Room, broker: Broker, play: asyncio.Future[None], score: list[int]
    ) -> None:
        """Renew the lease while ``play`` runs; stop it once the lease may be someone else's.

        That is at once if another instance holds it, or when the broker has
        not confirmed it for a whole lease period (it may have expired).
        """
        renewed = time.monotonic()
        while not play.done():
            await asyncio.sleep(broker.lease_seconds / 3)
            got = await broker.claim(room.id)
            if got:
                score[:] = [got]
                renewed = time.monotonic()
            elif got == 0 or time.monotonic() - renewed >= broker.lease_seconds:
                log.warning("bots of game %s paused: their lease could not be renewed", room.id)
                play.cancel()
                return

    async def _play_bots(self, room: Room) -> None:
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
                self.bot_moves += 1
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

    # -- a cluster instance -----------------------------------------------------------

    def start_cluster(self) -> None:
        """Listen to the broker and start the audit and the sweep (an instance of a cluster)."""
        assert self.broker is not None
        self.broker.start(self._on_broker_message, self._on_broker_resync)
        self._spawn(self._audit_loop())
        self._spawn(self._sweep_loop())

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)  # the loop keeps only weak references to tasks
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cluster work failed", exc_info=task.exception())

    def _on_broker_message(self, msg: dict[str, Any]) -> None:
        """Another instance's news: advance the room if it is cached here (else nothing)."""
        room_id = msg.get("r")
        if self._closing or not isinstance(room_id, str):
            return
        room = self.rooms.get(room_id)
        if room is not None:
            self._spawn(self._remote(room, msg))
        elif room_id in self._loading:  # read before this event was committed, perhaps
            self._spawn(self._after_load(room_id, msg))

    async def _after_load(self, room_id: str, msg: dict[str, Any]) -> None:
        with contextlib.suppress(ProtocolError):
            await self._remote(await self.get(room_id), msg)

    async def _remote(self, room: Room, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        if kind == "event":
            version, seat = msg.get("v"), msg.get("s")
            if not isinstance(version, int) or (seat is not None and not isinstance(seat, int)):
                return
            if version <= room.version:
                return  # this instance's own event, or one a catch-up brought already
            async with room.lock:
                if version == room.version + 1:
                    ev = EventRow(version, str(msg.get("k")), seat, str(msg.get("d")))
                    if not self._apply(room, ev):
                        await self._reload_locked(room)
                elif version > room.version:  # a gap: the database has what is missing
                    await self._catch_up_locked(room)
            self.kick_bots(room)
        elif kind == "chat":
            await self._remote_chat(room, msg)
        elif kind == "rematch" and isinstance(msg.get("n"), str):
            for conn in list(room.conns):
                conn.send({"type": "rematch", "room": msg["n"]})

    async def _remote_chat(self, room: Room, msg: dict[str, Any]) -> None:
        seq, seat, text, at = msg.get("q"), msg.get("s"), msg.get("x"), msg.get("a")
        if not (isinstance(seq, int) and isinstance(seat, int) and isinstance(text, str)):
            return
        if not 0 <= seat < room.players:
            return
        async with room.chat_lock:
            last = room.chat[-1].seq if room.chat else 0
            if seq == last + 1:
                row = ChatRow(seq, seat, text, float(at) if isinstance(at, int | float) else 0.0)
                room.chat.append(row)
                _send_chat(room, row)
            elif seq > last + 1:
                await self._chat_catch_up_locked(room)

    def _apply(self, room: Room, ev: EventRow) -> bool:
        """Advance the cached room by an event committed elsewhere, and tell its clients.

        ``False`` if the event does not fit the cache (it is then rebuilt).
        """
        try:
            change = room.logged(ev)
            if change is not None:
                room.accept(change, ev.version)
                return True
        except PyramidsError as e:
            log.warning("event %s of game %s does not fit the cache: %s", ev.version, room.id, e)
        return False

    async def _catch_up_locked(self, room: Room) -> None:
        """Apply, in order, the events stored after the cached version (under the room's lock).

        How every doubt about a cache ends: a gap in the broker's messages, a
        broker that was away, a lost race at a version, a client that has
        seen more than this instance. Each event reaches the clients as usual,
        so none of them sees a gap or an event twice.
        """
        try:
            events = await asyncio.to_thread(self.store.events_after, room.id, room.version)
        except SQLAlchemyError as e:
            log.warning("cannot catch game %s up: %s", room.id, type(e).__name__)
            return
        for ev in events:
            if ev.version != room.version + 1 or not self._apply(room, ev):
                await self._reload_locked(room)
                return
            self.repaired += 1

    async def _reload_locked(self, room: Room) -> None:
        """Rebuild the room from the database and send every client a fresh snapshot."""
        row = await asyncio.to_thread(self.store.load_room, room.id)
        if row is None:
            return
        room.reload(row)
        room.agents.clear()  # they observed another history
        for conn in list(room.conns):
            conn.send(room.snapshot(conn.seat))

    async def refresh(self, room: Room) -> None:
        """Catch a cached room up with the database (in a cluster; else nothing to do)."""
        if self.broker is None:
            return
        async with room.lock:
            await self._catch_up_locked(room)
        self.kick_bots(room)

    def _on_broker_resync(self, first: bool) -> None:
        """The subscription is (again) up: whatever was published meanwhile may be lost."""
        for room in list(self.rooms.values()):
            self._spawn(self.refresh(room))
        if not first:  # a restarted broker may have lost its set of bots due
            self._spawn(self.resume_all())

    async def _audit_loop(self) -> None:
        """Now and then, compare every cached room's version with the database's.

        Why, with the broker: an instance can die between committing an event
        and publishing it, and a broker can drop a message without anyone
        noticing; this bounds how long a cache can stay behind (``audit_seconds``).
        """
        while True:
            await asyncio.sleep(self.audit_seconds)
            rooms = list(self.rooms.values())
            if not rooms:
                continue
            try:
                stored = await asyncio.to_thread(self.store.latest_versions, [r.id for r in rooms])
            except SQLAlchemyError as e:
                log.warning("cannot audit the cached games: %s", type(e).__name__)
                continue
            for room in rooms:
                if stored.get(room.id, 0) > room.version:
                    self._spawn(self.refresh(room))

    async def _sweep_loop(self) -> None:
        """Take over bots whose instance stopped renewing their lease (it died, say)."""
        assert self.broker is not None
        while True:
            await asyncio.sleep(self.sweep_seconds)
            for room_id, _ in await self.broker.due():
                try:
                    await self._take_over(room_id, self.broker)
                except Exception:  # one broken room must not stop the sweep
                    log.exception("cannot take over the bots of game %s", room_id)

    async def _take_over(self, room_id: str, broker: Broker) -> None:
        room = self.rooms.get(room_id)
        if room is not None:
            await self.refresh(room)  # starts its bots if one is to move
            if room.bot_to_move() is None:
                got = await broker.claim(room_id)
                if got:  # a stale entry (a bot turn registered, never played)
                    await broker.release(room_id, got, done=True)
            return
        got = await broker.claim(room_id)
        if not got:
            return  # another instance has it
        try:
            room = await self.get(room_id)  # loads it and starts its bots, under our lease
        except ProtocolError:  # no such game
            await broker.release(room_id, got, done=True)
            return
        if room.bot_to_move() is None:
            await broker.release(room_id, got, done=True)
            self.maybe_evict(room)

    async def close(self) -> None:
        """Stop bots and connections (the store is closed by the app)."""
        self._closing = True
        background = list(self._tasks)
        for t in background:
            t.cancel()
        for t in background:
            with contextlib.suppress(BaseException):
                await t
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


def _send_chat(room: Room, row: ChatRow) -> None:
    """Send a chat line to whoever in the room may read the chat."""
    msg = chat_message(room, row)
    for other in list(room.conns):
        if other.seat is not None or room.spectator_chat:
            other.send(msg)


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
