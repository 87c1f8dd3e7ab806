"""``pyramids serve``: the game server and web app in one process on an embedded SQLite file.

With ``--broker redis://…`` (and a shared PostgreSQL ``--database-url``) the
process is one instance of a cluster: see ``docs/deploy.md``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from pyramids.i18n import N_


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``pyramids`` CLI."""

    @app.command(
        "serve", help=N_("Serve the web app: play any game at http://HOST:PORT (Ctrl-C stops).")
    )
    def serve_cmd(
        host: Annotated[str, typer.Option(help=N_("address to listen on"))] = "127.0.0.1",
        port: Annotated[int, typer.Option(help=N_("TCP port"), min=1, max=65535)] = 8000,
        database_url: Annotated[
            str,
            typer.Option(
                "--database-url",
                help=N_(
                    "SQLAlchemy URL: sqlite:///file.db (default ./pyramids.db) "
                    "or postgresql+psycopg://user:pass@host/db"
                ),
            ),
        ] = "sqlite:///pyramids.db",
        bot_delay: Annotated[
            float, typer.Option(help=N_("seconds a bot waits before moving (so people see it)"))
        ] = 0.4,
        rate_limit: Annotated[
            list[str] | None,
            typer.Option(
                "--rate-limit",
                metavar="NAME=COUNT/SECONDS",
                help=N_(
                    "change one rate limit (e.g. moves-per-address=600/10), lift one "
                    "(NAME=off) or all (off); repeatable; names and defaults in docs/security.md"
                ),
            ),
        ] = None,
        header_timeout: Annotated[
            float,
            typer.Option(
                help=N_("seconds a client has to send a request's head before it is cut off")
            ),
        ] = 5.0,
        half_open_per_address: Annotated[
            int,
            typer.Option(
                help=N_(
                    "connections one address may hold open without a complete request head; "
                    "past it its oldest such connection is closed"
                )
            ),
        ] = 16,
        max_connections: Annotated[
            int | None,
            typer.Option(
                help=N_("connections in all (default: the file limit, ulimit -n, less 64)")
            ),
        ] = None,
        websockets_per_address: Annotated[
            int, typer.Option(help=N_("WebSocket connections one address may hold open"))
        ] = 64,
        broker: Annotated[
            str | None,
            typer.Option(
                "--broker",
                metavar="redis://HOST:PORT/DB",
                help=N_(
                    "Redis of a cluster: this process is then one of many instances "
                    "sharing --database-url (PostgreSQL); see docs/deploy.md"
                ),
            ),
        ] = None,
        bot_lease: Annotated[
            float,
            typer.Option(
                help=N_(
                    "with --broker: seconds a bot's lease lives unrenewed, i.e. how long "
                    "the bots of a dead instance wait before another one takes them over"
                )
            ),
        ] = 5.0,
    ) -> None:
        """Serve the web app: play any game at http://HOST:PORT (Ctrl-C stops)."""
        import uvicorn
        from sqlalchemy.exc import ArgumentError, OperationalError

        from pyramids.cli.common import _
        from pyramids.server.app import create_app
        from pyramids.server.guard import ConnectionLimits, Guard, guarded_protocol
        from pyramids.server.limits import RateLimits, parse_rate_options
        from pyramids.server.protocol import MAX_BODY
        from pyramids.server.storage import StorageError, Store

        try:
            rates = RateLimits(parse_rate_options(rate_limit or []))
        except ValueError as e:
            raise _refuse(str(e)) from None
        if bot_lease <= 0:
            message = _("--bot-lease must be a positive number of seconds")
            raise _refuse(message)
        if header_timeout <= 0 or half_open_per_address < 1 or websockets_per_address < 1:
            message = _(
                "--header-timeout, --half-open-per-address and "
                "--websockets-per-address must be positive"
            )
            raise _refuse(message)
        connection_limits = ConnectionLimits(
            header_timeout=header_timeout,
            half_open_per_address=half_open_per_address,
            max_connections=max_connections,
            websockets_per_address=websockets_per_address,
        )

        try:  # fail here with one clear line rather than in the server's start-up
            Store(database_url).close()
        except (StorageError, ArgumentError, OperationalError, ModuleNotFoundError) as e:
            # the driver's own words without SQLAlchemy's SQL/link lines, and its hints
            # ("Is the server running...?") joined in: the error stays one line
            reason = e.orig if isinstance(e, OperationalError) and e.orig is not None else e
            detail = " ".join(str(reason).split())
            shown = _without_password(database_url)
            message = _("cannot use the database {url}: {reason}", url=shown, reason=detail)
            raise _refuse(message) from None
        if broker is not None:
            _check_broker(broker)

        address = f"http://{host}:{port}/"
        database = _without_password(database_url)
        if broker:
            typer.echo(
                _(
                    "Pyramids: open {address} in a browser (database {database}, broker {broker})",
                    address=address,
                    database=database,
                    broker=_without_password(broker),
                )
            )
        else:
            typer.echo(
                _(
                    "Pyramids: open {address} in a browser (database {database})",
                    address=address,
                    database=database,
                )
            )
        guard = Guard(connection_limits)
        app = create_app(
            database_url,
            bot_delay=bot_delay,
            freeze_heap=True,
            rate_limits=rates,
            connection_limits=connection_limits,
            broker_url=broker,
            bot_lease=bot_lease,
        )
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
            # slow clients: deadlines and caps on half-open connections (docs/security.md)
            http=guarded_protocol(guard),
            timeout_keep_alive=5,
            h11_max_incomplete_event_size=connection_limits.max_header_bytes,
            # a message past the app's limit gets an error; one this large closes (1009)
            ws_max_size=16 * MAX_BODY,
            ws_ping_interval=20,
            # Messages are small JSON views on loopback or a LAN: compressing each one
            # costs more CPU than it saves (measured: zlib was a tenth of the server's time).
            ws_per_message_deflate=False,
        )


def _check_broker(url: str) -> None:
    """Stop with one clear line, before listening, if the broker cannot be used."""
    import importlib.util

    from pyramids.cli.common import _

    # asked of the third-party package itself: an import error inside our broker
    # module is a bug to see, not a missing extra
    if importlib.util.find_spec("redis") is None:
        message = _("--broker needs the redis package: pip install 'pyramids[redis]'")
        raise _refuse(message)
    from pyramids.cluster.broker import BrokerError, check_broker

    try:
        check_broker(url)
    except BrokerError as e:
        message = _("cannot use the broker {url}: {reason}", url=_without_password(url), reason=e)
        raise _refuse(message) from None


def _refuse(message: str) -> typer.Exit:
    """Print ``Error: message`` on stderr in the reader's language; the exit to raise (2).

    Why not :func:`pyramids.cli.common.fail`: a server's operator reads its errors on
    stderr, apart from what the server prints while it runs.
    """
    from pyramids.cli.common import _

    label = _("Error:")
    typer.echo(f"{label} {message}", err=True)
    return typer.Exit(2)


def _without_password(url: str) -> str:
    """The database URL as printed: a password in it is shown as ``***``."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url
