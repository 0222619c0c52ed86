"""Where many independent seeded games are played: in this process, a local process pool, or a Dask cluster.

``darkempire simulate`` and ``darkempire tournament`` split their games into tasks (a chunk of game seeds
each) and hand them to :func:`map_in_order` with a :class:`Backend`:

* ``"serial"``: every task in this process, one after the other;
* ``"process"`` (the default): a local :class:`concurrent.futures.ProcessPoolExecutor` with one worker
  per core unless told otherwise;
* ``"dask"``: a `Dask <https://distributed.dask.org>`_ cluster, the one whose scheduler listens at the
  backend's ``address`` (``tcp://host:8786``), or a ``distributed.LocalCluster`` started for the run
  when there is no address. It needs the ``distributed`` extra (``pip install 'darkempire[distributed]'``).

Dask rather than Ray: it installs from PyPI alone (no daemon, no native runtime to match between machines),
a scheduler and workers on other machines are two commands (``dask scheduler``, ``dask worker ADDRESS``),
and a local cluster starts inside the calling process, which is how the tests run it.

Whatever the backend, :func:`map_in_order` returns the tasks' results in the order of the tasks, not in the
order they finished, and a task is a pure function of its arguments (a game is a function of its seeds): so
the same seeds give the same results, and the same JSON, on every backend and any number of workers.

>>> map_in_order(abs, [-2, 3, -1], Backend("serial"))
[2, 3, 1]
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

import attrs

from tablekit.errors import KitError

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "Backend",
    "BackendError",
    "BackendUnavailable",
    "BackendUnreachable",
    "add_backend_arguments",
    "backend_from_args",
    "default_workers",
    "map_in_order",
]

T = TypeVar("T")
R = TypeVar("R")

#: The backends :func:`map_in_order` can run tasks on.
BACKENDS: tuple[str, ...] = ("serial", "process", "dask")
#: The backend of ``darkempire simulate`` and ``darkempire tournament`` when none is named.
DEFAULT_BACKEND = "process"
#: What to install for the ``dask`` backend.
DASK_HINT = "pip install 'darkempire[distributed]'"


class BackendError(KitError, ValueError):
    """A backend that cannot run the tasks: a bad choice of options, a missing library, a cluster not reached."""


class BackendUnavailable(BackendError):
    """The backend's library is not installed (the ``distributed`` extra for ``dask``)."""


class BackendUnreachable(BackendError):
    """No Dask scheduler answered at the backend's address in time."""


def default_workers() -> int:
    """The cores this process may run on (at least 1): the process pool's workers when none are named."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _check_kind(instance: Backend, attribute: attrs.Attribute[str], kind: str) -> None:
    if kind not in BACKENDS:
        raise BackendError(f"unknown backend {kind!r}; choose from {', '.join(BACKENDS)}")


def _check_workers(instance: Backend, attribute: attrs.Attribute[int | None], workers: int | None) -> None:
    if workers is not None and workers < 1:
        raise BackendError(f"a backend needs at least 1 worker, not {workers}")


def _check_address(instance: Backend, attribute: attrs.Attribute[str | None], address: str | None) -> None:
    if address is not None and instance.kind != "dask":
        raise BackendError(f"an address is for the dask backend only, not {instance.kind!r}")


@attrs.frozen
class Backend:
    """Where :func:`map_in_order` runs tasks.

    :ivar kind: one of :data:`BACKENDS`.
    :ivar workers: worker processes of the process pool or of the local Dask cluster; ``None`` for one per
        core (:func:`default_workers`). A remote Dask cluster has the workers it has: this is ignored there.
    :ivar address: the Dask scheduler's address (``tcp://host:8786``), or ``None`` to start a local cluster.
    :ivar connect_timeout: seconds to wait for the scheduler at ``address`` before giving up.
    :raises BackendError: for an unknown kind, fewer than 1 worker, or an address for another kind than dask.
    """

    kind: str = attrs.field(default=DEFAULT_BACKEND, validator=_check_kind)
    workers: int | None = attrs.field(default=None, validator=_check_workers)
    address: str | None = attrs.field(default=None, validator=_check_address)
    connect_timeout: float = 10.0

    @property
    def worker_count(self) -> int:
        """The workers asked for, or one per core."""
        return self.workers if self.workers is not None else default_workers()

    def describe(self) -> str:
        """A few words for a report's heading: ``"process backend, 2 workers"``, ``"dask at tcp://..."``."""
        if self.kind == "serial":
            return "serial backend"
        if self.kind == "dask" and self.address is not None:
            return f"dask backend at {self.address}"
        n = self.worker_count
        return f"{self.kind} backend, {n} worker{'s' if n != 1 else ''}"


