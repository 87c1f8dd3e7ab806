"""Time controls: the server's clocks, the per-turn step cap, and who is ranked where.

Why the server keeps the clocks: a client's clock can be stopped, slowed or
lost with its tab. The room's clock state (each seat's time left at the start
of the current turn, whose turn it is, since when, and the turn's deadline)
is stored with every event in the same transaction, and a sweep of the
database's due deadlines (:class:`ClockSweep`) ends the turns that ran out, so
a clock survives a restart of the server and, in a cluster, the loss of the
instance that served the room.

What a clock running out does is ``RULINGS.md`` §5: with 2 players the player
who ran out loses; with 3 to 5 that player leaves the game, is ranked last,
and a bot of the table's level plays the seat to the end; several who leave
are each ranked below those who left after them. The solitaire has no clock.

A turn of many steps (a Pyramido turn, a treasure-hunt event and its slides)
is one turn for the clock: it runs until the turn passes to another seat. On
every table, timed or not, a turn ends by the same ruling once it has taken
:data:`TURN_STEP_CAP` steps (a treasure-hunt event sliding back and forth
could otherwise go on for ever; a turn played to make progress takes far
fewer steps).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pyramids.engine.state import State
from pyramids.server.bots import bot_choices
from pyramids.server.protocol import ProtocolError
from pyramids.server.storage import ClockRow

log = logging.getLogger("pyramids.server")

#: steps one turn may take before it ends by the clock ruling (on every multiplayer table)
TURN_STEP_CAP = 64
#: the days a turn-based table allows per move
TURN_DAYS = (1, 2, 3, 7)
#: real-time bounds (seconds): the starting time per player, and the time added per move
BASE_RANGE = (1, 3 * 3600)
INCREMENT_RANGE = (0, 300)
#: real-time presets per game, sized to the game's length: (starting seconds, seconds per move)
PRESETS: dict[str, dict[str, tuple[int, int]]] = {
    "pyramido": {"quick": (300, 5), "standard": (600, 10), "slow": (1200, 20)},
    "pyramideto": {"quick": (180, 3), "standard": (420, 5), "slow": (900, 10)},
    "pyramido-treasure": {"quick": (420, 5), "standard": (900, 10), "slow": (1800, 20)},
}


def lobby_bot(game_id: str) -> tuple[str, str | None]:
    """The bot the lobby offers first for ``game_id`` (its default agent, at its first level).

    It plays the seat of someone who left a table that has no bot of its own
    (``RULINGS.md`` §5: "the lobby's default level if none").
    """
    choices = bot_choices(game_id)
    first = next((b for b in choices if b["default"]), choices[0])
    levels = first["levels"]
    return str(first["agent"]), (str(levels[0]) if levels else None)


@dataclass(frozen=True)
class Control:
    """A table's time control: ``untimed``, ``realtime`` (base + increment) or ``turn`` (days)."""

    kind: str = "untimed"
    base: int = 0
    increment: int = 0
    days: int = 0

    @property
    def timed(self) -> bool:
        """Whether a clock can run out (an untimed table still has the step cap)."""
        return self.kind != "untimed"

    @property
    def per_turn(self) -> float:
        """A turn-based table's seconds per move."""
        return float(self.days * 86400)

    def to_dict(self) -> dict[str, Any]:
        """The control as the API shows it."""
        if self.kind == "realtime":
            return {"kind": "realtime", "base": self.base, "increment": self.increment}
        if self.kind == "turn":
            return {"kind": "turn", "days": self.days}
        return {"kind": "untimed"}

    def start(self) -> float:
        """Each seat's time at the start of the game."""
        if self.kind == "realtime":
            return float(self.base)
        if self.kind == "turn":
            return self.per_turn
        return 0.0


def _whole(value: Any, name: str, bounds: tuple[int, int]) -> int:
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or not (bounds[0] <= value <= bounds[1])
    ):
        raise ProtocolError(
            "bad-request",
            "'clock': {name} must be a whole number from {low} to {high}",
            name=name,
            low=bounds[0],
            high=bounds[1],
        )
    return value


