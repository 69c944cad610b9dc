"""A match's games as Ray tasks on a Ray cluster (``nashplay arena --cluster ADDRESS``), the ``cluster`` extra.

Ray is imported here only, and only when a match is given a cluster: without the extra (``pip install -e
'.[cluster]'``) nothing imports it, and the local process pool (``solvers.arena``) stays the default.

The address is Ray's: ``auto`` for a cluster started on this machine (``ray start --head``) or named by
``$RAY_ADDRESS``, ``HOST:PORT`` for a head's GCS, ``ray://HOST:PORT`` for a remote one through Ray Client. A process
already connected to a cluster (a test, a notebook) plays on that one.

Every machine of the cluster must have nashplay installed (the same version: the games are played by the code the
workers import, from the same seeds), as the README's section on clusters says. The work is spread over one actor
per CPU of the cluster (``ClusterWorker``): each loads the players' modules and the compiled engine once, when
it starts, then plays the games it is sent, two queued at a time so that it never waits for the driver. A game is a
pure function of its spec (``solvers.arena.play_game``), so the cluster plays the same games as the local pool; the
records come back with the results and are written by the driver (a worker's disk may be another machine's).

An actor whose process dies (killed, out of memory, its machine gone) is restarted by Ray and its games played
again, from the same specs, up to ``solvers.arena.MAX_TRIES`` times; then the match stops
(``WorkersStoppedError``). Ctrl-C, a failed game or a match stopped early (SPRT) kills the actors, which ends the
games under way on the cluster and drops the ones queued.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Generator
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from core.games import game_type
from solvers.arena import MAX_TRIES, GameResult, GameSpec, Runner, WorkersStoppedError, play_game
from solvers.catalogue import make_player, player_entry

__all__ = [
    "ClusterUnavailableError",
    "ClusterWorker",
    "cluster_map",
    "cluster_results",
    "connect",
    "on_cluster",
    "warm_players",
]

Job = TypeVar("Job")
Done = TypeVar("Done")

#: How long the head's port may take to answer before the cluster is said unreachable: Ray itself retries an address
#: where nothing listens for minutes, saying nothing the user can read.
CONNECT_SECONDS = 10.0
#: Games sent ahead to each actor: one playing, one waiting, so that an actor never idles while the driver reads a
#: result and sends the next.
QUEUED_PER_ACTOR = 2


class ClusterUnavailableError(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached: the message says which, in one line."""


class ClusterWorker:
    """One worker of the cluster: it loads what the jobs need once (``warm``: the players' modules, the compiled
    Geister engine), then runs the jobs it is sent. Made a Ray actor by ``cluster_map``; a plain class here, so that
    this module imports without Ray."""

    def __init__(self, warm: Callable[[], object] | None = None) -> None:
        if warm is not None:
            warm()

    def run(self, function: Callable[[Job], Done], job: Job) -> Done:
        return function(job)


def warm_players(game: str, names: tuple[str, ...]) -> None:
    """Load the players' modules, and the compiled Geister engine when one of them searches: once per worker, not
    during its first game."""
    for name in names:
        make_player(name, game)
    if game_type(game).family == "geister" and any(player_entry(name).thinks for name in names):
        from solvers.geister_engine.kernel import warm_up

        warm_up()


def connect(address: str) -> Any:
    """The ``ray`` module, connected to the cluster at ``address`` (or to the one this process is already
    connected to). ``ClusterUnavailableError`` says in one line why not, or that the cluster has no CPU."""
    try:
        import ray
    except ImportError:
        raise ClusterUnavailableError(
            "Ray is not installed: install the cluster extra (pip install -e '.[cluster]')"
        ) from None
    _check_reachable(address)  # even when already connected: a wrong address is said, not ignored
    if not ray.is_initialized():
        try:
            # Ray's own lines (connecting, the workers' output) would mix with the progress bar and the JSON.
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        except Exception as error:  # ConnectionError, ValueError, RuntimeError, grpc's: Ray raises many kinds
            words = (str(error).strip().splitlines() or [type(error).__name__])[0]
            raise ClusterUnavailableError(f"cannot reach the Ray cluster at {address!r}: {words[:200]}") from None
    # Ray's ``cluster_resources`` has no annotations.
    if ray.cluster_resources().get("CPU", 0) < 1:  # type: ignore[no-untyped-call]  # its actors would wait for ever
        raise ClusterUnavailableError(f"the Ray cluster at {address!r} has no CPU to play on: start a node with CPUs")
    return ray


def _check_reachable(address: str) -> None:
    """Whether something answers at the head's port of ``HOST:PORT`` or ``ray://HOST:PORT`` (``auto`` Ray finds
    itself, and says at once when no cluster runs here)."""
    if address == "auto":
        return
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterUnavailableError(f"{address[:80]!r} is not a Ray address: give auto, HOST:PORT or ray://HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as error:
        raise ClusterUnavailableError(
            f"cannot reach the Ray cluster at {address!r}: {error.strerror or error} (is its head started?)"
        ) from None


def on_cluster(address: str) -> Runner:
    """The runner that plays a match's games on the cluster at ``address`` (``solvers.arena.run_match``'s
    ``runner``), connected now: ``ClusterUnavailableError`` before any game if it cannot be."""
    connect(address)
    return partial(cluster_results, address=address)


def cluster_results(specs: list[GameSpec], address: str) -> Generator[GameResult, None, None]:
    """The games' results as they finish on the cluster at ``address``. Records to save come back in
    ``GameResult.saved``."""
    if not specs:
        return
    sent = [replace(spec, send_record=True) if spec.save_dir is not None else spec for spec in specs]
    yield from cluster_map(play_game, sent, address, partial(warm_players, specs[0].game, specs[0].names))


def cluster_map(
    function: Callable[[Job], Done], jobs: list[Job], address: str, warm: Callable[[], object] | None = None
) -> Generator[Done, None, None]:
    """``function(job)`` of every job, as each finishes, run on the cluster at ``address`` by one ``ClusterWorker``
    per CPU (at most one per job), each warmed up by ``warm`` first. ``function`` and ``warm`` must be importable
    by the workers (top-level functions of nashplay, or partials of them)."""
    if not jobs:
        return
    ray = connect(address)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    remote_worker = ray.remote(num_cpus=1, max_restarts=MAX_TRIES, max_task_retries=MAX_TRIES)(ClusterWorker)
    actors = [remote_worker.remote(warm) for _ in range(max(1, min(cpus, len(jobs))))]
    queue = list(reversed(jobs))
    running: dict[Any, Any] = {}  # each job's result (an ObjectRef) -> the actor running it

    def send(actor: Any) -> None:
        running[actor.run.remote(function, queue.pop())] = actor

    try:
        for _ in range(QUEUED_PER_ACTOR):
            for actor in actors:
                if queue:
                    send(actor)
        while running:
            (done, *_), _ = ray.wait(list(running), num_returns=1)
            actor = running.pop(done)
            try:
                result: Done = ray.get(done)
            except ray.exceptions.RayActorError as error:
                words = (str(error).strip().splitlines() or [type(error).__name__])[0]
                raise WorkersStoppedError(
                    f"a worker on the cluster kept stopping (killed, out of memory, or its machine gone): {words[:200]}"
                ) from None
            if queue:
                send(actor)
            yield result
    finally:
        # Also on Ctrl-C, a failed job or the consumer gone (an SPRT decision): killing an actor ends its job under
        # way and drops the ones queued for it.
        for actor in actors:
            ray.kill(actor, no_restart=True)
