"""PettingZoo's order-enforcing wrapper, with its look-ups made direct.

``env()`` wraps every AEC environment in PettingZoo's
``OrderEnforcingWrapper``, which refuses ``step``, ``observe``, ``agents``,
``rewards`` and the rest before ``reset()``. It reaches the wrapped
environment's attributes through ``__getattr__``, which Python calls only
after an ordinary look-up has failed: with a null game, the loop of
``agent_iter``/``last``/``step`` cost 23 µs a step wrapped against 5 µs bare
(``benchmarks/bench_adapters.py``), several times a Pirámides move.

:class:`OrderEnforcer` keeps every check and message of the original (it is
a subclass, so PettingZoo's own tests and ``isinstance`` checks accept it) and
only gives the attributes a training loop reads on every step a property, and
``last`` and ``agent_iter`` a direct path to the wrapped environment. Two
differences, both on purpose: writing one of those attributes through the
wrapper (``env.agent_selection = ...``) writes it to the environment, where
PettingZoo's wrapper would keep the value on itself, out of step with the
game; and a loop over ``agent_iter`` without a ``step`` is refused even under
``python -O`` (PettingZoo checks it with an ``assert``).
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers.order_enforcing import (  # type: ignore[import-untyped]
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
    OrderEnforcingWrapper,
)


def _forward(name: str) -> property:
    """A property reading ``name`` of the wrapped env, refused before ``reset()``.

    The refusal is the original's: an ``AttributeError`` raised in a property
    makes Python fall back to ``OrderEnforcingWrapper.__getattr__``, which
    raises PettingZoo's own "cannot be accessed before reset" error.
    """

    def get(self: OrderEnforcer) -> Any:
        if not self._has_reset:
            raise AttributeError(name)
        return getattr(self.env, name)

    def put(self: OrderEnforcer, value: Any) -> None:
        setattr(self.env, name, value)

    get.__doc__ = f"The wrapped environment's ``{name}`` (after ``reset()``)."
    return property(get, put)


class OrderEnforcer(OrderEnforcingWrapper):  # type: ignore[misc]
    """``OrderEnforcingWrapper`` with direct reads of the per-step attributes."""

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The wrapped environment's ``last()``; before ``reset()``, PettingZoo's error."""
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]  # raises
        return self.env.last(observe)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        """The environment's name, as PettingZoo's wrapper gives it (``pyramido_v0``)."""
        return str(self.env)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # logs PettingZoo's error
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's iterator (same stop rule, same step-in-every-iteration check)."""

    def __next__(self) -> Any:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        return env.agent_selection
