"""Terminal play for every game: humans, bots and hot-seat around one screen.

The loop only uses the engine contract and the game's terminal hooks
(:mod:`pyramids.cli.games`), so every registered game gets the same commands,
numbered move lists, saving, undo where it is fair, and events told in words.

Every line the player types goes through one table
(:class:`~pyramids.cli.commands.CommandTable`: :data:`COMMANDS` plus the
game's own, which its terminal face exports): a word found there is a
command, a bare number plays from the numbered list, an empty line redraws
the board, and anything else is read as a move in the game's notation.
Nothing is special-cased beside it, so ``help`` lists and Tab completes
exactly what the loop accepts.

Two promises shape the code: a game is never lost (a save that fails says
why and the game goes on; ``--save`` is honoured however the game is left),
and the screen never shows a seat more than it may know (hot-seat hand-over
clears the scrollback too; what is told of other players' moves comes from
the spectator's view).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.segment import Segments
from rich.table import Table
from rich.text import Text

from pyramids.ai.base import Agent
from pyramids.cli.commands import Command, CommandTable
from pyramids.cli.common import _, reason, tr
from pyramids.cli.games import GameHooks
from pyramids.cli.lineedit import LineReader
from pyramids.engine.errors import IllegalMove, PyramidsError
from pyramids.engine.records import make_record
from pyramids.engine.rng import Rng
from pyramids.engine.state import State
from pyramids.i18n import N_

#: clear the screen and the terminal's scrollback (ESC[3J), cursor home
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"


@dataclass
class Seat:
    """Who plays a seat: a human (agent None) or a bot."""

    name: str
    agent: Agent | None = None
    #: the bot as ``--agent`` names it (``mcts:level=hard``), kept in saved records
    spec: str | None = None


@dataclass
class Session:
    """One terminal game in progress: the state, the seats and what the screen has shown.

    ``generation`` counts every change of position (a move by anyone, an undo):
    a numbered list remembers the generation it was made in, so a number typed
    after the position changed is refused instead of playing another move.
    ``told`` is the public story of the game (moves as the table sees them,
    events), and ``seen`` how much of it each seat has been shown, so that a
    hot-seat player who gets the screen back reads what happened meanwhile.
    """

    state: State[Any]
    seats: list[Seat]
    console: Console
    hooks: GameHooks
    rng: Rng
    game_id: str = ""
    seed: int | None = None
    save_to: Path | None = None
    reader: LineReader | None = None
    undos: int = 0
    history: list[State[Any]] = field(default_factory=list)
    generation: int = 0
    last_change: str = ""
    listed: list[Hashable] = field(default_factory=list)
    listed_at: int | None = None
    saved: tuple[Path, int] | None = None
    #: files this game may replace without asking: the game it resumed, its
    #: ``--save`` file once allowed, and every file it has saved to itself
    own_files: set[Path] = field(default_factory=set)
    #: the command that deals this game again (:func:`deal_command`); None if none can
    deal_command: str | None = None
    leaving: bool = False
    interrupted: bool = False
    told: list[str] = field(default_factory=list)
    seen: dict[int, int] = field(default_factory=dict)
    facing: int | None = None
    drawn_at: int | None = None
    public: dict[str, Any] = field(default_factory=dict)
    commands: CommandTable = field(init=False)

    def __post_init__(self) -> None:
        if not self.public:
            self.public = self.state.view(None)
        self.commands = CommandTable(COMMANDS, self.hooks.commands)

    @property
    def humans(self) -> list[int]:
        """The seats people play, in seat order."""
        return [i for i, s in enumerate(self.seats) if s.agent is None]

    @property
    def undo_allowed(self) -> bool:
        """Undo is fair only alone at the table: it then hides nothing from anyone else.

        In a game of several players a take-back would let the mover see what the
        others' replies revealed, or change a position they have already seen.
        """
        return self.state.players == 1

    def read(self, prompt: str, *, remember: bool = True) -> str:
        """A line from the player (``EOFError`` when input is closed)."""
        if self.reader is None:
            return input(prompt)
        return self.reader.read(prompt, remember=remember)

    def completions(self) -> list[str]:
        """Every full line worth completing now: command names and the legal moves."""
        lines = self.commands.completions()
        if not self.state.is_over:
            lines += [self.state.move_to_str(m) for m in self.state.legal_moves()]
        return lines

    def record(self) -> dict[str, Any]:
        """The game's record, with the number of moves taken back when there were any."""
        record = make_record(self.state, undos=self.undos)
        bots = {str(i): seat.spec for i, seat in enumerate(self.seats) if seat.spec is not None}
        if bots:  # so that --resume seats the same bots again
            record["bots"] = bots
        return record


