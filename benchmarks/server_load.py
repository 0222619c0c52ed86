"""Load test of the game server (``nox -s load``): many concurrent matches through a real server process.

Starts ``darkempire serve`` on a free loopback port with a fresh SQLite file, creates ``--matches`` matches
(3 seats: one human, a greedy and a random bot), connects the human and a spectator to each, and, once every
match is set up, lets every human make ``--moves`` moves, each after a random think time (mean ``--think``
seconds). It checks that no move was lost or told twice (each spectator's updates are the seqs 1..n once each,
n the match's stored seq, and every acknowledged move is among them) and measures move-to-broadcast: from a
human sending ``act`` to the spectator receiving that choice's ``update``. Exits 1 if a check fails or the p99
is ``--p99`` ms or more.

The humans wait for every match to be set up because this one process times the moves: while it is still
setting up matches (HTTP requests, WebSocket handshakes, the welcomes to read), it is too busy to read an
update when it comes, and the first seconds timed its own setup, not the server (``--start-early`` lets each
human start as soon as its own match is set up, as this test did before 2026-12-07).

Only loopback traffic; every loop is bounded by ``--moves`` and ``--deadline`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

PROTOCOL = "darkempire-server/1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Tally:
    """What the clients saw: send times by (match, seq), broadcast times, acks and refusals."""

    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}
        self.told: dict[str, list[tuple[int, float]]] = {}
        self.acked: dict[str, list[int]] = {}
        self.stale = 0
        self.set_up = 0
        self.all_set_up = asyncio.Event()


def _act(credential: str, action: Any) -> str:
    return json.dumps({"format": PROTOCOL, "type": "act", "credential": credential, "action": action})


async def _human(ws: ClientConnection, match_id: str, credential: str, moves: int, think: float, tally: Tally) -> None:
    made, fresh, prompt, sent_at = 0, True, None, 0.0
    while made < moves:
        data = json.loads(await ws.recv())
        if data["type"] in ("welcome", "update"):
            prompt, fresh = data["prompt"], True
            if prompt["view"]["phase"] == "GAME_OVER":
                return
        elif data["type"] == "ack":
            tally.sent[match_id, data["seq"]] = sent_at
            tally.acked.setdefault(match_id, []).append(data["seq"])
            made += 1
        elif data["type"] == "error":
            tally.stale += 1  # a prompt overtaken by another seat's move: wait for the next update
        if fresh and prompt is not None and prompt["legal_actions"] and set(prompt["view"]["awaited"]) == {0}:
            fresh = False
            await asyncio.sleep(random.expovariate(1 / think) if think > 0 else 0)
            sent_at = time.perf_counter()
            await ws.send(_act(credential, prompt["legal_actions"][0]))


async def _spectator(ws: ClientConnection, match_id: str, tally: Tally, done: asyncio.Event) -> None:
    told = tally.told.setdefault(match_id, [])
    while not done.is_set():
        try:
            data = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
        except TimeoutError:
            continue
        if data["type"] == "update":
            told.append((data["seq"], time.perf_counter()))


async def _last_broadcasts(http: httpx.AsyncClient, match_id: str, tally: Tally, wait: float = 30.0) -> None:
    """Wait (at most ``wait`` seconds) until the spectator was told every choice stored by now: under load the
    last broadcasts can come later than the human's last ack, and a fixed pause would count them as lost."""
    seq = int((await http.get(f"/api/matches/{match_id}")).json()["match"]["seq"])
    deadline = time.perf_counter() + wait
    while time.perf_counter() < deadline and len(tally.told[match_id]) < seq:
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.2)  # an update told twice would come now


