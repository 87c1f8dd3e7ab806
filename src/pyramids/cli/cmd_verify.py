"""``pyramids verify RECORD``: was a server game dealt fairly? Checks its record offline.

The checks are :func:`pyramids.server.fair.verify_record` (moves; the deal and
chance dealt again from the revealed secret's keyed stream, or from the seed
of a room whose creator chose one; the reveal against the commitment the room
published at its creation); this module only reads the file and prints the
findings.
Only Typer is imported at module level, so ``pyramids --help`` stays light.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from pyramids.i18n import N_


def verify_cmd(
    record: Annotated[
        Path, typer.Argument(help=N_("a record from GET /api/rooms/{room}/record ('-': stdin)"))
    ],
    commitment: Annotated[
        str | None,
        typer.Option(help=N_("the commitment you noted when the game began (checked too)")),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the findings as JSON"))] = False,
) -> None:
    """Check a server game's record: its moves, its deal, and the deal's commitment.

    Exit status 0 when every check holds, 1 when one fails, 2 for an unreadable file.
    """
    from pyramids.cli.common import _, fail, get_console, reason
    from pyramids.server.fair import verify_record

    try:
        text = sys.stdin.read() if str(record) == "-" else record.read_text(encoding="utf-8")
        data = json.loads(text)
    except OSError as e:
        raise fail(_("cannot read {path}: {reason}", path=str(record), reason=reason(e))) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise fail(_("{path} is not JSON: {reason}", path=str(record), reason=str(e))) from None
    if not isinstance(data, dict):
        raise fail(_("{path} is not a game record", path=str(record)))
    findings = verify_record(data, expected=commitment)
    # a record of a game played outside a server (terminal play, simulate) was never
    # committed to: only its moves can be checked, and saying "NOT verified" would call
    # an honest record suspect
    offline = "room" not in data and "commitment" not in data and commitment is None
    if offline:
        findings = [f for f in findings if f.check == "moves"]
    ok = all(f.ok for f in findings)
    if as_json:
        out = {
            "ok": ok,
            "checks": [{"check": f.check, "ok": f.ok, "detail": f.text()} for f in findings],
            "committed": not offline,
        }
        typer.echo(json.dumps(out, indent=2))
    else:
        from rich.markup import escape

        console = get_console()
        for f in findings:
            mark = "[green]✓[/]" if f.ok else "[red]✗[/]"
            said = _(f.template, **f.params)
            console.print(f"{mark} {escape(said)}", soft_wrap=True)
        if offline and ok:
            verdict = _(
                "its moves replay; it was not played on a server, so it carries no "
                "commitment to its deal to check"
            )
        else:
            verdict = _("fair: every check holds") if ok else _("NOT verified")
        console.print(f"[bold]{escape(verdict)}[/]")
    if not ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``verify`` to the ``pyramids`` command."""
    app.command(
        "verify",
        help=N_("Check a server game's record: its moves, its deal, and the deal's commitment."),
    )(verify_cmd)