# -- telling what happens ------------------------------------------------------


def tell(session: Session, text: str, *, style: str = "") -> None:
    """Print a public line of the game's story and keep it for players away from the screen."""
    session.told.append(text)
    shown = escape(text)
    session.console.print(f"[{style}]{shown}[/]" if style else shown)


def after_move(session: Session, mover: int, text: str, *, echo: bool) -> None:
    """Everything a move changes in the session: lists go stale, events are told.

    ``text`` is the move as the table saw it. A human's own move is not echoed
    (``echo=False``: the mover just typed it) but is kept for the others' recap.
    """
    session.generation += 1
    session.last_change = "move"
    before, after = session.public, session.state.view(None)
    session.public = after
    line = _("{player}: {move}", player=session.seats[mover].name, move=text)
    if echo:
        tell(session, line, style="cyan")
    else:
        session.told.append(line)
    for event in session.hooks.events(before, after):
        tell(session, event, style="bold")


def public_text(session: Session, move: Hashable) -> str:
    """A move about to be played, as the table may read it (an exchanged card stays secret)."""
    text = session.state.move_to_str(move)
    if session.hooks.describe is not None:
        text = session.hooks.describe(session.public, text)
    return " ".join(text.split())


# -- the commands -------------------------------------------------------------


def cmd_moves(session: Session, argument: str) -> None:
    """List the legal moves, numbered, in columns that fill the screen's width."""
    state = session.state
    con = session.console
    seat = state.current_player
    session.listed = list(state.legal_moves())
    session.listed_at = session.generation
    view = state.view(seat)
    entries = []
    for i, m in enumerate(session.listed, 1):
        text = state.move_to_str(m)
        shown = session.hooks.describe(view, text) if session.hooks.describe else text
        entry = Text(f"{i:>3}. ", style="dim")
        entry.append(shown)
        entries.append(entry)
    count = len(entries)
    con.print(tr().ngettext("{n} legal move:", "{n} legal moves:", count))
    con.print(Columns(entries, column_first=True, padding=(0, 3)))
    con.print(Text(_("Type a number to play that move."), style="dim"))


def cmd_board(session: Session, argument: str) -> None:
    """Draw the position again."""
    draw(session)


def cmd_help(session: Session, argument: str) -> None:
    """This game's help: how to win, what to type now, the commands and the board key.

    Help runs to 40 lines and more; on a terminal shorter than that it comes a
    page at a time, so that its start does not scroll away unread.
    """
    con = session.console
    if not interactive():
        con.print(help_text(session))
        return
    lines = con.render_lines(help_text(session), con.options, pad=False, new_lines=True)
    page = max(5, con.height - 2)
    for start in range(0, len(lines), page):
        for line in lines[start : start + page]:
            con.print(Segments(line), end="")
        if start + page >= len(lines):
            break
        try:
            more = session.read(
                _("-- more: Enter for the next page, q to stop -- "), remember=False
            )
        except (EOFError, KeyboardInterrupt):
            con.print()
            return
        if more.strip().lower().startswith("q"):
            return


def cmd_undo(session: Session, argument: str) -> None:
    """Take back the last move (single-player games; the record counts every undo)."""
    con = session.console
    if not session.undo_allowed:
        message = _(
            "Undo is only offered in single-player games: here taking a move back would "
            "show you what the others' replies revealed, or change a game they have seen."
        )
        con.print(f"[yellow]{escape(message)}[/]")
        return
    if not session.history:
        con.print(Text(_("Nothing to undo."), style="yellow"))
        return
    session.state = session.history.pop()
    session.undos += 1
    session.generation += 1
    session.last_change = "undo"
    session.public = session.state.view(None)
    session.told.append(_("A move was taken back."))
    con.print(Text(_("Move taken back."), style="green"))
    con.print(
        Text(
            tr().ngettext(
                "Undo used {n} time in this game: its record and result will say so.",
                "Undo used {n} times in this game: its record and result will say so.",
                session.undos,
            ),
            style="dim",
        )
    )
    draw(session)


