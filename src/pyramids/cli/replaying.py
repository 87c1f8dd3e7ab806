"""``pyramids replay``: re-check a record and tell its game: moves, events, result.

By default the game is told in lines (who played what, and what it did: a
round cleared, a floor scored) and closed with the result; boards are drawn
only with ``--boards``, because a drawing per move buries the story in
screens of cards.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.columns import Columns
from rich.text import Text

from pyramids.cli.common import _, check_input_file, fail, get_console, record_reason, tr
from pyramids.cli.games import game_hooks
from pyramids.cli.play import scores_table
from pyramids.engine.errors import RecordError


def replay_file(file: Path, *, as_json: bool, boards: bool, step: bool) -> None:
    """Check ``file`` move by move, then tell it (or print its result as JSON)."""
    from pyramids.engine.records import replay as replay_record

    check_input_file(file)
    try:
        final = replay_record(file)
    except RecordError as e:
        raise fail(
            _("invalid record {path}: {reason}", path=str(file), reason=record_reason(e))
        ) from None
    record = json.loads(file.read_text(encoding="utf-8"))
    if as_json:
        result = {
            "game": final.game.id,
            "moves": final.ply,
            "over": final.is_over,
            "scores": final.scores(),
            "ranking": final.ranking() if final.is_over else None,
        }
        if record.get("undos"):
            result["undos"] = record["undos"]
        typer.echo(json.dumps(result))
        return
    con = get_console()
    hooks = game_hooks(final.game.id)
    state = final.game.from_setup(record["setup"], final.players, final.variant)
    state.names = final.names
    state._forced = [(c["ply"], c["choices"], c["outcome"]) for c in record.get("chance", [])]
    viewer: int | None = 0 if final.players == 1 else None
    title = tr().lookup(f"game:{final.game.id}", final.game.title)
    seed = record.get("seed")
    head = Text(title, style="bold")
    head.append(
        " — "
        + ", ".join(final.names)
        + ("" if seed is None else " — " + _("seed {seed}", seed=seed))
    )
    con.print(head)
    if boards:
        con.print(hooks.render(state.view(viewer)))
    public: dict[str, Any] = state.view(None)
    solo = final.players == 1
    pending: list[Text] = []  # a solitaire's moves, laid out in columns between events

    def flush() -> None:
        if pending:
            con.print(Columns(pending, column_first=True, padding=(0, 3)))
            pending.clear()

    for i, text in enumerate(record["moves"], 1):
        mover = state.current_player
        shown = hooks.describe(public, text) if hooks.describe else text
        shown = " ".join(shown.split())
        state.play(state.parse_move(text))
        who = state.names[mover] if mover is not None else "?"
        if boards:
            con.rule(_("move {number}: {player} plays {move}", number=i, player=who, move=shown))
            con.print(hooks.render(state.view(viewer)))
        elif solo:
            pending.append(Text(f"{i:>3}. {shown}"))
        else:
            con.print(Text(f"{i:>4}. {who}: {shown}"))
        after = state.view(None)
        told = hooks.events(public, after)
        if told:
            flush()
        for event in told:
            con.print(Text(("" if solo else "      ") + event, style="bold"))
        public = after
        if step:
            try:
                input(_("Enter for the next move "))
            except EOFError:
                step = False
    flush()
    final_view = state.view(viewer)
    if state.is_over:
        con.print(
            Text(" ".join(filter(None, (_("Game over."), hooks.ending(final_view)))), style="bold")
        )
    else:
        con.print(
            Text(_("The game is not over: {count} moves so far.", count=state.ply), style="bold")
        )
    con.print(hooks.summary(final_view) if hooks.summary else scores_table(final_view))
    undos = record.get("undos", 0)
    if undos:
        con.print(
            Text(
                tr().ngettext(
                    "Played with undo: {n} move was taken back (the record says so).",
                    "Played with undo: {n} moves were taken back (the record says so).",
                    undos,
                ),
                style="yellow",
            )
        )
