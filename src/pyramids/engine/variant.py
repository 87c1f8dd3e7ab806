"""Variant options: every optional reading of a rule is a named, documented option.

RULINGS.md asks that optional readings never fork the code; they are
constructor arguments with a default. A game declares its options once as
:class:`Option` values; :func:`resolve_variant` checks what a caller passed
and fills in the defaults, so that records always carry every option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pyramids.engine.errors import RecordError, VariantError

VariantValue = int | bool | str


@dataclass(frozen=True)
class Option:
    """One variant option of a game.

    ``kind`` is ``bool``, ``int`` or ``str``. For ``int`` options ``minimum``
    and ``maximum`` bound the value (inclusive, ``None`` = unbounded); for
    ``str`` options ``choices`` lists the accepted values. ``also`` lists
    extra accepted literal values of another type (``first_player`` takes a
    seat number or the word ``"random"``).
    """

    name: str
    default: VariantValue
    kind: type
    doc: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    also: tuple[VariantValue, ...] = ()

    def check(self, value: Any) -> VariantValue:
        """Return ``value`` coerced to the option's type, or raise :class:`VariantError`."""
        if isinstance(value, str) and value in self.also:
            return value
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "1", "on"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "0", "off"):
                return False
            raise VariantError(
                "option '{option}' must be true or false, not {value}",
                code="variant-not-bool",
                option=self.name,
                value=repr(value),
            )
        if self.kind is int:
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    if self.also:
                        raise VariantError(
                            "option '{option}' must be a whole number or one of {words}, "
                            "not {value}",
                            code="variant-not-int",
                            option=self.name,
                            words=repr(list(self.also)),
                            value=repr(value),
                        ) from None
                    raise VariantError(
                        "option '{option}' must be a whole number, not {value}",
                        code="variant-not-int",
                        option=self.name,
                        value=repr(value),
                    ) from None
            if not isinstance(value, int) or isinstance(value, bool):
                raise VariantError(
                    "option '{option}' must be a whole number, not {value}",
                    code="variant-not-int",
                    option=self.name,
                    value=repr(value),
                )
            if self.minimum is not None and value < self.minimum:
                raise VariantError(
                    "option '{option}' must be at least {minimum}",
                    code="variant-too-small",
                    option=self.name,
                    minimum=self.minimum,
                )
            if self.maximum is not None and value > self.maximum:
                raise VariantError(
                    "option '{option}' must be at most {maximum}",
                    code="variant-too-large",
                    option=self.name,
                    maximum=self.maximum,
                )
            return value
        if not isinstance(value, str):
            raise VariantError(
                "option '{option}' must be text, not {value}",
                code="variant-not-text",
                option=self.name,
                value=repr(value),
            )
        if self.choices and value not in self.choices:
            raise VariantError(
                "option '{option}' must be one of {choices}, not {value}",
                code="variant-not-a-choice",
                option=self.name,
                choices=", ".join(self.choices),
                value=repr(value),
            )
        return value


def first_player_option(doc_extra: str = "") -> Option:
    """The ``first_player`` option shared by every multiplayer game (RULINGS.md, preamble)."""
    return Option(
        "first_player",
        0,
        int,
        "Seat that moves first (0 = the player the rulebook says starts), or 'random' to draw it "
        "from the game's seed." + doc_extra,
        minimum=0,
        also=("random",),
    )


def resolve_variant(
    game_id: str, options: Sequence[Option], given: Mapping[str, Any]
) -> dict[str, VariantValue]:
    """Check ``given`` against ``options`` and return every option with its value."""
    known = {o.name: o for o in options}
    unknown = [k for k in given if k not in known]
    if unknown:
        if not known:
            raise VariantError(
                "{game_id} has no option '{option}' (it has no options)",
                code="variant-unknown-option",
                game_id=game_id,
                option=str(unknown[0]),
            )
        raise VariantError(
            "{game_id} has no option '{option}' (its options: {options})",
            code="variant-unknown-option",
            game_id=game_id,
            option=str(unknown[0]),
            options=", ".join(sorted(known)),
        )
    return {o.name: o.check(given[o.name]) if o.name in given else o.default for o in options}


def draw_first_player(variant: Mapping[str, Any], players: int, rng: Any) -> int:
    """The seat that starts, for a game's setup: the option's seat, or one drawn from ``rng``.

    Drawn inside ``make_setup`` so that ``first_player="random"`` is part of what
    the seed means and the setup records the outcome.
    """
    first = variant["first_player"]
    if first == "random":
        seat: int = rng.below(players)
        return seat
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        raise VariantError(
            "first_player must be a seat from 0 to {last}, not {value}",
            code="variant-first-player",
            last=players - 1,
            value=repr(first),
        )
    return first


def check_first_player(setup: Mapping[str, Any], players: int, variant: Mapping[str, Any]) -> int:
    """Read ``setup["first_player"]`` back, checked against the player count and the option."""
    first = setup.get("first_player")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        raise RecordError("setup.first_player", "must be a seat from 0 to {last}", last=players - 1)
    option = variant["first_player"]
    if option != "random" and option != first:
        raise RecordError(
            "setup.first_player",
            "is {first} but the variant says seat {option} starts",
            first=first,
            option=repr(option) if type(option) is not int else option,
        )
    return first
