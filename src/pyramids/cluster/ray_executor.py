"""Batch work as Ray tasks: ``--ray ADDRESS`` of ``pyramids arena``, ``simulate`` and ``solve``.

Why an :class:`concurrent.futures.Executor`: the arena and the solver already
hand their games and deals to a pool of local processes as pure functions
(game ``k`` depends only on the seed and ``k``; a deal only on its number), so
running them on a cluster is a matter of handing the same calls to another
pool. :class:`RayExecutor` is that pool: each ``submit`` becomes a Ray task,
its result comes back as an ordinary future, and everything that counts
completed futures (the progress bars) works unchanged. The results are
those of a local run, whatever the order in which workers finish them.

Ray is the ``cluster`` extra (``pip install 'pyramids[cluster]'``) and is
imported only when a command is given ``--ray``. Every node of the cluster
needs Pyramids installed (the tasks refer to its functions by name).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

T = TypeVar("T")

#: the hint shown when Ray is missing
INSTALL_HINT = "--ray needs Ray: pip install 'pyramids[cluster]'"


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be joined (the message says which)."""


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """What a Ray task runs: one call of a module-level function (pickled by name)."""
    return fn(*args, **kwargs)


class RayExecutor(Executor):
    """An executor whose workers are the CPUs of a Ray cluster.

    ``address`` is what ``ray.init`` takes: ``HOST:PORT`` of a running
    cluster's head, ``auto`` for the cluster this machine belongs to (``ray
    start`` was run here, or ``RAY_ADDRESS`` is set), or ``local`` for a
    one-machine cluster started for this command and stopped after it.
    """

    def __init__(self, address: str) -> None:
        if address == "local":
            # a one-machine cluster stays on loopback (Ray's single-machine mode); read by
            # Ray when it is first imported
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        try:
            import ray
        except ImportError:
            raise RayUnavailable(INSTALL_HINT) from None
        self._ray: Any = ray
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        options: dict[str, Any] = {"log_to_driver": False, "logging_level": "WARNING"}
        if address == "local":
            options["include_dashboard"] = False
        else:
            options["address"] = address
        try:
            ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise RayUnavailable(f"cannot join the Ray cluster at {address}: {e}") from None
        self._task = ray.remote(_call)

    @property
    def workers(self) -> int:
        """The CPUs of the cluster: how many tasks run at once."""
        return int(self._ray.cluster_resources().get("CPU", 0))

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; its future resolves with the result."""
        future: Future[T] = self._task.remote(fn, args, kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Leave the cluster (a ``local`` one is stopped)."""
        with contextlib.suppress(Exception):
            self._ray.shutdown()


@contextlib.contextmanager
def ray_executor(address: str | None) -> Iterator[RayExecutor | None]:
    """The executor for a command's ``--ray`` option (``None`` without it: run locally).

    Raises :class:`RayUnavailable` with a message for the user when Ray is
    missing or the cluster cannot be joined.
    """
    if address is None:
        yield None
        return
    executor = RayExecutor(address)
    try:
        yield executor
    finally:
        executor.shutdown()
