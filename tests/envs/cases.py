"""Which games and player counts the adapter tests check.

Imported by the test files after their ``pytest.importorskip`` lines, since
it needs NumPy (through the codec registry).
"""

from __future__ import annotations

from pyramids.engine.registry import get_game
from pyramids.envs.encodings import codec_ids

#: games of the registry that have a codec of their own
CODEC_GAMES = codec_ids()


def player_counts(game_id: str) -> list[int]:
    """Every supported player count of a game."""
    game = get_game(game_id)
    return list(range(game.min_players, game.max_players + 1))


#: variant options that keep whole test games short (a random treasure hunt runs
#: to thousands of slides: the slide limit ends it early, as the option is meant to)
SHORT_GAME: dict[str, dict[str, object]] = {"pyramido-treasure": {"slide_limit": 150}}


def short(game_id: str) -> dict[str, object]:
    """The variant to use when a test plays whole games of ``game_id``."""
    return dict(SHORT_GAME.get(game_id, {}))


#: (game id, players) for every game with a codec
CODEC_CASES = [(g, n) for g in CODEC_GAMES for n in player_counts(g)]
CODEC_IDS = [f"{g}-{n}p" for g, n in CODEC_CASES]
