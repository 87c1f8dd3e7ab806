"""The game server: FastAPI app, storage, rooms, protocol and bots.

``pyramids serve`` runs :func:`pyramids.server.app.create_app` under uvicorn.
See ``docs/server.md`` for the API, the WebSocket protocol and the error codes.
"""
