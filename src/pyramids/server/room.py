"""One room: its game cached in memory, its event log, its connections and its messages.

The database is the truth; a :class:`Room` caches the state rebuilt from it
(seed + variant + seats + the move log) so a move costs one ``play`` and one
committed insert. What changes a room goes through one value, :class:`Change`,
and one method, :meth:`Room.accept`, whoever made the change (a client, a bot,
another instance of a cluster). Who may change it, and when, is the business
of :class:`pyramids.server.rooms.RoomManager` and its parts.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections import deque
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from pyramids.ai.base import Agent
from pyramids.engine.errors import IllegalMove
from pyramids.engine.records import make_record
from pyramids.engine.registry import get_game
from pyramids.engine.state import State
from pyramids.i18n import Translator
from pyramids.server import fair
from pyramids.server.bots import build_agent
from pyramids.server.clocks import Clock, Control, lobby_bot, standing
from pyramids.server.limits import Bucket
from pyramids.server.protocol import (
    ProtocolError,
    PublicSeat,
    event_message,
    seat_payload,
    snapshot_message,
)
from pyramids.server.storage import CHAT_KEPT, ChatRow, ClockRow, EventRow, RoomRow, SeatRow

#: states kept per room so a reconnecting client can be sent the events it missed
HISTORY = 64
#: a client that lets this many messages pile up is disconnected (it resyncs on reconnect)
OUTBOX_LIMIT = 2000


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed: reading the database does not let anyone take a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def rebuild(
    game_id: str,
    players: int,
    seed: int | None,
    names: Sequence[str],
    variant: dict[str, Any],
    moves: Sequence[str],
    secret: str | None = None,
) -> State[Any]:
    """The state after ``moves`` (notation) from the room's deal; chance follows the same stream.

    The deal is ``seed``'s, or with no seed the keyed stream of ``secret`` (:func:`fair.deal`).
    """
    state = fair.deal(game_id, players, seed, secret, names, variant)
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
        #: whether the client asked to be told the seats' presence (:mod:`.presence`)
        self.wants_presence = False

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

    kind: Literal["move", "undo", "timeout"]
    seat: int | None
    #: the state after the event
    after: State[Any]
    #: the move log after the event (notation)
    moves: list[str]
    #: the move played and its canonical notation (``None`` for an undo)
    move: Hashable | None = None
    text: str | None = None
    #: the room's clock after the event (``None``: a solitaire has none)
    clock: Clock | None = None
    #: why a ``timeout`` came: ``"time"`` (the clock ran out) or ``"steps"`` (the step cap)
    reason: str | None = None

    def event(self, version: int) -> EventRow:
        """The change as the log's entry at ``version``."""
        data = self.text if self.text is not None else self.reason or "1"
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
        #: the seats as created; :attr:`seats` has those who left by the clock played by bots
        self.stored_seats = list(row.seats)
        self.seats = list(row.seats)
        #: seats that left by the clock ruling, in order (``RULINGS.md`` §5)
        self.left: list[int] = []
        #: a 2-player game ended by the clock (the seat in :attr:`left` lost)
        self.lost = False
        #: why each seat in :attr:`left` left: ``"time"`` or ``"steps"``
        self.left_why: list[str] = []
        self.clock: Clock | None = None
        self.public_seed = bool(row.public_seed)
        #: moves taken back (a record says how many: a take-back shows hidden cards)
        self.undos = 0
        self.moves: list[str] = []
        self.version = 0
        self.state: State[Any]
        self.history: deque[Past] = deque(maxlen=HISTORY)
        #: the positions of the game for a move log (see :meth:`replay_states`)
        self._replay: tuple[tuple[str, ...], list[State[Any]]] | None = None
        self.agents: dict[int, Agent] = {}
        self._read_log(row)
        self._read_clock(row.clock)
        self.lock = asyncio.Lock()
        #: a cluster's chat lines take their numbers one at a time (see :mod:`.chat`)
        self.chat_lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.spectator_chat = bool(row.spectator_chat)
        self.chat: deque[ChatRow] = deque(row.chat, maxlen=CHAT_KEPT)
        self.practice = bool(row.practice)
        self.secret = row.secret
        #: the published commitment to the seed (None for rooms made before schema 3)
        self.commitment = fair.published(row.seed, row.secret)

    def _read_log(self, row: RoomRow) -> None:
        """Take the moves, version and state from a stored room (its event log replayed).

        The last :data:`HISTORY` events are kept with their states, as a live room keeps
        them: a page opened after the room was loaded again (a reload, a restart) is sent
        them to retell "What happened".
        """
        names = [s.name for s in row.seats]

        def at(moves: Sequence[str]) -> State[Any]:
            return rebuild(row.game, row.players, row.seed, names, row.variant, moves, row.secret)

        moves: list[str] = []
        undos = 0
        self.seats = list(self.stored_seats)
        self.left = []
        self.left_why = []
        self.lost = False
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
            elif ev.kind == "timeout" and ev.seat is not None:
                self._leave(ev.seat, ev.data)
            else:
                continue
            if state is not None:
                before = state
                if ev.kind == "move":
                    state = before.copy()
                    state.play(state.parse_move(ev.data))
                elif ev.kind == "undo":
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
        self._read_clock(row.clock)
        self.chat = deque(row.chat, maxlen=CHAT_KEPT)

    def _read_clock(self, stored: ClockRow | None) -> None:
        """The clock as stored; an untimed one for a room made before clocks."""
        if self.players < 2:
            self.clock = None
            return
        if stored is None:
            self.clock = Clock.new(Control(), self.state, self.created_at, self.timed_seat)
            return
        c = stored.control
        control = Control(
            str(c.get("kind", "untimed")),
            int(c.get("base", 0)),
            int(c.get("increment", 0)),
            int(c.get("days", 0)),
        )
        self.clock = Clock(
            control,
            tuple(stored.remaining),
            stored.turn_seat,
            stored.turn_start,
            stored.steps,
            stored.deadline,
        )

    # -- the clock ruling ----------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended: by its rules, or (2 players) by the clock."""
        return self.lost or self.state.is_over

    def timed_seat(self, seat: int) -> bool:
        """Whether ``seat``'s clock runs: a person still at the table (bots have no clock)."""
        return self.seats[seat].kind == "human"

    def _leave(self, seat: int, why: str) -> None:
        """``seat`` ran out (``RULINGS.md`` §5): 2 players, it lost; else a bot takes the seat.

        The bot is the table's own (its first bot seat's agent and level), or
        the lobby's default (:func:`.clocks.lobby_bot`) at a table of people only.
        """
        if seat in self.left or not 0 <= seat < self.players:
            return
        self.left.append(seat)
        self.left_why.append(why)
        if self.players == 2:
            self.lost = True
            return
        agent, level = next(
            ((s.agent, s.level) for s in self.stored_seats if s.kind == "bot" and s.agent),
            (None, None),
        )
        if agent is None:
            agent, level = lobby_bot(self.game.id)
        s = self.seats[seat]
        self.seats[seat] = SeatRow(s.seat, s.name, "bot", agent, level, s.token_hash)
        self.agents.pop(seat, None)

    def checked_timeout(self, now: float) -> Change | None:
        """The turn that has run out at ``now`` (time or step cap) as a change, if there is one."""
        clock = self.clock
        if clock is None or self.over:
            return None
        seat = clock.ran_out(now)
        if seat is None or not self.timed_seat(seat):
            return None
        why = "time" if clock.deadline is not None and now >= clock.deadline else "steps"
        return self._timeout(seat, why, now)

    def _timeout(self, seat: int, why: str, now: float) -> Change:
        """``seat`` leaving by the clock ruling at ``now``, as a change."""
        clock = self.clock
        if clock is not None and self.players == 2:
            clock = clock.after_leave(seat, now, lambda _: False)
        elif clock is not None:
            clock = clock.after_leave(seat, now, lambda p: p != seat and self.timed_seat(p))
        return Change("timeout", seat, self.state, list(self.moves), clock=clock, reason=why)

    def standing(self) -> list[int] | None:
        """The places (1 = best) by the game and the clock ruling; ``None`` while it runs."""
        ranking = self.state.ranking() if self.state.is_over else None
        return standing(ranking, self.players, self.left, self.lost)

    def payload(self, state: State[Any], seat: int | None) -> dict[str, Any]:
        """:func:`seat_payload`, with the clock ruling's end and places in the view."""
        out = seat_payload(state, seat)
        if not self.left:
            return out
        view = dict(out["view"])
        if self.lost:
            view["is_over"] = True
            out["legal"] = None
        if view.get("is_over"):
            view["ranking"] = standing(
                state.ranking() if state.is_over else None, self.players, self.left, self.lost
            )
        out["view"] = view
        return out

    def clock_info(self) -> dict[str, Any]:
        """The clock and the seats that left, as every message carries them (none: a solitaire)."""
        if self.clock is None:
            return {}
        return {"left": list(self.left), "clock": self.clock.to_dict(time.time())}

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
        if p is None or state.is_over or self.lost or self.seats[p].kind != "bot":
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
        return rebuild(
            self.game.id, self.players, self.seed, names, self.variant, moves, self.secret
        )

    def replay_states(self) -> list[State[Any]]:
        """Every position of the game from the deal (built once for each move log).

        Why keyed by the moves themselves and not by their count: after an undo
        and another last move the log is as long as before but not the same.
        Built from a copy of the log, so a move accepted meanwhile (this runs in
        a worker thread) cannot mix two games.
        """
        moves = tuple(self.moves)
        cached = self._replay
        if cached is not None and cached[0] == moves:
            return cached[1]
        state = self.deal()
        states = [state.copy()]
        for text in moves:
            state.play(state.parse_move(text))
            states.append(state.copy())
        self._replay = (moves, states)
        return states

    # -- events -------------------------------------------------------------------

    def checked_move(self, seat: int, text: str, person: bool = True) -> Change:
        """``seat`` playing ``text`` now, checked; :class:`ProtocolError` if it may not.

        ``person``: the move comes from a client, not from the seat's bot (a
        person who left by the clock ruling may no longer move).
        """
        state = self.state
        if self.over:
            raise ProtocolError("game-over", "the game is over: no more moves can be played")
        if person and seat in self.left:
            raise ProtocolError(
                "left", "your time ran out: you have left this game and a bot plays your seat"
            )
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
        return Change(
            "move", seat, after, [*self.moves, canonical], move, canonical, self._clock_after(after)
        )

    def _clock_after(self, after: State[Any]) -> Clock | None:
        """The clock once the state becomes ``after`` now."""
        if self.clock is None:
            return None
        return self.clock.after_step(after, time.time(), self.timed_seat)

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
            clock = self._clock_after(after)
            return Change("move", ev.seat, after, [*self.moves, ev.data], move, ev.data, clock)
        if ev.kind == "timeout" and ev.seat is not None:
            return self._timeout(ev.seat, ev.data, time.time())
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
        if change.kind == "timeout" and change.seat is not None:
            self._leave(change.seat, change.reason or "time")
        if change.clock is not None:
            self.clock = change.clock
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
        msg.update(self.payload(self.state, seat))
        msg.update(self.clock_info())
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
        info = self.clock_info()
        out = [
            {
                **event_message(
                    self.id,
                    p.version,
                    p.kind,
                    p.mover,
                    p.move_text,
                    self.payload(p.state, seat),
                    seat,
                    self._undo_at(p, seat),
                ),
                **info,
            }
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
            "over": self.over,
            "current_player": None if self.over else self.state.current_player,
            "scores": view.get("scores"),
            "ranking": self.standing(),
            "seats": [s.to_dict() for s in self.public_seats()],
            "created_at": self.created_at,
            "practice": self.practice,
            "commitment": self.commitment,
            "reveal": self.reveal(),
            **self.clock_info(),
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
        if self.clock is not None:
            # the game's own result stays what its moves give (``pyramids verify`` checks it);
            # the clock ruling's part is beside it
            out["clock"] = {
                **self.clock.control.to_dict(),
                "left": [
                    {"seat": s, "why": w} for s, w in zip(self.left, self.left_why, strict=True)
                ],
                "over": self.over,
                "ranking": self.standing(),
            }
        return out

    def reveal(self) -> dict[str, Any] | None:
        """The commitment's secret (and seed, if seeded), once the game is over (else ``None``).

        Why only then: the deal's secret fixes every hidden card and every future chance.
        """
        if not self.over:
            return None
        return fair.reveal(self.seed, self.secret)

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
        info = self.clock_info()
        for conn in list(self.conns):
            if conn.seat not in payloads:
                payloads[conn.seat] = self.payload(self.state, conn.seat)
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
            msg.update(info)
            conn.send(msg)


def dumps(msg: dict[str, Any]) -> str:
    """Messages are compact JSON, encoded by orjson.

    Why orjson: every accepted move sends each connection its whole view, and
    the standard encoder took as long as building the view and more (≈ 50 µs
    for a 2.5 KB Pirámides view, against ≈ 5 µs).
    """
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