def cmd_save(session: Session, argument: str) -> None:
    """Save the record so far; a file that cannot be written says why and the game goes on."""
    con = session.console
    if not argument:
        con.print(Text(_("save needs a file name: save game.json"), style="yellow"))
        return
    save(session, Path(argument).expanduser())


def cmd_quit(session: Session, argument: str) -> None:
    """Leave the game; an unfinished game asks first, and ``--save`` still saves it."""
    if session.state.is_over:
        session.leaving = True
        return
    if session.save_to is not None:
        question = _(
            "The game is not over. Leave it? It will be saved to {path}.", path=session.save_to
        )
    elif session.saved is not None and session.saved[1] == session.generation:
        question = _(
            "The game is not over. Leave it? It is saved in {path}.", path=session.saved[0]
        )
    else:
        question = _(
            "The game is not over and not saved (type 'save FILE' first to keep it). Leave it?"
        )
    if ask_yes_no(session, question):
        session.leaving = True


#: The built-in commands, in the order help lists them (a game's own follow).
#: Command words are English in every language; the summaries are translated.
COMMANDS: tuple[Command, ...] = (
    Command(
        "moves",
        ("m", "list"),
        "",
        N_("list the legal moves, numbered; then type a number to play one"),
        cmd_moves,
    ),
    Command(
        "board", ("b",), "", N_("draw the position again (an empty line does the same)"), cmd_board
    ),
    Command("undo", ("u",), "", N_("take back your last move (single-player games)"), cmd_undo),
    Command("save", (), "FILE", N_("save the game record so far as JSON"), cmd_save),
    Command("help", ("h", "?"), "", N_("this help"), cmd_help),
    Command(
        "quit", ("q", "exit"), "", N_("leave the game (asks first if it is not over)"), cmd_quit
    ),
)


# -- moves ---------------------------------------------------------------------


def play_number(session: Session, number: int) -> None:
    """Play move ``number`` of the numbered list, unless the list is out of date."""
    con = session.console
    if session.listed_at is None:
        message = _("There is no numbered list yet: type 'moves' to see one.")
    elif session.listed_at != session.generation:
        if session.last_change == "undo":
            message = _("That list is out of date: a move was taken back since.")
        else:
            message = _("That list is out of date: a move was played since.")
        message += " " + _("Type 'moves' for the list of this position.")
    elif not 1 <= number <= len(session.listed):
        message = _(
            "No move number {n}: the list goes from 1 to {count}.",
            n=number,
            count=len(session.listed),
        )
    else:
        play_human(session, session.listed[number - 1])
        return
    con.print(f"[red]{escape(message)}[/]")


def play_text(session: Session, text: str) -> None:
    """Read ``text`` as a move in the game's notation and play it."""
    try:
        move = session.state.parse_move(text)
    except PyramidsError as e:
        session.console.print(f"[red]{escape(reason(e))}[/]")
        return
    play_human(session, move)


def play_human(session: Session, move: Hashable) -> None:
    """Play a human's move; an illegal one is refused with the rule it breaks."""
    state = session.state
    mover = state.current_player
    assert mover is not None
    before = state.copy() if session.undo_allowed else None
    try:
        text = public_text(session, move)
        state.play(move)
    except IllegalMove as e:
        session.console.print(Text(_("Illegal: {reason}", reason=reason(e)), style="red"))
        return
    except PyramidsError as e:
        session.console.print(f"[red]{escape(reason(e))}[/]")
        return
    if before is not None:
        session.history.append(before)
    after_move(session, mover, text, echo=False)


def play_bot(session: Session, seat: int) -> None:
    """Let the bot of ``seat`` move and tell the table what it did (secrets stay secret)."""
    state = session.state
    agent = session.seats[seat].agent
    assert agent is not None
    con = session.console
    if con.is_terminal and not con.is_dumb_terminal:
        thinking = _("{player} is thinking...", player=session.seats[seat].name)
        with con.status(thinking, spinner="dots"):
            move = agent.choose(state, session.rng)
    else:
        move = agent.choose(state, session.rng)
    text = public_text(session, move)
    state.play(move)
    session.history.clear()  # nothing before a bot's move may be taken back
    after_move(session, seat, text, echo=True)


