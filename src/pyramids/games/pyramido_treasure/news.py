"""What happened at the table, as messages: the templates of a view's ``news``.

The state logs each news line as a code and its parameters; a view gives
``{"code", "params", "text"}`` with the English text, and a face renders the
template of the code in its own language (the templates are marked with
``N_`` for ``pybabel extract``). Parameters: ``seat*`` are seat numbers,
``treasure*`` treasure ids, ``event`` an event card id, ``points`` and
``deck`` numbers (see :mod:`pyramids.engine.names`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pyramids.engine.names import N_, Param, render

#: news code -> English template
NEWS: dict[str, str] = {
    "draws": N_("{seat} draws {treasure} ({points}) from deck {deck}"),
    "draws-event": N_("{seat} draws {event} from deck {deck}"),
    "already-visible": N_("the {treasure} is already visible"),
    "takes": N_("{seat} takes {treasure} ({points})"),
    "box-quarter-turn": N_("the box turns a quarter turn clockwise"),
    "box-half-turn": N_("the box turns half a turn"),
    "finds": N_("{seat} finds the {treasure}"),
    "reveals": N_("{seat} reveals the {treasure}"),
    "reveals-wrong": N_("{seat} reveals the {treasure}, not the {treasure_sought}"),
    "out": N_("{seat} is out of the game (deck 3, wrong treasure)"),
    "names-treasures": N_("{seat} names the {treasure_a} and the {treasure_b}"),
    "revealed-both": N_("{seat} revealed both named treasures"),
    "no-card-of": N_("the current deck holds no card of the {treasure}"),
    "takes-from-deck": N_("{seat} takes {treasure} ({points}) from the deck"),
    "missed-both": N_("{seat} did not reveal both named treasures and must give a card"),
    "challenges": N_("{seat} challenges {seat_opponent} to find the {treasure}"),
    "takes-at-random": N_("{seat} takes {treasure} ({points}) at random from {seat_from}"),
    "no-card-to-lose": N_("{seat} has no card to lose"),
    "mirage-fades": N_("{seat} has no card: the mirage fades"),
    "keeps": N_("{seat} keeps {treasure} ({points})"),
    "returns": N_("{seat} returns {treasure} ({points}) to {seat_to}"),
    "gives": N_("{seat} gives {treasure} ({points}) to {seat_to}"),
    "no-card-to-give": N_("{seat} has no card to give"),
    "slide-limit": N_("the slide limit ({limit}) is reached"),
    "deck-used-up": N_("deck 3 is used up"),
}


def news_item(code: str, params: Mapping[str, Param], seats: Sequence[str]) -> dict[str, Any]:
    """One entry of a view's ``news``: the code, its parameters and the English text."""
    return {
        "code": code,
        "params": dict(params),
        "text": render(NEWS[code], params, seats=seats),
    }
