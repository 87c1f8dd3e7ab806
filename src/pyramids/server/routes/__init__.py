"""The server's routes, one :class:`fastapi.APIRouter` per concern (``docs/server.md``).

* :mod:`.games` - the games, their rules pages and the web app's catalogs;
* :mod:`.rooms` - creating a room, its summary and snapshot, moves, undo, rematch;
* :mod:`.hints` - the solver's hint for the seat to move;
* :mod:`.records` - a finished game's replay and record;
* :mod:`.reviews` - a finished game's review;
* :mod:`.websocket` - the live connection of a seat or a spectator;
* :mod:`.pages` - the web app's page, the API's documentation, the health check.

Each route takes what it uses as dependencies (:mod:`pyramids.server.dependencies`)
and its body as a typed object (:mod:`pyramids.server.inputs`);
:func:`pyramids.server.app.create_app` includes them all.
"""