def parse_control(game_id: str, players: int, raw: dict[str, Any] | None) -> Control:
    """The control a new room asks for (``None``: untimed); a clear refusal otherwise.

    Shapes: ``{"kind": "untimed"}``, ``{"kind": "realtime", "base": 300,
    "increment": 5}`` (seconds), ``{"kind": "realtime", "preset": "quick"}``
    (:data:`PRESETS`), ``{"kind": "turn", "days": 1}`` (:data:`TURN_DAYS`).
    """
    if raw is None:
        return Control()
    kind = raw.get("kind", "untimed")
    allowed = {"untimed": {"kind"}, "realtime": {"kind", "base", "increment", "preset"}}
    allowed["turn"] = {"kind", "days"}
    if kind not in allowed:
        raise ProtocolError("bad-request", "'clock': kind must be 'untimed', 'realtime' or 'turn'")
    extra = sorted(set(raw) - allowed[kind])
    if extra:
        raise ProtocolError("bad-request", "'clock': unknown field {field}", field=repr(extra[0]))
    if kind == "untimed":
        return Control()
    if players < 2:
        raise ProtocolError("bad-request", "'clock': a game for one has no clock")
    if kind == "turn":
        days = raw.get("days")
        if days not in TURN_DAYS or isinstance(days, bool):
            raise ProtocolError(
                "bad-request", "'clock': days must be one of {choices}", choices="1, 2, 3, 7"
            )
        return Control("turn", days=int(days))
    if "preset" in raw:
        presets = PRESETS.get(game_id, {})
        if raw["preset"] not in presets or {"base", "increment"} & set(raw):
            raise ProtocolError(
                "bad-request",
                "'clock': preset must be one of {choices}, without base or increment",
                choices=", ".join(presets),
            )
        base, increment = presets[raw["preset"]]
        return Control("realtime", base, increment)
    base = _whole(raw.get("base"), "base", BASE_RANGE)
    increment = _whole(raw.get("increment", 0), "increment", INCREMENT_RANGE)
    return Control("realtime", base, increment)


@dataclass(frozen=True)
class Clock:
    """A room's clock state, as stored: why values and not a running timer.

    ``remaining`` is each seat's time at the start of the current turn;
    ``turn_seat`` is whose turn it is since ``turn_start`` (a wall-clock time,
    shared by every instance of a cluster), ``steps`` how many steps that turn
    has taken, and ``deadline`` when it runs out (``None``: it cannot, the seat
    is played by a bot or the table is untimed).
    """

    control: Control
    remaining: tuple[float, ...]
    turn_seat: int | None
    turn_start: float
    steps: int = 0
    deadline: float | None = None

    @classmethod
    def new(
        cls, control: Control, state: State[Any], now: float, timed: Callable[[int], bool]
    ) -> Clock:
        """The clock of a room made at ``now`` (a real-time clock starts with the room)."""
        seat = None if state.is_over else state.current_player
        clock = cls(control, (control.start(),) * state.players, seat, now)
        return clock.with_deadline(timed)

    def with_deadline(self, timed: Callable[[int], bool]) -> Clock:
        """The same clock with its deadline worked out (``timed(seat)``: a human still seated)."""
        seat = self.turn_seat
        if not self.control.timed or seat is None or not timed(seat):
            return replace(self, deadline=None)
        return replace(self, deadline=self.turn_start + self.remaining[seat])

    def after_step(self, after: State[Any], now: float, timed: Callable[[int], bool]) -> Clock:
        """The clock once a step was played at ``now`` (``after`` is the state it leaves).

        The same seat still to move: the turn goes on (one more step). Another
        seat: the mover's time is charged (and its increment added, or on a
        turn-based table its time per move given back) and the next turn starts.
        """
        nxt = None if after.is_over else after.current_player
        if nxt is not None and nxt == self.turn_seat:
            return replace(self, steps=self.steps + 1)
        remaining = list(self.remaining)
        seat = self.turn_seat
        if seat is not None and self.control.kind == "realtime":
            used = max(0.0, now - self.turn_start)
            remaining[seat] = max(0.0, remaining[seat] - used) + self.control.increment
        elif seat is not None and self.control.kind == "turn":
            remaining[seat] = self.control.per_turn
        moved = Clock(self.control, tuple(remaining), nxt, now, 0)
        return moved.with_deadline(timed)

    def after_leave(self, seat: int, now: float, timed: Callable[[int], bool]) -> Clock:
        """The clock once ``seat`` ran out (or passed the step cap) and left at ``now``."""
        remaining = list(self.remaining)
        remaining[seat] = 0.0
        turn_start = now if self.turn_seat == seat else self.turn_start
        left = replace(self, remaining=tuple(remaining), turn_start=turn_start, steps=0)
        return left.with_deadline(timed)

    def ran_out(self, now: float) -> int | None:
        """The seat whose turn has ended by the ruling at ``now`` (time or step cap), if any."""
        if self.turn_seat is None:
            return None
        if self.deadline is not None and now >= self.deadline:
            return self.turn_seat
        if self.steps >= TURN_STEP_CAP:
            return self.turn_seat
        return None

    def to_dict(self, now: float) -> dict[str, Any]:
        """What clients are shown: each seat's time left *now* (they count down locally)."""
        left = list(self.remaining)
        seat = self.turn_seat
        if seat is not None and self.deadline is not None:
            left[seat] = max(0.0, self.deadline - now)
        return {
            **self.control.to_dict(),
            "remaining": [round(x, 1) for x in left] if self.control.timed else None,
            "turn": seat,
            "running": self.deadline is not None,
            "steps": self.steps,
            "step_cap": TURN_STEP_CAP,
        }