async def _match(base: str, http: httpx.AsyncClient, args: argparse.Namespace, tally: Tally) -> str:
    created = await http.post("/api/matches", json={"players": 3, "bots": [None, "greedy", "random"]})
    match_id = str(created.json()["match"]["match_id"])
    url = f"ws{base[4:]}/api/matches/{match_id}/socket"
    done = asyncio.Event()
    async with connect(url) as watcher, connect(url) as player:
        await watcher.send(json.dumps({"format": PROTOCOL, "type": "hello", "seat": None, "credential": None, "since": None}))
        welcome = json.loads(await watcher.recv())
        tally.told[match_id] = [(step["seq"], 0.0) for step in welcome["missed"][1:]]  # the bots' moves before it came
        watching = asyncio.create_task(_spectator(watcher, match_id, tally, done))
        joined = (await http.post(f"/api/matches/{match_id}/join", json={"seat": 0})).json()
        hello = {"format": PROTOCOL, "type": "hello", "seat": 0, "credential": joined["credential"], "since": None}
        await player.send(json.dumps(hello))
        tally.set_up += 1
        if tally.set_up == args.matches or args.start_early:
            tally.all_set_up.set()
        await tally.all_set_up.wait()
        await _human(player, match_id, joined["credential"], args.moves, args.think, tally)
        await _last_broadcasts(http, match_id, tally)
        done.set()
        await watching
    return match_id


async def _run(base: str, args: argparse.Namespace) -> tuple[Tally, dict[str, int]]:
    tally = Tally()
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        ids = await asyncio.wait_for(asyncio.gather(*(_match(base, http, args, tally) for _ in range(args.matches))), args.deadline)
        seqs = {m: int((await http.get(f"/api/matches/{m}")).json()["match"]["seq"]) for m in ids}
    return tally, seqs


def _check(tally: Tally, seqs: dict[str, int]) -> list[str]:
    problems = []
    for match_id, seq in seqs.items():
        told = [s for s, _ in tally.told.get(match_id, [])]
        if told != list(range(1, seq + 1)):
            problems.append(f"match {match_id}: the spectator was told {len(told)} updates for {seq} choices, or out of order")
        if not set(tally.acked.get(match_id, [])) <= set(told):
            problems.append(f"match {match_id}: an acknowledged move was never broadcast")
    return problems


def _percentile(ordered: list[float], fraction: float) -> float:
    """The ``fraction`` percentile of the sorted ``ordered`` (nearest rank below), infinite when empty."""
    return ordered[int(fraction * (len(ordered) - 1))] if ordered else float("inf")


def _load() -> str:
    """The 1, 5 and 15 minute load averages, as the figures of a run are read against them."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--moves", type=int, default=12, help="moves per human seat (default 12)")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time before a move, in seconds")
    parser.add_argument("--p99", type=float, default=100.0, help="the p99 move-to-broadcast to stay under, in ms")
    parser.add_argument("--deadline", type=float, default=600.0, help="give up after this many seconds")
    parser.add_argument(
        "--start-early", action="store_true",
        help="let each human start as soon as its own match is set up, not once every match is (the first seconds "
        "then time this process's own setup of the other matches)",
    )  # fmt: skip
    args = parser.parse_args()
    port = _free_port()
    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "load.sqlite3"
        command = [sys.executable, "-m", "darkempire", "serve", "--port", str(port), "--db", str(db), "--rate", "1000"]
        command += ["--create-rate", "1000", "--per-address", "100000"]  # every client is on this machine
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=os.environ.copy())
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    httpx.get(base + "/api/matches", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            started = time.perf_counter()
            tally, seqs = asyncio.run(_run(base, args))
            elapsed = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(10)
    latencies = sorted(
        (at - tally.sent[m, s]) * 1000 for m, told in tally.told.items() for s, at in told if (m, s) in tally.sent
    )
    problems = _check(tally, seqs)
    p99 = _percentile(latencies, 0.99)
    choices = sum(seqs.values())
    print(f"{args.matches} matches, {choices} choices stored, {len(latencies)} human moves timed in {elapsed:.1f} s")
    print(f"throughput: {choices / elapsed:.1f} choices/s, {2 * choices / elapsed:.1f} updates/s sent (load average {_load()})")
    if latencies:
        print(
            f"move-to-broadcast: p50 {statistics.median(latencies):.1f} ms, p95 {_percentile(latencies, 0.95):.1f} ms,"
            f" p99 {p99:.1f} ms, max {latencies[-1]:.1f} ms"
        )
    print(f"prompts overtaken (refused, then moved on): {tally.stale}")
    for problem in problems:
        print("FAIL:", problem)
    if p99 >= args.p99:
        print(f"FAIL: p99 {p99:.1f} ms is not under {args.p99:g} ms")
    return 1 if problems or p99 >= args.p99 else 0


if __name__ == "__main__":
    raise SystemExit(main())