def map_in_order(
    function: Callable[[T], R],
    tasks: Sequence[T],
    backend: Backend,
    on_result: Callable[[R], None] | None = None,
) -> list[R]:
    """``[function(task) for task in tasks]``, computed on ``backend``, in the order of ``tasks``.

    ``function`` and the tasks must pickle for the process and dask backends (a module-level function, or a
    :func:`functools.partial` of one); on a remote cluster the workers must import the same ``darkempire``.

    :param on_result: called with each result as its task finishes (in the order they finish), for progress.
    :raises BackendUnavailable: for ``dask`` without the ``distributed`` library.
    :raises BackendUnreachable: when no scheduler answers at the dask backend's address.
    """
    if backend.kind == "dask":
        return _dask_map(function, tasks, backend, on_result)
    if backend.kind == "serial" or backend.worker_count == 1 or len(tasks) <= 1:
        # A pool of one worker plays the same games more slowly: pickling, a process start.
        results = []
        for task in tasks:
            results.append(function(task))
            if on_result is not None:
                on_result(results[-1])
        return results
    with ProcessPoolExecutor(max_workers=min(backend.worker_count, len(tasks))) as pool:
        futures = [pool.submit(function, task) for task in tasks]
        if on_result is not None:
            for future in as_completed(futures):
                on_result(future.result())
        return [future.result() for future in futures]  # in task order, whichever worker finished first


def _dask_map(
    function: Callable[[T], R], tasks: Sequence[T], backend: Backend, on_result: Callable[[R], None] | None
) -> list[R]:
    try:
        # As Any: distributed's Client and LocalCluster have no annotations, and --strict refuses untyped calls.
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise BackendUnavailable(f"the dask backend needs Dask's distributed library: {DASK_HINT}") from None
    cluster: Any = None
    if backend.address is None:
        # Worker processes, one thread each: a game holds the GIL the whole time it is played. No more of them
        # than there are tasks, as the process pool: --workers 100000 for three games would start 100,000.
        cluster = distributed.LocalCluster(
            n_workers=max(1, min(backend.worker_count, len(tasks))),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        client = distributed.Client(cluster)
    else:
        try:
            client = distributed.Client(backend.address, timeout=backend.connect_timeout)
        except (ValueError, TypeError) as error:  # "nonsense", "tcp://host" without a port; tls:// or ucx://
            # without their settings or libraries raise TypeError from inside distributed's connectors.
            raise BackendUnreachable(f"{backend.address!r} is not a Dask scheduler's address: {error}") from None
        except (OSError, TimeoutError) as error:  # refused, or nobody answered
            raise BackendUnreachable(
                f"no Dask scheduler answered at {backend.address} within {backend.connect_timeout:g} s: {error}"
            ) from None
    try:
        # pure=False: two tasks with equal arguments are still two tasks (Dask would otherwise run one).
        futures = client.map(function, list(tasks), pure=False)
        if on_result is not None:
            for future in distributed.as_completed(futures):
                on_result(future.result())
        results: list[R] = client.gather(futures)
        return results
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# --------------------------------------------------------------------------- the command line


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--backend``, ``--address`` and ``--workers`` (also spelt ``--jobs``) to ``parser``; read them
    back with :func:`backend_from_args`. ``darkempire simulate`` and ``darkempire tournament`` share them."""
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default=DEFAULT_BACKEND,
        help="where the games are played: in this process, a local process pool, or a Dask cluster "
        f"(needs {DASK_HINT}); results do not depend on it",
    )
    parser.add_argument(
        "--address",
        metavar="tcp://HOST:PORT",
        help="the Dask scheduler to send the games to (--backend dask; default: start a local cluster)",
    )
    parser.add_argument(
        "--workers",
        "--jobs",
        dest="workers",
        type=int,
        default=None,
        help="worker processes of the process pool or the local Dask cluster (default one per core); "
        "results do not depend on it",
    )


def backend_from_args(args: argparse.Namespace) -> Backend:
    """The :class:`Backend` that parsed :func:`add_backend_arguments` options name. A namespace built by hand
    may lack them: an old one's ``jobs`` counts as ``workers``, and without either the games are played in
    this process.

    :raises BackendError: for an address without ``--backend dask``, fewer than 1 worker, an unknown backend.
    """
    workers = getattr(args, "workers", getattr(args, "jobs", None))
    kind = getattr(args, "backend", None)
    if kind is None:
        kind = "serial" if workers in (None, 1) else "process"
    address = getattr(args, "address", None)
    if address is not None and kind != "dask":
        raise BackendError("--address is for --backend dask only")
    if workers is not None and workers < 1:
        raise BackendError(f"--workers must be at least 1, not {workers}")
    return Backend(kind, workers, address)