# -- saving and asking ----------------------------------------------------------------


def interactive() -> bool:
    """Whether someone can answer a question: input and output are a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def may_replace(session: Session, path: Path) -> bool:
    """Whether ``path`` may be written: it is new, this game's own, or the player says so.

    A file found there is never replaced silently (it may be another saved game):
    at a terminal the player is asked; a run without one (a pipe, a script) is refused.
    """
    if not path.is_file() or path.resolve() in session.own_files:
        return True  # a folder or a bad path: the write itself says why
    con = session.console
    if interactive() and ask_yes_no(session, _("{path} exists. Replace it?", path=str(path))):
        return True
    con.print(
        Text(
            _("Not saved: {path} exists and is left as it was.", path=str(path)),
            style="yellow",
        ),
        soft_wrap=True,
    )
    return False


def save(session: Session, path: Path) -> bool:
    """Write the record to ``path``; on failure say why (the game is kept) and return False."""
    con = session.console
    if not may_replace(session, path):
        if not session.state.is_over:
            con.print(escape(_("The game goes on: try 'save' with another file name.")))
        return False
    try:
        path.write_text(json.dumps(session.record(), indent=2) + "\n", encoding="utf-8")
    except OSError as e:
        message = _("Cannot save to {path}: {reason}.", path=str(path), reason=reason(e))
        con.print(f"[red]{escape(message)}[/]", soft_wrap=True)
        if not session.state.is_over:
            con.print(escape(_("The game goes on: try 'save' with another file name.")))
        return False
    session.saved = (path, session.generation)
    session.own_files.add(path.resolve())
    con.print(Text(_("Record saved to {path}", path=str(path)), style="green"), soft_wrap=True)
    return True


def ask_yes_no(session: Session, question: str) -> bool:
    """A ``[y/N]`` question: only a yes is a yes, so a stray command never says yes.

    End of input or Ctrl-C count as no.
    """
    choices = _("[y/N]")
    prompt = f"{question} {choices} "
    try:
        answer = session.read(prompt, remember=False).strip().lower()
    except (EOFError, KeyboardInterrupt):
        session.console.print()
        return False
    return is_yes(answer)


def is_yes(answer: str) -> bool:
    """Whether a typed answer is a yes, in English or in the player's language."""
    yes = {"y", "yes", tr().pgettext("answer", "y").lower(), tr().pgettext("answer", "yes").lower()}
    return answer.strip().lower() in yes


def ask_file(session: Session, default: str) -> Path | None:
    """A file name, ``default`` on Enter; None on end of input or Ctrl-C."""
    try:
        answer = session.read(_("File name [{default}]: ", default=default), remember=False)
    except (EOFError, KeyboardInterrupt):
        session.console.print()
        return None
    return Path(answer.strip() or default).expanduser()


def default_file(session: Session) -> str:
    """The suggested file name of a record: the game and its seed, a free name in this folder.

    ``piramides-7.json``, or ``piramides-7-2.json`` when that one exists (a file
    the session saved itself may be offered again).
    """
    seed = "" if session.seed is None else f"-{session.seed}"
    stem = f"{session.game_id or session.state.game.id}{seed}"
    name, n = f"{stem}.json", 1
    while Path(name).exists() and Path(name).resolve() not in session.own_files:
        n += 1
        name = f"{stem}-{n}.json"
    return name


# -- the screen -------------------------------------------------------------------


def draw(session: Session) -> None:
    """Draw the position as the seat to move (or, once over, the first human) sees it."""
    state = session.state
    seat = state.current_player
    if seat is None:
        seat = session.humans[0] if session.humans else None
    session.console.print(session.hooks.draw(state.view(seat)))
    session.drawn_at = session.generation


