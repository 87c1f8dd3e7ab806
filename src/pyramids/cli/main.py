"""The ``pyramids`` command: its global options, and its commands from one module each.

This module only gathers the commands (:data:`COMMAND_MODULES`). Each
command imports what it needs inside its body, so that ``pyramids --help``
(and a mistyped option) answers without loading Rich, Babel, the games or the
AI: the start-up budget is 150 ms (``make bench ARGS=cli_startup``; figures in
docs/performance.md). Help is plain Click formatting for the same reason
(Typer's Rich help alone imports Markdown and costs about 90 ms), and it shows
boolean flags as flags.
"""

# No ``from __future__ import annotations`` here: Typer evaluates every string
# annotation of a command twice (signature and type hints), which doubled the
# time to build the command table that ``--help`` pays for (29 -> 14 ms).

from typing import Annotated, Any

import typer

from pyramids import __version__
from pyramids.cli.common import fail, set_language
from pyramids.i18n import N_

#: how help names a value without a metavar of its own: a word, never a Python type
VALUE_WORDS = {"int": "N", "float": "X", "str": "TEXT", "path": "PATH", "list[str]": "TEXT"}


def _plain_value_names() -> None:
    """Help shows ``--jobs N`` and ``GAME``, not ``--jobs <int>`` and ``GAME <str>``.

    Typer's plain help appends the annotation's Python type to every argument
    and to each option without a metavar; a player reads ``<list[str]>`` as
    noise. Arguments already show their name (``GAME``, ``FILE``), so their
    type is left out; an option without a metavar gets a word for its type.
    """
    from typer.core import TyperArgument, TyperOption

    original = TyperOption.display_type_rich

    def option_value(self: TyperOption, ctx: Any) -> str | None:
        if self.metavar is not None:
            return self.metavar
        shown = original(self, ctx)
        if shown is None:
            return None
        bare = shown.removesuffix("...").strip("<>")
        return VALUE_WORDS.get(bare, bare.upper())

    def no_type(self: TyperArgument, ctx: Any) -> str | None:
        return None

    TyperOption.display_type_rich = option_value  # type: ignore[method-assign]
    TyperArgument.display_type_rich = no_type  # type: ignore[method-assign, assignment]


def _help_in_language() -> None:
    """``--help`` in the chosen language: each help text is marked ``N_`` and translated here.

    Typer reads the texts when the commands are declared, before ``--lang`` is
    known; they are looked up in the catalog when help is written instead.
    """
    from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

    from pyramids.text.language import help_text

    def translated(method: Any) -> Any:
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            english = self.help
            if english:
                self.help = help_text(english)
            try:
                return method(self, *args, **kwargs)
            finally:
                self.help = english

        return run

    for cls, name in (
        (TyperOption, "get_help_record"),
        (TyperArgument, "get_help_record"),
        (TyperCommand, "get_short_help_str"),
        (TyperCommand, "format_help_text"),
        (TyperGroup, "get_short_help_str"),
        (TyperGroup, "format_help_text"),
    ):
        setattr(cls, name, translated(getattr(cls, name)))


_plain_value_names()
_help_in_language()

app = typer.Typer(
    help=N_("Pyramids: four table games that share a name. Play, replay, simulate."),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"pyramids {__version__}")
        raise typer.Exit()


def _set_language(lang: str | None) -> str | None:
    try:
        set_language(lang)
    except ValueError as e:
        raise fail(str(e)) from None
    return lang


@app.callback()
def _choose_language(
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=N_(
                "Language of the messages: en, pt, fi, cs or es "
                "(default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)."
            ),
            metavar="LANG",
            callback=_set_language,
            is_eager=True,  # before an eager --help written after it: help in LANG too
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help=N_("Print the version and exit."),
            callback=_show_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """The language is set by ``--lang``'s callback (eager, so that help uses it)."""


#: The commands, one module each, in the order ``--help`` lists them; each module
#: has ``register(app)`` and imports only Typer at module level (the work is
#: imported inside the command).
COMMAND_MODULES: list[str] = [
    "pyramids.cli.cmd_games",
    "pyramids.cli.cmd_agents",
    "pyramids.cli.cmd_play",
    "pyramids.cli.cmd_replay",
    "pyramids.cli.cmd_simulate",
    "pyramids.cli.cmd_serve",
    "pyramids.cli.cmd_arena",
    "pyramids.cli.cmd_solve",
    "pyramids.cli.cmd_verify",
    "pyramids.cli.cmd_review",
]


def _register() -> None:
    import importlib

    for module in COMMAND_MODULES:
        importlib.import_module(module).register(app)


_register()


def main() -> None:
    """Entry point of the console script."""
    app()
