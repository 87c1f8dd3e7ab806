"""The games: what the lobby lists, each game's rules page, the web app's catalogs.

A game's description has two parts: what the registry and the package's
files say (player counts, bots, its web board), the same for every request
and computed once per game (:func:`game_facts`), and its words (title,
summary, option labels and docs), looked up in the request's language.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as FastAPIPath
from fastapi.responses import JSONResponse

from pyramids.engine.errors import UnknownGame
from pyramids.engine.registry import all_games, get_game
from pyramids.i18n import LANGUAGES, Translator, check_language, option_label
from pyramids.i18n.web import catalog_json
from pyramids.server.bots import bot_choices
from pyramids.server.clocks import PRESETS
from pyramids.server.dependencies import Lang
from pyramids.server.hints import hint_available
from pyramids.server.openapi import errors
from pyramids.server.protocol import ProtocolError, shown
from pyramids.server.routes.pages import WEB_DIR
from pyramids.server.rules_pages import rules_page

router = APIRouter()


def board_module(game_id: str) -> str | None:
    """The web board of a game, found by convention: ``web/boards/<game id>.js``.

    ``None`` means the page uses its generic board (every legal move as a button).
    """
    return game_id if (WEB_DIR / "boards" / f"{game_id}.js").is_file() else None


@cache
def game_facts(game_id: str) -> dict[str, Any]:
    """What the lobby is told of a game in every language, looked up once per game.

    Why once: the board files are found on disk and the bots by importing
    their classes; neither changes while the server runs. The answer is
    shared by every request: read it, never change it.
    """
    g = get_game(game_id)
    return {
        "bots": bot_choices(g.id),
        "board": board_module(g.id),
        "board_css": (WEB_DIR / "boards" / f"{g.id}.css").is_file(),
        # seats with secrets: a shared screen is covered between their turns
        "secrets": g.secret_seats,
        "undo": g.max_players == 1,
        "hint": hint_available(g.id),
        # real-time clock presets, name -> [seconds, seconds added per move] (none: a solitaire)
        "clock_presets": {k: list(v) for k, v in PRESETS.get(g.id, {}).items()},
    }


def game_info(game_id: str, tr: Translator) -> dict[str, Any]:
    """A game as ``GET /api/games`` lists it, its words in ``tr``'s language."""
    g = get_game(game_id)
    facts = game_facts(g.id)
    return {
        "id": g.id,
        "title": tr.lookup(f"game:{g.id}", g.title),
        "summary": tr.lookup(f"game-summary:{g.id}", g.summary) if g.summary else "",
        "min_players": g.min_players,
        "max_players": g.max_players,
        "options": [
            {
                "name": o.name,
                "label": tr.lookup(f"option:{g.id}:{o.name}", option_label(o.name)),
                "default": o.default,
                "kind": o.kind.__name__,
                "doc": tr.lookup(f"option-doc:{g.id}:{o.name}", o.doc),
                "minimum": o.minimum,
                "maximum": o.maximum,
                "choices": list(o.choices),
                "also": list(o.also),
            }
            for o in g.options
        ],
        **facts,
    }


@router.get(
    "/api/games",
    summary="The games, their options and the bots that can fill a seat",
    responses=errors(400),
)
async def list_games(tr: Lang) -> list[dict[str, Any]]:
    return [game_info(g.id, tr) for g in all_games()]


@router.get(
    "/api/games/{game_id}/rules",
    summary="The players' rules page of a game, as HTML, in the request's language",
    responses=errors(400, 404),
)
async def rules(game_id: str, tr: Lang) -> dict[str, Any]:
    try:
        info = game_info(game_id, tr)
    except UnknownGame as e:
        raise ProtocolError.from_engine("unknown-game", e) from None
    page = rules_page(game_id, tr.lang)
    return {"game": info, "lang": page.lang if page else None, "html": page and page.html}


@router.get(
    "/api/i18n/{lang}",
    summary="The web app's messages in a language (JSON catalog)",
    responses=errors(400),
)
async def i18n_catalog(
    lang: Annotated[str, FastAPIPath(json_schema_extra={"enum": list(LANGUAGES)})],
) -> JSONResponse:
    try:
        code = check_language(lang)
    except ValueError:
        raise ProtocolError(
            "bad-request",
            "unknown language {lang}; choose one of {languages}",
            lang=shown(lang),
            languages=", ".join(LANGUAGES),
        ) from None
    return JSONResponse(catalog_json(code), headers={"Cache-Control": "no-cache"})