def standing(
    ranking: Sequence[int] | None, players: int, left: Sequence[int], lost: bool
) -> list[int] | None:
    """The final places (1 = best) once seats have left by the clock ruling.

    ``ranking`` is the game's own (``None`` while it runs); ``left`` the seats
    that left, in order; ``lost``: a 2-player game ended by the clock. The
    seats still playing keep their order among themselves, above every seat
    that left; of those who left, each is below everyone who left after them.
    """
    if lost:
        return [2 if p in left else 1 for p in range(players)]
    if ranking is None:
        return None
    if not left:
        return list(ranking)
    stay = [p for p in range(players) if p not in left]
    out = [0] * players
    for p in stay:
        out[p] = 1 + sum(1 for q in stay if ranking[q] < ranking[p])
    for i, p in enumerate(left):
        out[p] = len(stay) + len(left) - i
    return out


class ClockSweep:
    """Ends the turns that ran out, found in the database (every instance looks).

    Why the database and not timers: a timer dies with its process; the
    deadlines stored with the events are still there after a restart, and
    every instance of a cluster sees them (two that end the same turn at once
    collide on the event's key, and the loser catches up).
    """

    def __init__(
        self,
        due: Callable[[float], list[str]],
        expire: Callable[[str], Awaitable[None]],
        seconds: float,
    ) -> None:
        self.due = due
        self.expire = expire
        #: how often the due deadlines are looked for
        self.seconds = seconds
        self.task: asyncio.Task[None] | None = None
        #: turns this instance ended by the ruling
        self.expired = 0

    def start(self) -> None:
        """Start the sweep (once)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            try:
                ids = await asyncio.to_thread(self.due, time.time())
            except Exception as e:  # the database is away: look again next time
                log.warning("cannot look for clocks run out: %s", type(e).__name__)
                continue
            for room_id in ids:
                try:
                    await self.expire(room_id)
                except Exception:  # one broken room must not stop the sweep
                    log.exception("cannot end the turn of game %s", room_id)

    async def close(self) -> None:
        """Stop the sweep."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):  # cancelled: stopped
                await self.task


def clock_row(clock: Clock) -> ClockRow:
    """The clock as the database stores it."""
    return ClockRow(
        clock.control.to_dict(),
        list(clock.remaining),
        clock.turn_seat,
        clock.turn_start,
        clock.steps,
        clock.deadline,
    )