def hand_over(session: Session, seat: int) -> None:
    """Give the screen to the human of ``seat``.

    With several people at one screen and secrets to keep, the screen and its
    scrollback are cleared (so the last hand cannot be scrolled back to), so is
    the line history (the up arrow must not bring back ``x watermelon``), what
    happened since this seat's last turn is told (public facts only), and the
    loop waits until the next player is ready. Games without secrets (Pyramido)
    only say whose turn it is.
    """
    con = session.console
    several = len(session.humans) > 1
    if several and session.hooks.hand_over:
        if session.reader is not None:
            session.reader.forget()
        if con.is_terminal:
            con.file.write(CLEAR_ALL)
            con.file.flush()
        else:
            con.rule()
        recap(session, seat)
        name = session.seats[seat].name
        session.read(
            _("Pass the screen to {player}, then press Enter ", player=name), remember=False
        )
        if con.is_terminal:
            con.file.write(CLEAR_ALL)
            con.file.flush()
    elif several:
        con.print(Text(_("{player} to move.", player=session.seats[seat].name), style="bold cyan"))
    session.seen[seat] = len(session.told)
    session.facing = seat


def recap(session: Session, seat: int) -> None:
    """What the table saw since ``seat`` last had the screen (its first turn: nothing)."""
    if seat not in session.seen:
        return
    lines = session.told[session.seen[seat] :]
    if not lines:
        return
    con = session.console
    con.print(Text(_("Since your last turn:"), style="bold"))
    for line in lines:
        con.print(Text("  " + line))


# -- help ------------------------------------------------------------------------------


def help_text(session: Session) -> RenderableType:
    """The per-game help: goal, what one may type now (real moves), commands, board key.

    Built when printed, so that the key shows the board's symbols as the board
    shows them (letters and marks where the terminal has no colour).
    """
    from pyramids.text.colour import ByColour

    return ByColour(lambda: _help_parts(session))


def _help_parts(session: Session) -> RenderableType:
    state = session.state
    hooks = session.hooks
    seat = state.current_player
    view = state.view(seat)
    parts: list[RenderableType] = []
    title = tr().lookup(f"game:{state.game.id}", state.game.title)
    parts.append(Text(title, style="bold"))
    goal = hooks.goal(view)
    if goal:
        parts.append(Text(_("How to win: ") + _(goal)))
    if not state.is_over:
        legal = [state.move_to_str(m) for m in state.legal_moves()]
        parts.append(Text("\n" + _("Moves you can type now, for example:"), style="bold"))
        table = Table.grid(padding=(0, 3))
        for text, meaning in hooks.examples(view, legal):
            table.add_row(Text("  " + text, style="bold cyan"), Text(meaning))
        parts.append(table)
        parts.append(Text(_("Tab completes commands and moves."), style="dim"))
    parts.append(Text("\n" + _("Commands:"), style="bold"))
    table = Table.grid(padding=(0, 3))
    for cmd in session.commands:
        aliases = ", ".join(cmd.aliases)
        typed = cmd.usage + (f"  ({aliases})" if aliases else "")
        table.add_row(Text("  " + typed, style="cyan"), Text(_(cmd.summary)))
    table.add_row(Text("  " + _("<number>"), style="cyan"), Text(_("play that move of the list")))
    parts.append(table)
    key = hooks.key(view)
    if key:
        parts.append(Text("\n" + _("On the board:"), style="bold"))
        table = Table.grid(padding=(0, 3))
        for symbol, meaning in key:
            cell = symbol if isinstance(symbol, Text) else Text(str(symbol))
            table.add_row(Text("  ") + cell, Text(meaning))
        parts.append(table)
    return Group(*parts)


# -- the loop ---------------------------------------------------------------------


def dispatch(session: Session, line: str) -> None:
    """Run one typed line: a command of the table, a list number, a redraw, or a move."""
    text = line.strip()
    if not text:
        draw(session)
        return
    if text.isdigit():
        play_number(session, int(text))
        return
    word, _sep, rest = text.partition(" ")
    command = session.commands.find(word)
    if command is not None:
        command.run(session, rest.strip())
        return
    play_text(session, text)


def play_loop(session: Session) -> None:
    """Moves until the game ends or the players leave (Ctrl-C propagates to the caller)."""
    while not session.state.is_over and not session.leaving:
        state = session.state
        seat = state.current_player
        assert seat is not None
        if session.seats[seat].agent is not None:
            play_bot(session, seat)
            continue
        try:
            if session.facing != seat:
                hand_over(session, seat)
                draw(session)
            elif session.drawn_at != session.generation:
                draw(session)
            line = session.read(f"{session.seats[seat].name}> ")
        except EOFError:
            session.console.print("\n" + escape(_("Input closed: leaving the game.")))
            session.leaving = True
            break
        dispatch(session, line)


