"""``pyramids games`` and ``pyramids agents``: what there is to play, and with what options.

Titles, summaries and option texts are data in the game registry; they are
shown through the catalogs by their registry contexts (``game:<id>``,
``option-doc:<id>:<name>``), the same entries the web app's menus use.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from pyramids.cli.common import _, fail, get_console, tr
from pyramids.engine.errors import PyramidsError
from pyramids.engine.variant import Option


def _players(g: Any) -> str:
    if g.min_players == g.max_players:
        return str(g.min_players)
    return f"{g.min_players}-{g.max_players}"


def _value(value: object) -> str:
    """An option value as it is typed on the command line (``true``, not ``True``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def accepted(option: Option) -> str:
    """What an option accepts, in words: ``true or false``, ``0 to 52``, ``pyramid, golf``."""
    if option.kind is bool:
        text = _("true or false")
    elif option.choices:
        text = ", ".join(option.choices)
    elif option.kind is int:
        if option.minimum is not None and option.maximum is not None:
            text = _("{low} to {high}", low=option.minimum, high=option.maximum)
        elif option.minimum is not None:
            text = _("{low} or more", low=option.minimum)
        elif option.maximum is not None:
            text = _("up to {high}", high=option.maximum)
        else:
            text = _("a whole number")
    else:
        text = _("text")
    if option.also:
        text += ", " + ", ".join(_value(a) for a in option.also)
    return text


def games_table() -> None:
    """Every game: id, players, what it is, its options with their defaults."""
    from pyramids.engine.registry import all_games

    table = Table(title=_("Games"))
    table.add_column(_("id"), style="bold", no_wrap=True)
    table.add_column(_("players"))
    table.add_column(_("what"))
    table.add_column(_("options (default)"))
    for g in all_games():
        opts = "\n".join(f"{o.name}={_value(o.default)}" for o in g.options)
        summary = tr().lookup(f"game-summary:{g.id}", g.summary)
        table.add_row(g.id, _players(g), summary, opts)
    con = get_console()
    con.print(table)
    con.print(Text(_("Each game's options explained: pyramids games GAME"), style="dim"))


def game_details(game_id: str) -> None:
    """One game: title, players, and each variant option with what it accepts and means."""
    from pyramids.engine.registry import get_game

    try:
        g = get_game(game_id)
    except PyramidsError as e:
        raise fail(tr().error(e)) from None
    con = get_console()
    con.print(Text(tr().lookup(f"game:{g.id}", g.title), style="bold"))
    con.print(tr().lookup(f"game-summary:{g.id}", g.summary))
    con.print(_("Players: {players}", players=_players(g)))
    if not g.options:
        con.print(_("This game has no variant options."))
        return
    table = Table(title=_("Variant options"), show_lines=True)
    table.add_column(_("option"), style="bold", no_wrap=True)
    table.add_column(_("default"), no_wrap=True)
    table.add_column(_("accepts"))
    table.add_column(_("meaning"), ratio=1)
    for o in g.options:
        doc = tr().lookup(f"option-doc:{g.id}:{o.name}", o.doc)
        table.add_row(o.name, _value(o.default), accepted(o), doc)
    con.print(table)
    first = g.options[0]
    example = f"pyramids play {g.id} -o {first.name}={_example_value(first)}"
    con.print(_("Set an option with -o name=value, e.g. {example}", example=example))


def _example_value(option: Option) -> str:
    """A value other than the default, to show how an option is set."""
    if option.kind is bool:
        return _value(not option.default)
    if option.choices:
        others = [c for c in option.choices if c != option.default]
        return others[0] if others else str(option.default)
    if option.kind is int and isinstance(option.default, int):
        bigger = option.default + 1
        if option.maximum is None or bigger <= option.maximum:
            return str(bigger)
        return str(option.default - 1)
    return _value(option.default)


def agents_table(game: str | None) -> None:
    """The AI agents by name and the games they play."""
    from pyramids.ai.registry import agent_games, agent_names, for_every_game

    try:
        names = agent_names(game)
    except PyramidsError as e:
        raise fail(tr().error(e)) from None
    table = Table(title=_("Agents"))
    table.add_column(_("name"), style="bold", no_wrap=True)
    table.add_column(_("games"))
    table.add_column(_("how it plays"), ratio=1)
    for name in names:
        games = agent_games(name)
        shown = _("all") if for_every_game(name) else ", ".join(games)
        if game is None and not for_every_game(name) and len(games) > 1:
            how = _("its own for each game: see pyramids agents GAME")
        else:
            how = _agent_summary(name, game or games[0])
        table.add_row(name, shown, how)
    con = get_console()
    con.print(table)
    con.print(
        _(
            "An agent's options follow its name after colons, in play, simulate and arena "
            "alike: --agent mcts:level=hard. mcts has three levels: easy (about 0.5 s a "
            "move), medium (the default, about 1 s) and hard (about 1.5 s, the strongest). "
            "child is the treasure hunt's greedy player with a child's memory: it forgets "
            "some of what it saw."
        )
    )


def _agent_summary(name: str, game: str) -> str:
    """What an agent does, in a few words (its class's ``summary``)."""
    from pyramids.ai.registry import agent_class

    cls = agent_class(name, game)
    summary = str(getattr(cls, "summary", "")) if cls is not None else ""
    return tr().lookup(f"agent:{name}", summary) if summary else ""
