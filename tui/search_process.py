"""Search AIs in a separate process, so the app's keys are answered while they think.

Monte Carlo search in a worker *thread* shares the interpreter lock with the UI and stalls key handling for
seconds on this 2-core machine (``spec/conventions.md``); a process does not. Each ``SearchProcess`` is one
long-lived worker process (a ``ProcessPoolExecutor`` with one worker), so state can live in the child between
requests: the search player of each game (UPP learns its world weights from one decision to the next, so it must be
the same instance every turn) and, for the advice panel, the running search itself, which each request advances by
a slice of time and reports. A new position starts a new search.

A worker that dies (``kill -9``, out of memory) breaks its pool for good: ``SearchProcess`` replaces a broken pool on
its next use, and ``call`` asks a fresh process once more for the work the dead one was doing. What lived in the dead
child (a player's learning, a running search) is gone: the fresh one starts from nothing, and its callers say so.

The functions run in the child are module-level (picklable by name) and import no Textual.
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.geister import GeisterView, Setup
from core.notation import Move
from solvers.catalogue import make_player
from solvers.players import Limit, RandomPlayer

if TYPE_CHECKING:
    from solvers.advice import Advice
    from solvers.geister.purple import SearchReport
    from solvers.geister.tablebase import Judgement
    from solvers.review import Review


class ProcessStoppedError(RuntimeError):
    """The process died during the work, and the fresh one asked again died too: the work is not done. Its text is
    plain words, for the screen's message."""


class SearchProcess:
    """One worker process, started on first use, replaced when it has died, and stopped by ``shutdown``."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        # The advice's process is used from the UI (warming) and a worker thread (its search) at once.
        self._lock = threading.Lock()
        self._restarted = False

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        """``fn(*args)`` in the worker. A pool whose worker has died is replaced here, so this never raises
        ``BrokenProcessPool``; a future can still fail with it (the worker dies during the work: see ``call``)."""
        with self._lock:
            if self._pool is not None:
                try:
                    return self._pool.submit(fn, *args)
                except BrokenProcessPool:  # its worker died since the last request: the pool is unusable for good
                    self._pool.shutdown(wait=False, cancel_futures=True)
                    self._restarted = True
            self._pool = self._start()
            return self._pool.submit(fn, *args)

    @staticmethod
    def _start() -> ProcessPoolExecutor:
        # Textual replaces stderr with an object that has no file descriptor, and starting a process then fails
        # ("bad value(s) in fds_to_keep", Textual issue #3593): start it with the real stderr in place.
        with contextlib.redirect_stderr(sys.__stderr__):
            return ProcessPoolExecutor(
                max_workers=1,
                mp_context=get_context("spawn"),
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )

    def call(self, timeout: float, fn: Any, *args: Any) -> Any:
        """``fn(*args)``'s result, waited for at most ``timeout`` seconds. When the worker dies during it, a fresh
        process is asked once more; ``ProcessStoppedError`` when that one dies too. ``take_restarted`` then says so."""
        try:
            return self.submit(fn, *args).result(timeout=timeout)
        except BrokenProcessPool:
            pass  # the next submit finds the pool broken (it is marked so before its futures fail) and replaces it
        try:
            return self.submit(fn, *args).result(timeout=timeout)
        except BrokenProcessPool:
            raise ProcessStoppedError("its process stopped, and again when it was restarted") from None

    def take_restarted(self) -> bool:
        """Whether a dead worker was replaced since the last call of this: for the caller to tell the user, once."""
        with self._lock:
            restarted, self._restarted = self._restarted, False
            return restarted

    def shutdown(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None


_SHARED: SearchProcess | None = None


def shared_process() -> SearchProcess:
    """The app's search process (one for the opponents; the advice panel has its own, see ``advice_process``)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = SearchProcess()
    return _SHARED


_ADVICE: SearchProcess | None = None


def advice_process() -> SearchProcess:
    global _ADVICE
    if _ADVICE is None:
        _ADVICE = SearchProcess()
    return _ADVICE


def shutdown_all() -> None:
    for process in (_SHARED, _ADVICE):
        if process is not None:
            process.shutdown()


# ---------------------------------------------------------------------------------------------- in the child

#: How often the worker looks for its parent: a search of a dead app stops within this (plus the current slice).
PARENT_CHECK_SECONDS = 0.5


