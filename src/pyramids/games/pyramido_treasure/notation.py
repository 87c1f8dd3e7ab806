"""Treasure-hunt notation: one short text per decision (docs/notation.md).

Slides name the spot as the players see the board now (``e2``); once the box
has turned, the text adds the spot's fixed box name (``e2=C4``), so that a
record reads the same whichever way the box faces. Events are
``name sphinx mummy``, ``poker p2 lamp`` and ``give mummy/2 to p3``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramids.engine.errors import NotationError
from pyramids.games.pyramido_treasure.board import (
    INTERNAL_NAMES,
    SPOT_BY_INTERNAL,
    SPOT_BY_VIEW,
    VIEW_NAME,
    view_dims,
)
from pyramids.games.pyramido_treasure.moves import (
    NAME,
    POKER,
    SLIDE,
    SLIDES,
    TreasureMove,
    give_move,
    name_move,
    poker_move,
)
from pyramids.games.pyramido_treasure.treasures import (
    CARD_BY_NAME,
    CARD_NAMES,
    TREASURES,
    is_treasure_card,
    parse_treasure,
)

if TYPE_CHECKING:
    from pyramids.games.pyramido_treasure.game import TreasureState


def move_to_str(rotation: int, move: TreasureMove) -> str:
    """The text of ``move`` with the box turned ``rotation`` quarter turns."""
    kind = move.kind
    if kind == SLIDE:
        seen = VIEW_NAME[rotation][move.spot]
        return seen if rotation == 0 else f"{seen}={INTERNAL_NAMES[move.spot]}"
    if kind == NAME:
        return f"name {TREASURES[move.treasure_a].name} {TREASURES[move.treasure_b].name}"
    if kind == POKER:
        return f"poker p{move.opponent + 1} {TREASURES[move.treasure].name}"
    return f"give {CARD_NAMES[move.card]} to p{move.to + 1}"


def parse_move(state: TreasureState, text: str) -> TreasureMove:
    """Read a move; spot names follow the board as the players see it now."""
    words = text.strip().lower().split()
    if not words:
        raise NotationError("type a move: a spot like c4, or see 'moves'", text)
    head = words[0]
    if len(words) == 1:
        return _parse_slide(state.rotation, head, text)
    if head == "name" and len(words) == 3:
        a, b = (_treasure_word(w, text) for w in words[1:])
        if a == b:
            raise NotationError("name two different treasures", text)
        return name_move(a, b)
    if head == "poker" and len(words) == 3:
        return poker_move(_seat_word(words[1], state.players, text), _treasure_word(words[2], text))
    if head == "give" and len(words) in (2, 3, 4):
        return _parse_give(state, words, text)
    raise NotationError(
        "'{text}' is not a move: type a spot like c4, 'name sphinx mummy', "
        "'poker p2 lamp' or 'give mummy/2 to p2'",
        text,
        text=text,
    )


def _parse_slide(rotation: int, word: str, text: str) -> TreasureMove:
    seen, eq, box = word.partition("=")
    spot = SPOT_BY_VIEW[rotation].get(seen)
    if spot is None:
        rows, cols = view_dims(rotation)
        raise NotationError(
            "'{word}' is not a spot: columns a-{last_column}, rows 1-{rows} as you see the board",
            text,
            word=seen,
            last_column=chr(ord("a") + cols - 1),
            rows=rows,
        )
    if eq and SPOT_BY_INTERNAL.get(box.upper()) != spot:
        raise NotationError(
            "{spot} as the board is seen now is {box} in box coordinates, not {given}",
            text,
            spot=seen,
            box=INTERNAL_NAMES[spot],
            given=box.upper(),
        )
    return SLIDES[spot]


def _parse_give(state: TreasureState, words: list[str], text: str) -> TreasureMove:
    """``give <card> [to] [<seat>]``: the seat may go unsaid when only one may receive."""
    card = CARD_BY_NAME.get(words[1])
    if card is None or not is_treasure_card(card):
        raise NotationError("'{word}' is not a treasure card like mummy/2", text, word=words[1])
    rest = [w for w in words[2:] if w != "to"]
    if rest:
        return give_move(card, _seat_word(rest[0], state.players, text))
    _, seats = state._give_options()
    if not seats:
        # not a typo but the wrong moment: let the rules say why
        return give_move(card, -1)
    if len(seats) != 1:
        raise NotationError("say who receives the card: give mummy/2 to p2", text)
    return give_move(card, seats[0])


def _treasure_word(word: str, text: str) -> int:
    t = parse_treasure(word)
    if t is None:
        raise NotationError(
            "'{word}' is not a treasure (treasures: {choices})",
            text,
            word=word,
            choices=", ".join(tr.name for tr in TREASURES),
        )
    return t


def _seat_word(word: str, players: int, text: str) -> int:
    w = word[1:] if word.startswith("p") else word
    if not w.isdigit() or not 1 <= int(w) <= players:
        raise NotationError(
            "'{word}' is not a player: p1 to p{count}", text, word=word, count=players
        )
    return int(w) - 1
