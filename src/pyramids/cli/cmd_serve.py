"""``pyramids serve``: the game server and web app in one process on an embedded SQLite file."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``pyramids`` CLI."""

    @app.command("serve")
    def serve_cmd(
        host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="TCP port")] = 8000,
        database_url: Annotated[
            str,
            typer.Option(
                "--database-url",
                help="SQLAlchemy URL: sqlite:///file.db (default ./pyramids.db) "
                "or postgresql+psycopg://user:pass@host/db",
            ),
        ] = "sqlite:///pyramids.db",
        bot_delay: Annotated[
            float, typer.Option(help="seconds a bot waits before moving (so people see it)")
        ] = 0.4,
    ) -> None:
        """Serve the web app: play any game at http://HOST:PORT (Ctrl-C stops)."""
        import uvicorn
        from sqlalchemy.exc import ArgumentError, OperationalError

        from pyramids.server.app import create_app
        from pyramids.server.storage import StorageError, Store

        try:  # fail here with one clear line rather than in the server's start-up
            Store(database_url).close()
        except (StorageError, ArgumentError, OperationalError, ModuleNotFoundError) as e:
            # the driver's own words without SQLAlchemy's SQL/link lines, and its hints
            # ("Is the server running...?") joined in: the error stays one line
            reason = e.orig if isinstance(e, OperationalError) and e.orig is not None else e
            detail = " ".join(str(reason).split())
            shown = _without_password(database_url)
            typer.echo(f"Error: cannot use the database {shown}: {detail}", err=True)
            raise typer.Exit(2) from None

        typer.echo(
            f"Pyramids: open http://{host}:{port}/ in a browser"
            f" (database {_without_password(database_url)})"
        )
        uvicorn.run(
            create_app(database_url, bot_delay=bot_delay, freeze_heap=True),
            host=host,
            port=port,
            log_level="warning",
            ws_ping_interval=20,
            # Messages are small JSON views on loopback or a LAN: compressing each one
            # costs more CPU than it saves (measured: zlib was a tenth of the server's time).
            ws_per_message_deflate=False,
        )


def _without_password(url: str) -> str:
    """The database URL as printed: a password in it is shown as ``***``."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url