def run_session(session: Session) -> State[Any]:
    """Play until the game ends or a human leaves; save as asked; return the final state."""
    if session.reader is None:
        session.reader = LineReader(session.completions)
    try:
        play_loop(session)
    except KeyboardInterrupt:
        session.console.print("\n" + escape(_("Interrupted: leaving the game.")))
        session.interrupted = True
    if session.state.is_over:
        finish(session)
    else:
        leave(session)
    return session.state


def leave(session: Session) -> None:
    """Leaving an unfinished game: ``--save`` saves it; otherwise say how to find it again."""
    con = session.console
    if session.save_to is not None:
        while not save(session, session.save_to):
            if session.interrupted or not _can_ask(session):
                return
            path = ask_file(session, default_file(session))
            if path is None:
                return
            session.save_to = path
        return
    saved = session.saved is not None and session.saved[1] == session.generation
    if session.state.ply and not saved and session.deal_command is not None:
        said = _("The game was not saved. The same deal again: {command}")
        con.print(escape(said.format(command=session.deal_command)), soft_wrap=True)


def deal_command(
    state: State[Any], seats: list[Seat], seed: int | None, *, solvable: bool = False
) -> str | None:
    """``pyramids play ...`` dealing exactly this game: players, bots, options, seed.

    Only what differs from the defaults is written (a variant option at its
    default value is left out), so the line stays short; None when no seed
    deals the game.
    """
    import shlex

    if seed is None:
        return None
    game = state.game
    words = ["pyramids", "play", game.id]
    default_players = max(game.min_players, min(2, game.max_players))
    if state.players != default_players:
        words += ["--players", str(state.players)]
    specs = [seat.spec for seat in seats if seat.spec is not None]
    if specs:
        words += ["--bots", str(len(specs))]
        if len(set(specs)) == 1:
            words += ["--agent", specs[0]]
    defaults = game.resolve_variant({})
    for name, value in state.variant.items():
        if defaults.get(name) != value:
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            words += ["-o", f"{name}={text}"]
    words += ["--seed", str(seed)]
    if solvable:
        words.append("--solvable")
    return shlex.join(words)


def finish(session: Session) -> None:
    """The end: the final position, why the game ended, the result, and saving."""
    con = session.console
    draw(session)
    final = session.state.view(session.humans[0] if session.humans else None)
    con.print(
        Text(" ".join(filter(None, (_("Game over."), session.hooks.ending(final)))), style="bold")
    )
    con.print(session.hooks.summary(final) if session.hooks.summary else scores_table(final))
    if session.undos:
        con.print(
            Text(
                tr().ngettext(
                    "Played with undo: {n} move was taken back (the record says so).",
                    "Played with undo: {n} moves were taken back (the record says so).",
                    session.undos,
                ),
                style="yellow",
            )
        )
    path = session.save_to
    if path is None:
        if not session.humans or session.interrupted:
            return
        if not ask_yes_no(session, _("Save the record of this game?")):
            return
        path = ask_file(session, default_file(session))
    while path is not None and not save(session, path):
        if not _can_ask(session):
            return
        path = ask_file(session, default_file(session))


def _can_ask(session: Session) -> bool:
    return bool(session.humans)


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
        place = "" if rank is None else tr().number(rank)
        table.add_row(tr().number(i + 1), name, tr().number(score), place)
    return table


def new_session(
    state: State[Any],
    seats: list[Seat],
    hooks: GameHooks,
    console: Console,
    *,
    seed: int | None,
    save_to: Path | None,
    undos: int = 0,
    reader: LineReader | None = None,
) -> Session:
    """A session ready to run; the bots' random stream is seeded from the game's seed."""
    base = seed if seed is not None else 0
    return Session(
        state=state,
        seats=seats,
        console=console,
        hooks=hooks,
        rng=Rng(base ^ 0x5EED),
        game_id=state.game.id,
        seed=seed,
        save_to=save_to,
        reader=reader,
        undos=undos,
    )