def watch_parent(parent: int) -> None:
    """Run in the worker when it starts: end it when the app that started it is gone.

    A ``kill -9`` of the app left its worker computing (60-75% of a core) and then waiting forever with 166 MB.
    The pool only notices a dead parent when it next talks to it, so a thread checks: once the parent dies the
    worker is re-parented (``getppid`` changes) and exits at once, mid-search or idle.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)  # nobody is left to report to: no clean-up is owed

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


@dataclass
class _Child:
    players: dict[str, Any]
    search: Iterator[SearchReport] | None = None
    search_key: tuple[str, str, int] | None = None
    latest: SearchReport | None = None
    #: The endgame tables' judgement of the advised position, where they cover it.
    judgement: Judgement | None = None


_CHILD = _Child({})


def _player(name: str, variant: str, game: str) -> Any:
    """The catalogue's ``name`` player for ``variant``, kept for the game numbered ``game`` (UPP learns from one of
    its decisions to the next within a game)."""
    key = f"{game}/{name}"
    if key not in _CHILD.players:
        if len(_CHILD.players) > 8:  # old games: drop them
            _CHILD.players.clear()
        _CHILD.players[key] = make_player(name, variant)
    return _CHILD.players[key]


def warm_in_child(name: str, variant: str, game: str) -> None:
    """Make ``name``'s player for ``game`` now, so that what it loads or compiles (the compiled engine: seconds the
    first time, under one from the cache) is done before its first decision is asked for."""
    _player(name, variant, game)


def warm(process: SearchProcess, name: str, variant: str, game: str) -> Future[None]:
    """Start warming ``name``'s player in ``process`` and return at once (the future tells when it is ready); a
    failure here is left for the first real request to report."""
    future: Future[None] = process.submit(warm_in_child, name, variant, game)
    future.add_done_callback(lambda done: done.cancelled() or done.exception())
    return future


def choose_in_child(name: str, game: str, view: GeisterView, seconds: float, seed: int) -> Setup | Move:
    """The opponent's move: ``name``'s player for ``game`` (kept between its turns) with ``seconds`` to think."""
    player = _player(name, view.variant.name, game)
    action: Setup | Move = player.choose(view, random.Random(seed), Limit(time=seconds))
    return action


def advise_in_child(name: str, game: str, view: GeisterView, slice_seconds: float, budget: float) -> Advice | None:
    """Advance the advice search for ``view`` by ``slice_seconds`` and return its latest advice (``solvers.advice``).

    ``name`` is an alpha-beta player (``solvers.geister.purple``'s reports: the catalogue's strongest Geister player).
    The same position continues the running search; another position starts a new one (with ``budget`` seconds in
    all). Returns ``None`` when there is nothing to advise (not the viewer's turn).
    """
    from solvers.advice.geister import advise
    from solvers.advice.geister_endgame import exact_advice, with_tables
    from solvers.geister.tablebase import judge

    if not view.my_turn:
        return None
    key = (game, view.position(), len(view.moves))
    if _CHILD.search_key != key:
        _CHILD.judgement = judge(view)  # the endgame tables, where they cover the position
    if _CHILD.judgement is not None and _CHILD.judgement.here is not None:
        _CHILD.search_key, _CHILD.search = key, None
        return exact_advice(view, _CHILD.judgement)  # the endgame tables know the result: no search can add to it
    if _CHILD.search_key != key or _CHILD.search is None:
        player = _player(name, view.variant.name, game + "/advice")
        # The advice lists every move's value (exact ones, not bounds), and reports every slice, even inside a deep
        # iteration.
        limit = Limit(time=budget, slice_seconds=slice_seconds, exact=True)
        _CHILD.search = iter(player.analyse(view, limit, random.Random(len(view.moves))))
        _CHILD.search_key = key
        _CHILD.latest = None
    deadline = time.monotonic() + slice_seconds
    for report in _CHILD.search:
        _CHILD.latest = report
        if report.final or time.monotonic() >= deadline:
            break
    if _CHILD.latest is None:
        return None
    advice = advise(view, _CHILD.latest, f"{name}, depth {_CHILD.latest.depth}")
    return advice if _CHILD.judgement is None else with_tables(advice, _CHILD.judgement)


# ---------------------------------------------------------------------------------------------- in the app


class RemotePlayer:
    """A search player that thinks in a ``SearchProcess``: what the game session holds as its opponent."""

    def __init__(self, name: str, seconds: float, process: SearchProcess, game: str, variant: str) -> None:
        self.name = name
        self.seconds = seconds
        self.process = process
        self.game = game
        #: What the last ``choose`` has to tell besides its choice ("" mostly): its process was restarted.
        self.news = ""
        warm(process, name, variant, game)

    def choose(self, view: GeisterView, rng: random.Random, limit: Limit | None = None) -> Setup | Move:
        """The player's choice; ``ProcessStoppedError`` for a move when its process died twice in a row (a set-up is
        then drawn at random instead, so that a new game can start: nothing else is at stake before the first move)."""
        # The set-up too is the real player's (bayes guards its set-up; a random one would give that away).
        seconds = limit.time if limit is not None and limit.time else self.seconds
        seed = rng.randrange(2**31)
        self.news = ""
        try:
            action: Setup | Move = self.process.call(
                seconds * 4 + 30, choose_in_child, self.name, self.game, view, seconds, seed
            )
        except ProcessStoppedError as error:
            if view.phase != "setup":
                raise
            self.news = f"{self.name}'s set-up was drawn at random: {error}"
            return RandomPlayer().choose(view, rng)
        if self.process.take_restarted():
            self.news = f"{self.name}'s process stopped; it was restarted"
        return action


# ---------------------------------------------------------------------------------------------- reviews


def _write_progress(path: str, done: int, total: int) -> None:
    """Say how far a review is, in one write the app never reads half of."""
    partial = f"{path}.part"
    Path(partial).write_text(f"{done} {total}")
    os.replace(partial, path)


def review_in_child(record_text: str, depth: int | None, seconds: float | None, folder: str) -> Review:
    """Run in a review's process (``tui.screens.review``): the review of the record (``solvers.review``), its
    progress in ``folder/progress``, stopped when ``folder/stop`` appears (files: the process shares no memory with
    the app, and a file is all either side needs)."""
    from core.record import Record
    from solvers.review.records import review_record

    return review_record(
        Record.parse(record_text),
        time=seconds,
        depth=depth,
        progress=functools.partial(_write_progress, os.path.join(folder, "progress")),
        should_stop=functools.partial(os.path.exists, os.path.join(folder, "stop")),
    )
