"""``pyramids play``: from the command line's options to a running terminal session.

Kept apart from :mod:`pyramids.cli.main` so that the command table stays
cheap to import: this module loads the games, the agents and Rich.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.text import Text

from pyramids.cli.common import (
    _,
    check_input_file,
    check_output_file,
    fail,
    get_console,
    parse_options,
    reason,
    record_reason,
    tr,
)
from pyramids.cli.games import game_hooks
from pyramids.cli.play import (
    Seat,
    deal_command,
    interactive,
    is_yes,
    new_session,
    run_session,
)
from pyramids.engine.errors import PyramidsError, RecordError
from pyramids.engine.state import State


@dataclass(frozen=True)
class PlayRequest:
    """What ``pyramids play`` was asked for (the options, checked by :func:`start_play`)."""

    game: str = "piramides"
    players: int | None = None
    bots: int = 0
    #: ``None``: greedy, or the game's own choice of opponent where it has no greedy agent
    agent: str | None = None
    seed: int | None = None
    #: variant options ``name=value`` (``--face-down`` arrives as ``face_down=true``)
    options: list[str] = field(default_factory=list)
    save: Path | None = None
    resume: Path | None = None
    solvable: bool = False


def _new_seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


def check_save_path(path: Path, resume: Path | None = None) -> None:
    """Refuse ``--save`` now if its folder cannot take the file, rather than after the game.

    A file already there (other than the game resumed) is replaced only if the
    player says so now; a run without a terminal is refused, never replaced.
    """
    check_output_file(path, "--save")
    target = path.expanduser().resolve()
    if not target.exists() or (resume is not None and resume.expanduser().resolve() == target):
        return
    question = _("{path} exists. Replace it?", path=str(path))
    if interactive():
        try:
            choices = _("[y/N]")
            if is_yes(input(f"{question} {choices} ")):
                return
        except (EOFError, KeyboardInterrupt):
            get_console().print()
    raise fail(_("--save {path}: the file exists and is left as it was", path=str(path)))


def _seats(n: int, bots: int, agent: str | None, game: str) -> list[Seat]:
    from pyramids.ai.arena import build_agent
    from pyramids.ai.registry import default_opponent, plays

    if bots < 0 or bots > n:
        raise fail(_("--bots must be between 0 and {n}", n=n))
    if agent is None:
        agent = "greedy" if plays("greedy", game) else default_opponent(game)
    seats = [Seat(_("Player {number}", number=i + 1)) for i in range(n - bots)]
    seats += [
        Seat(_("Bot {number}", number=i + 1), build_agent(agent, game), agent) for i in range(bots)
    ]
    return seats


def _saved_seats(state: State[Any], bots: object, agent: str | None = None) -> list[Seat]:
    """The seats of a saved game: its names, and its bots (the record's ``bots``) again.

    ``agent`` (``--agent``) plays the saved bots' seats instead of their own agents.
    """
    from pyramids.ai.arena import build_agent

    if not isinstance(bots, dict) or not all(
        isinstance(k, str)
        and k.isascii()
        and k.isdecimal()  # not "²", which isdigit() takes and int() refuses
        and int(k) < state.players
        and isinstance(v, str)
        for k, v in bots.items()
    ):
        raise fail(_("the record's bots must map seat numbers to agent names"))
    seats = [Seat(name) for name in state.names]
    for k, saved in bots.items():
        spec = agent or saved
        seat = seats[int(k)]
        seat.agent, seat.spec = build_agent(spec, state.game.id), spec
    return seats


def _resumed(request: PlayRequest) -> tuple[State[Any], int, int | None, Any]:
    """The saved game to go on with: its state, its undo count, its seed and its bots."""
    from pyramids.engine.records import replay

    assert request.resume is not None
    check_input_file(request.resume)
    try:
        state = replay(request.resume)
        record = json.loads(request.resume.read_text(encoding="utf-8"))
    except RecordError as e:
        raise fail(
            _("invalid record {path}: {reason}", path=str(request.resume), reason=record_reason(e))
        ) from None
    if state.is_over:
        raise fail(
            _("{path} is a finished game: see it with pyramids replay", path=str(request.resume))
        )
    return state, int(record.get("undos", 0)), state.seed, record.get("bots", {})


def start_play(request: PlayRequest) -> None:
    """Build the game and the seats that ``request`` asks for and play it in the terminal."""
    from pyramids.engine.registry import get_game

    con = get_console()
    if request.save is not None:
        check_save_path(request.save, request.resume)
    undos = 0
    try:
        if request.resume is not None:
            state, undos, seed, bots = _resumed(request)
            game_id = state.game.id
            if request.bots:  # the command line says how many bots, and which
                seats = _seats(state.players, request.bots, request.agent, game_id)
                for seat, name in zip(seats, state.names, strict=True):
                    if seat.agent is None:
                        seat.name = name
            else:  # the seats as saved (their bots played by --agent, if given)
                seats = _saved_seats(state, bots, request.agent)
        else:
            g = get_game(request.game)
            game_id = g.id
            n = (
                request.players
                if request.players is not None
                else max(g.min_players, min(2, g.max_players))
            )
            variant = parse_options(request.options)
            seed = request.seed if request.seed is not None else _new_seed()
            state = g.new(players=n, seed=seed, **variant)
            if request.solvable:
                deal_solvable = game_hooks(game_id).solvable_deal
                if deal_solvable is None:
                    raise fail(_("--solvable is for piramides only"))
                state, numbers = deal_solvable(seed, state.variant)
                con.print(_("Winnable deals: {deals}", deals=", ".join(map(str, numbers))))
            seats = _seats(n, request.bots, request.agent, game_id)
    except PyramidsError as e:
        raise fail(reason(e)) from None
    state.names = tuple(s.name for s in seats)
    dealt_by = seed  # what --seed deals this game again (with --solvable, its first deal)
    save_to = request.save if request.save is not None else request.resume
    title = tr().lookup(f"game:{game_id}", state.game.title)
    if request.resume is not None:
        said = _(
            "going on from {path} (move {ply}). Type 'help' for the commands.",
            path=str(request.resume),
            ply=state.ply,
        )
    elif request.solvable:  # not deal `seed` itself: the first winnable deals from it on
        said = _("the winnable deals above. Type 'help' for the commands.")
        seed = None  # the seats' random streams as before; the deals are not seed `seed`
    else:
        said = _("seed/deal {seed}. Type 'help' for the commands.", seed=seed)
    con.print(Text.assemble((title, "bold"), " — ", said))
    session = new_session(
        state, seats, game_hooks(game_id), con, seed=seed, save_to=save_to, undos=undos
    )
    session.deal_command = deal_command(state, seats, dealt_by, solvable=request.solvable)
    session.own_files.update(p.expanduser().resolve() for p in (request.save, request.resume) if p)
    run_session(session)
    if session.interrupted:
        raise typer.Exit(130)
