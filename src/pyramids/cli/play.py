"""Terminal play for every game: humans, bots and hot-seat around one screen.

The loop only uses the engine contract and the game's renderer, so every
registered game gets undo, move lists, saving and clear errors for free.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.table import Table

from pyramids.ai.base import Agent
from pyramids.cli.common import _, reason, tr
from pyramids.engine.errors import IllegalMove, PyramidsError
from pyramids.engine.records import save_record
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.i18n import N_

HELP = N_(
    "Type a move in the game's notation, or:\n"
    "  moves | m       list the legal moves, numbered; then type a number to play one\n"
    "  <number>        play that move of the list\n"
    "  undo | u        take back your last move (and the bot moves after it)\n"
    "  save FILE       save the game record so far as JSON\n"
    "  help | ?        this text\n"
    "  quit | q        leave the game"
)


@dataclass
class Seat:
    """Who plays a seat: a human (agent None) or a bot."""

    name: str
    agent: Agent | None = None


@dataclass
class Session:
    """One terminal game in progress, with its undo history."""

    state: State[Any]
    seats: list[Seat]
    console: Console
    render: Callable[[dict[str, Any]], RenderableType]
    summary: Callable[[dict[str, Any]], RenderableType] | None
    rng: Rng
    describe: Callable[[dict[str, Any], str], str] | None = None
    history: list[State[Any]] = field(default_factory=list)
    extra_commands: dict[str, Callable[[Session, str], None]] = field(default_factory=dict)
    save_to: Path | None = None
    listed: list[Hashable] = field(default_factory=list)

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.agent is None]


def scores_table(view: dict[str, Any]) -> Table:
    """A generic end-of-game table: names, scores and places."""
    table = Table(title=_("Result"))
    table.add_column(_("Seat"))
    table.add_column(_("Player"))
    table.add_column(_("Score"), justify="right")
    table.add_column(_("Place"), justify="right")
    ranking = view.get("ranking") or [None] * len(view["scores"])
    for i, (name, score, rank) in enumerate(
        zip(view["names"], view["scores"], ranking, strict=True)
    ):
        table.add_row(str(i), name, tr().number(score), "" if rank is None else tr().number(rank))
    return table


def run_session(session: Session, read: Callable[[str], str] = input) -> State[Any]:
    """Play until the game ends or a human quits; return the final state."""
    con = session.console
    state = session.state
    shown_for: int | None = -1
    drawn_at: int | None = None  # ply of the board last drawn, to redraw only on change
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        agent = session.seats[seat].agent
        if agent is not None:
            move = agent.choose(state, session.rng)
            text = state.move_to_str(move)
            # Told as the table sees it: a bot's secret (an exchanged card) stays secret.
            if session.describe is not None:
                text = session.describe(state.view(None), text)
            state.play(move)
            con.print(f"[cyan]{session.seats[seat].name}[/]: [bold]{escape(text)}[/]")
            continue
        if len(session.humans) > 1 and shown_for != seat:
            # Hot-seat: hide the previous player's hand until the next one is ready.
            con.clear()
            read(
                _("Pass the screen to {player}, then press Enter ", player=session.seats[seat].name)
            )
        if shown_for != seat or drawn_at != state.ply:
            con.print(session.render(state.view(seat)))
            drawn_at = state.ply
        shown_for = seat
        try:
            line = read(f"{session.seats[seat].name}> ").strip()
        except EOFError:
            con.print("\n" + _("Input closed: leaving the game."))
            break
        if not line:
            continue
        word, _sep, rest = line.partition(" ")
        lw = word.lower()
        if lw in ("q", "quit", "exit"):
            break
        if lw in ("?", "h", "help"):
            con.print(escape(_(HELP)))
            for name, fn in session.extra_commands.items():
                con.print(f"  {name:<15} {(fn.__doc__ or '').strip().splitlines()[0]}")
            continue
        if lw in ("m", "moves", "l", "list"):
            session.listed = list(state.legal_moves())
            view = state.view(seat)
            for i, m in enumerate(session.listed, 1):
                text = state.move_to_str(m)
                shown = session.describe(view, text) if session.describe else text
                con.print(f"  {i:>3}. {escape(shown)}")
            continue
        if lw in ("u", "undo"):
            if not session.history:
                con.print(f"[yellow]{_('Nothing to undo.')}[/]")
            else:
                state = session.state = session.history.pop()
                drawn_at = None
                con.print(f"[green]{_('Move taken back.')}[/]")
            continue
        if lw == "save":
            if not rest:
                con.print(f"[yellow]{_('save needs a file name: save game.json')}[/]")
            else:
                save_record(state, Path(rest))
                con.print(f"[green]{escape(_('Record saved to {path}', path=rest))}[/]")
            continue
        if lw in session.extra_commands:
            session.extra_commands[lw](session, rest)
            continue
        try:
            if line.isdigit():
                listed = session.listed or state.legal_moves()
                k = int(line)
                if not 1 <= k <= len(listed):
                    no_such = _("No move number {n}: type 'moves' to see the list.", n=k)
                    con.print(f"[red]{escape(no_such)}[/]")
                    continue
                move = listed[k - 1]
            else:
                move = state.parse_move(line)
            before = state.copy()
            state.play(move)
        except IllegalMove as e:
            con.print(f"[red]{escape(_('Illegal: {reason}', reason=reason(e)))}[/]")
            continue
        except PyramidsError as e:
            con.print(f"[red]{escape(reason(e))}[/]")
            continue
        session.history.append(before)
        session.listed = []
    session.state = state
    if state.is_over:
        final = state.view(session.humans[0] if session.humans else None)
        con.print(session.render(final))
        con.print(f"[bold]{_('Game over.')}[/]")
        con.print(session.summary(final) if session.summary else scores_table(final))
        if session.save_to is not None:
            save_record(state, session.save_to)
            con.print(escape(_("Record saved to {path}", path=str(session.save_to))))
        elif session.humans and sys.stdin.isatty():
            try:
                answer = read(_("Save the record? File name (Enter to skip): ")).strip()
            except EOFError:
                answer = ""
            if answer:
                save_record(state, Path(answer))
                con.print(escape(_("Record saved to {path}", path=answer)))
    return state
