"""The backends of darkempire.execution play the same games: byte-identical JSON for the same seeds (issue 15)."""

from __future__ import annotations

import json
import logging
import socket
import sys
from collections.abc import Iterator

import pytest

from darkempire.cli.app import main
from darkempire.execution import Backend, BackendError, BackendUnavailable, BackendUnreachable, map_in_order
from darkempire.simulation import simulate
from darkempire.tournament import tournament

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local Dask cluster started for these tests: threads in this process, over TCP, as a
    remote cluster is reached."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster.scheduler_address


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when the block ends: nobody listens there


def _simulation_json(backend: Backend) -> str:
    summary = simulate(3, 12, 7, ["random", "greedy", "random"], backend=backend)
    return json.dumps(summary.to_json(), indent=2)


def _tournament_json(backend: Backend) -> str:
    result = tournament(["greedy", "random", "random"], 6, 3, backend=backend)
    return json.dumps(result.to_json(), indent=2)


def test_every_backend_gives_the_same_simulation_json(scheduler: str) -> None:
    serial = _simulation_json(Backend("serial"))
    assert _simulation_json(Backend("process", workers=2)) == serial
    assert _simulation_json(Backend("dask", address=scheduler)) == serial
    # A different seed is a different run: the comparison above can tell runs apart.
    other = json.dumps(simulate(3, 12, 8, ["random", "greedy", "random"], backend=Backend("serial")).to_json(), indent=2)
    assert other != serial


def test_every_backend_gives_the_same_tournament_json(scheduler: str) -> None:
    serial = _tournament_json(Backend("serial"))
    assert _tournament_json(Backend("process", workers=2)) == serial
    assert _tournament_json(Backend("dask", address=scheduler)) == serial


def test_results_come_back_in_task_order_on_dask(scheduler: str) -> None:
    tasks = list(range(-20, 0))
    seen: list[int] = []
    assert map_in_order(abs, tasks, Backend("dask", address=scheduler), seen.append) == [abs(t) for t in tasks]
    assert sorted(seen) == sorted(abs(t) for t in tasks)  # every result reported once, in whatever order


def test_equal_tasks_are_each_run_on_dask(scheduler: str) -> None:
    # Dask merges tasks it thinks pure; two games with the same arguments are still two games.
    assert map_in_order(abs, [-1, -1, -1], Backend("dask", address=scheduler)) == [1, 1, 1]


def test_the_cli_plays_on_a_dask_scheduler(scheduler: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "3", "--games", "6", "--seed", "4", "--bots", "random", "--json"]
    assert main([*argv, "--backend", "serial"]) == 0
    serial = capsys.readouterr().out
    assert main([*argv, "--backend", "dask", "--address", scheduler]) == 0
    assert capsys.readouterr().out == serial


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    address = f"tcp://127.0.0.1:{_closed_port()}"
    with pytest.raises(BackendUnreachable, match=f"no Dask scheduler answered at {address} within 0.5 s"):
        map_in_order(abs, [1], Backend("dask", address=address, connect_timeout=0.5))
    with pytest.raises(BackendUnreachable, match="'nonsense' is not a Dask scheduler's address"):
        map_in_order(abs, [1], Backend("dask", address="nonsense", connect_timeout=0.5))
    # distributed's TLS connector raises TypeError without its settings: a hostile review saw a traceback.
    with pytest.raises(BackendUnreachable, match="'tls://127.0.0.1:1' is not a Dask scheduler's address"):
        map_in_order(abs, [1], Backend("dask", address="tls://127.0.0.1:1", connect_timeout=0.5))


def test_without_distributed_the_dask_backend_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    with pytest.raises(BackendUnavailable, match=r"pip install 'darkempire\[distributed\]'"):
        map_in_order(abs, [1], Backend("dask"))


def test_the_cli_names_the_missing_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    status = main(["simulate", "--players", "3", "--games", "2", "--bots", "random", "--backend", "dask"])
    assert status == 1
    assert capsys.readouterr().err.strip() == (
        "darkempire: the dask backend needs Dask's distributed library: pip install 'darkempire[distributed]'"
    )


@pytest.mark.parametrize(
    ("kind", "workers", "address", "message"),
    [
        ("ray", None, None, "unknown backend 'ray'; choose from serial, process, dask"),
        ("process", 0, None, "a backend needs at least 1 worker, not 0"),
        ("process", None, "tcp://127.0.0.1:8786", "an address is for the dask backend only, not 'process'"),
    ],
)
def test_a_backend_refuses_what_it_cannot_run(kind: str, workers: int | None, address: str | None, message: str) -> None:
    with pytest.raises(BackendError, match=message):
        Backend(kind, workers, address)


def test_the_cli_refuses_an_address_without_dask_and_an_unknown_backend(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--games", "2", "--address", "tcp://127.0.0.1:8786"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "darkempire simulate: error: --address is for --backend dask only"
    )
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", "--backend", "ray"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'ray'" in capsys.readouterr().err
