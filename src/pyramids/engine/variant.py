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
            raise VariantError(f"option {self.name!r} must be true or false, not {value!r}")
        if self.kind is int:
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise VariantError(
                        f"option {self.name!r} must be a whole number"
                        + (f" or one of {list(self.also)}" if self.also else "")
                        + f", not {value!r}"
                    ) from None
            if not isinstance(value, int) or isinstance(value, bool):
                raise VariantError(f"option {self.name!r} must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise VariantError(f"option {self.name!r} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise VariantError(f"option {self.name!r} must be at most {self.maximum}")
            return value
        if not isinstance(value, str):
            raise VariantError(f"option {self.name!r} must be text, not {value!r}")
        if self.choices and value not in self.choices:
            raise VariantError(
                f"option {self.name!r} must be one of {', '.join(self.choices)}, not {value!r}"
            )
        return value


def first_player_option(doc_extra: str = "") -> Option:
    """The ``first_player`` option shared by every multiplayer game (RULINGS.md, preamble)."""
    return Option(
        "first_player",
        0,
        int,
        "Seat that moves first (0 = the rulebooks' 'youngest'), or 'random' to draw it "
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
        names = ", ".join(sorted(known)) or "none"
        raise VariantError(f"{game_id} has no option {unknown[0]!r} (its options: {names})")
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
        raise VariantError(f"first_player must be a seat from 0 to {players - 1}, not {first!r}")
    return first


def check_first_player(setup: Mapping[str, Any], players: int, variant: Mapping[str, Any]) -> int:
    """Read ``setup["first_player"]`` back, checked against the player count and the option."""
    first = setup.get("first_player")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        raise RecordError("setup.first_player", f"must be a seat from 0 to {players - 1}")
    option = variant["first_player"]
    if option != "random" and option != first:
        raise RecordError(
            "setup.first_player", f"is {first} but the variant says seat {option} starts"
        )
    return first
