"""Search processes that die are replaced: a ``kill -9`` of the opponents' or the advice's worker process, then play
goes on. The user's move is saved first, the work that failed is asked of a fresh process (the AI's move, the
advice's search) and the screen says the process was restarted; a new game (``n``, then ``ctrl+s``) starts. A process
that dies again as soon as it is restarted is said in one line, and the game still goes on: move, save, quit.

The other workers are killed too: a review's process (said in one line; ``r`` reviews again), Footstep's learning
process (the learner starts untrained and the game goes on; the learning curves' ``r`` runs again) and an arena's
worker (the games not finished are played in a fresh pool with the same seeds; a game that kills its worker every
time stops the match in one line, with the games so far).

The AIs search with a small budget; nothing here depends on how deep they get. Waits are on the app (a move
answered, a panel drawn, a killed process reaped), never on the clock.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import run, wait_for
from textual.pilot import Pilot

from core.game import Side
from core.notation import Move
from tui.app import NashplayApp, StartRequest
from tui.config import GeisterConfig
from tui.saves import SaveStore
from tui.screens.game import GameScreen
from tui.search_process import SearchProcess, advice_process, shared_process
from tui.widgets.advice import AdvicePanel

SIZE = (120, 40)
#: A search opponent (alpha-beta, in the opponents' process) with a small thinking time.
OPPONENT = "purple"


@pytest.fixture(autouse=True)
def small_advice_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The advice's search finishes (its budget is small), so that it does not keep a core busy for the rest."""
    monkeypatch.setattr(GameScreen, "ADVICE_BUDGET", 0.3)
    monkeypatch.setattr(GameScreen, "ADVICE_SLICE", 0.1)


def start_app() -> NashplayApp:
    config = GeisterConfig("geister", Side.P1, OPPONENT, "BRRBBRRB", 3, think_time=0.05)
    return NashplayApp(StartRequest.for_config(config), ai_delay=0)


def game_screen(app: NashplayApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), screen
    return screen


def saved_moves(state_dir: Path) -> list[str]:
    """The moves of the game in progress, as its save slot holds them."""
    [slot] = sorted((state_dir / "games").glob("*.ngr"))
    return [move.text for move in SaveStore(state_dir).slot(slot.stem).load().moves]


def advice_text(app: NashplayApp) -> str:
    return str(app.screen.query_one("#search-advice", AdvicePanel).render())


async def kill_worker(pilot: Pilot[None], process: SearchProcess) -> None:
    """``kill -9`` of ``process``'s worker, then wait until the pool has seen it die (the worker reaped)."""
    pid = await asyncio.wrap_future(process.submit(os.getpid))
    os.kill(pid, signal.SIGKILL)
    await wait_for(pilot, lambda: not Path(f"/proc/{pid}").exists(), "the killed worker reaped by its pool")


async def play_and_get_answer(app: NashplayApp, pilot: Pilot[None], move: str) -> None:
    """Type ``move``; wait until the opponent answered, or the screen said it failed (then the test fails here)."""
    screen = game_screen(app)
    played = len(screen.session.state.moves())
    await pilot.press("colon", *move, "enter")

    def answered_or_failed() -> bool:
        over = not app.is_running  # it crashed: said at once rather than at the ceiling
        return over or len(screen.session.state.moves()) >= played + 2 or "failed" in screen.message_text

    await wait_for(pilot, answered_or_failed, "the opponent's answer")
    assert app.is_running
    assert len(screen.session.state.moves()) == played + 2, screen.message_text


async def advice_comes_back(app: NashplayApp, pilot: Pilot[None]) -> None:
    await wait_for(
        pilot, lambda: "Suggested:" in advice_text(app) or "failed" in advice_text(app), "the advice's suggestion"
    )
    assert "Suggested:" in advice_text(app), advice_text(app)


async def new_game(app: NashplayApp, pilot: Pilot[None]) -> GameScreen:
    """``n`` (the set-up screen), then ``ctrl+s`` (start): a new game against the same opponent."""
    old = game_screen(app)
    await pilot.press("n")
    await wait_for(pilot, lambda: app.screen is not old and app.screen.is_mounted, "the set-up screen")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.is_mounted, "the new game")
    assert app.is_running
    return game_screen(app)


def test_the_opponents_worker_killed_is_replaced(state_dir: Path) -> None:
    """A killed opponent's worker once made every later AI move fail, and ``n`` then ``ctrl+s`` crashed the app."""

    async def test() -> None:
        app = start_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await kill_worker(pilot, shared_process())
            await play_and_get_answer(app, pilot, "b2-b3")
            assert saved_moves(state_dir)[0] == "b2-b3"
            assert f"{OPPONENT}'s process stopped; it was restarted" in game_screen(app).message_text
            await play_and_get_answer(app, pilot, "e2-e3")  # and on: the fresh process goes on answering
            await pilot.press("a")
            await advice_comes_back(app, pilot)
            await kill_worker(pilot, shared_process())  # a new game's opponent sets up in the replaced process
            screen = await new_game(app, pilot)
            assert screen.session.opponent.name == OPPONENT
            assert f"{OPPONENT}'s process stopped; it was restarted" in screen.message_text
            await play_and_get_answer(app, pilot, "b2-b3")
        assert app.return_code in (0, None)

    run(test)


def test_the_advices_worker_killed_is_replaced(state_dir: Path) -> None:
    """A killed advice worker once raised ``BrokenProcessPool`` from the move's refresh, before the save: the app
    crashed and the move was lost."""

    async def test() -> None:
        app = start_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("a")
            await advice_comes_back(app, pilot)
            await kill_worker(pilot, advice_process())
            await play_and_get_answer(app, pilot, "b2-b3")
            assert saved_moves(state_dir)[0] == "b2-b3"
            await advice_comes_back(app, pilot)
            assert "The advice's process stopped; it was restarted" in advice_text(app)
            await kill_worker(pilot, advice_process())
            screen = await new_game(app, pilot)
            await advice_comes_back(app, pilot)
            assert "The advice's process stopped; it was restarted" in advice_text(app)
            await play_and_get_answer(app, pilot, "b2-b3")
            assert screen.session.state.moves()[0] == Move.parse("b2-b3")
        assert app.return_code in (0, None)

    run(test)


def dying(monkeypatch: pytest.MonkeyPatch, work: str) -> None:
    """From now on the process asked for ``work`` (a function's name) dies at once, every time it is started."""
    real_submit = SearchProcess.submit

    def submit(process: SearchProcess, fn: Any, *args: Any) -> Any:
        if getattr(fn, "__name__", "") == work:
            return real_submit(process, os._exit, 9)
        return real_submit(process, fn, *args)

    monkeypatch.setattr(SearchProcess, "submit", submit)


def test_an_opponents_process_that_dies_again_is_said_and_the_game_goes_on(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def test() -> None:
        app = start_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = game_screen(app)
            dying(monkeypatch, "choose_in_child")
            await pilot.press("colon", *"b2-b3", "enter")
            await wait_for(pilot, lambda: "failed" in screen.message_text, "the opponent's failure said")
            said = screen.message_text
            assert "its process stopped, and again when it was restarted" in said and "\n" not in said, said
            assert "Error" not in said  # no exception's name: plain words
            assert saved_moves(state_dir) == ["b2-b3"]
            await pilot.press("s", "enter")  # save a record: the path proposed
            await wait_for(pilot, lambda: screen.message_text.startswith("Saved to"), "the record saved")
            monkeypatch.undo()  # the process works again: a takeback and the move again, and the AI answers
            await pilot.press("u")
            await play_and_get_answer(app, pilot, "b2-b3")
            await pilot.press("q")
        assert app.return_code == 0

    run(test)


def test_an_advice_process_that_dies_again_is_said_and_the_game_goes_on(
    state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def test() -> None:
        app = start_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            dying(monkeypatch, "advise_in_child")
            await pilot.press("a")
            stopped = "The advice's process stopped, and again when it was restarted"
            await wait_for(pilot, lambda: stopped in advice_text(app), "the advice's failure said")
            assert "Error" not in advice_text(app)
            await play_and_get_answer(app, pilot, "b2-b3")
            assert saved_moves(state_dir) == [move.to_text() for move in game_screen(app).session.state.moves()]
            await pilot.press("q")
        assert app.return_code == 0

    run(test)


def test_work_that_kills_its_process_twice_is_refused_and_the_next_work_runs() -> None:
    from tui.search_process import ProcessStoppedError

    process = SearchProcess()
    try:
        with pytest.raises(ProcessStoppedError):
            process.call(300, os._exit, 9)
        assert process.take_restarted()
        assert isinstance(process.call(300, os.getpid), int)  # the next request: a process of its own
    finally:
        process.shutdown()


def test_a_watched_ais_process_killed_is_replaced_and_one_that_dies_again_pauses_the_watch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.screens.watch import WatchScreen

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            watch = WatchScreen("geister", (OPPONENT, "chototsu"), (0.05, 0.05), seed=5)
            watch.paused = True  # stepped by hand: purple (player 1) is to choose at every other step
            app.push_screen(watch)

            def status() -> str:
                return str(watch.query_one("#status").render())

            def done() -> int:
                """Set-ups and moves made."""
                return len(watch.state.history())

            async def step() -> None:
                """One more set-up or move, or its failure said."""
                before = done()
                await pilot.press("right")
                await wait_for(pilot, lambda: done() > before or "failed" in status(), "one step")

            await wait_for(pilot, lambda: done() == 1, "purple's set-up")
            await step()  # chototsu's set-up
            await kill_worker(pilot, shared_process())
            await step()  # purple's first move, asked of a fresh process
            assert len(watch.state.moves()) == 1, status()
            assert f"Ply 1: {OPPONENT}'s process stopped; it was restarted" in status()
            await step()  # chototsu
            dying(monkeypatch, "choose_in_child")
            await step()
            assert f"{OPPONENT} failed: its process stopped, and again when it was restarted" in status()
            assert len(watch.state.moves()) == 2 and watch.paused
            monkeypatch.undo()
            await step()  # asked again: the watch goes on
            assert len(watch.state.moves()) == 3, status()

    run(test)


# ------------------------------------------------------------------------------------------------ the review's process


def test_a_reviews_process_killed_is_said_in_one_line_and_r_reviews_again() -> None:
    """A killed review process once ended the review with the pool's exception as its words ("BrokenProcessPool: A
    process in the process pool was terminated abruptly ..."). Now the screen says in plain words that the process
    stopped, and ``r`` reviews the record again in a fresh process, to the end."""
    from screen_text import screen_text
    from test_record_viewer import geister_record

    from tui.screens.review import ReviewScreen

    # Geister 6x6: its review searches (Mini-Geister's reads exact tables and could end before the kill lands).
    record = geister_record("geister", plies=8, seed=1)

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            # A depth no test could wait for (a 6x6 search 60 plies deep): the review is still judging its first move
            # when its process is killed, however fast or loaded the machine.
            screen = ReviewScreen(record, "Replay: test", depth=60)
            assert screen._process is not None
            pid = await asyncio.wrap_future(screen._process.submit(os.getpid))  # the worker the review runs in
            await app.push_screen(screen)
            await wait_for(pilot, lambda: screen.progress[1] == len(record.moves), "the review's start")
            os.kill(pid, signal.SIGKILL)
            await wait_for(pilot, lambda: screen.phase != "running", "the review's end")
            assert screen.phase == "failed" and app.is_running
            said = " ".join(str(screen.query_one("#review-progress").render()).split())
            assert "the review's process stopped" in screen.problem and "Error" not in screen.problem, screen.problem
            assert "the review's process stopped" in said and "r: again" in said, said
            assert "Error" not in said and "Broken" not in said and "\n" not in said  # plain words, one line
            await wait_for(pilot, lambda: "r Again" in screen_text(app).splitlines()[-1], "the footer's r")
            screen.depth = 1  # the review again, at a depth the test waits for
            await pilot.press("r")
            await wait_for(pilot, lambda: screen.phase != "running", "the review again")
            assert screen.phase == "done", screen.problem
            assert screen.review is not None and len(screen.review.moves) == len(record.moves)
            await pilot.press("escape")
        assert app.return_code in (0, None)

    run(test)


# ------------------------------------------------------------------------------------------------ Footstep's learner

#: A Footstep game against the learner, two rounds in: resuming it trains the learner again, in a process of its own.
LEARNER_GAME = '[Game "footstep"]\n[N "6"]\n[K "2"]\n[Start "6,6,0"]\n[Opponent "learner"]\n\n1. 1:1 2. 2:1 *\n'


def child_running(module: str) -> int | None:
    """The pid of a child of this process running ``python -m module``, if one is running."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        if ppid == os.getpid() and module.encode() in command:
            return int(entry.name)
    return None


async def kill_child(pilot: Pilot[None], module: str) -> None:
    """``kill -9`` of the child running ``module`` once it has started, then wait until it is reaped."""
    pid: int | None = None

    def started() -> bool:
        nonlocal pid
        pid = child_running(module)
        return pid is not None

    await wait_for(pilot, started, f"{module}'s process")
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    await wait_for(pilot, lambda: not Path(f"/proc/{pid}").exists(), f"{module}'s killed process reaped")


@pytest.fixture
def endless_learning(monkeypatch: pytest.MonkeyPatch) -> None:
    """The learner's training and the experiment's runs go on until they are killed (a million games each)."""
    import dataclasses

    from solvers import footstep_learning
    from tui.screens import footstep_learning as experiment

    training = dataclasses.replace(footstep_learning.LEARNER_TRAINING, games=1_000_000)
    monkeypatch.setattr(footstep_learning, "LEARNER_TRAINING", training)
    monkeypatch.setattr(experiment, "APP_GAMES", 1_000_000)
    monkeypatch.setattr(experiment, "APP_RUNS", 1)


@pytest.mark.usefixtures("endless_learning")
def test_footsteps_learner_killed_in_training_starts_untrained_and_the_game_goes_on(state_dir: Path) -> None:
    """A killed training once left the game waiting for a learner that never came ("A moment: still getting ready"
    for ever; the message named the exception). Now the learner starts untrained (it bids at random, and learns from
    the games it finishes), the screen says so in one line, and the resumed game goes on from its rounds."""
    from core.record import Record
    from tui.screens.footstep import FootstepScreen

    slot = SaveStore(state_dir).new_slot()
    slot.save(Record.parse(LEARNER_GAME), {})
    slot.release()

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.resume_game(slot.id)
            await wait_for(pilot, lambda: isinstance(app.screen, FootstepScreen), "the resumed game")
            screen = app.screen
            assert isinstance(screen, FootstepScreen) and screen.state.history() == [(1, 1), (2, 1)]
            await kill_child(pilot, "solvers.footstep_learning")
            await wait_for(
                pilot, lambda: screen.learner is not None or "failed" in screen.message_text, "the learner, or a word"
            )
            said = screen.message_text
            assert screen.learner is not None, said
            assert "The learner's training stopped" in said and "untrained" in said, said
            assert "Error" not in said and "\n" not in said
            await wait_for(pilot, lambda: screen.solution is not None, "the game solved")
            await pilot.press("1", "enter")  # the user's bid: the game goes on against the untrained learner
            assert len(screen.state.history()) == 3 and screen.state.history()[:2] == [(1, 1), (2, 1)]
            saved = SaveStore(state_dir).slot(slot.id).load()
            assert [move.text for move in saved.moves][:2] == ["1:1", "2:1"] and len(saved.moves) == 3
            await pilot.press("q")
        assert app.return_code == 0

    run(test)


@pytest.mark.usefixtures("endless_learning")
def test_footsteps_experiment_killed_is_said_in_one_line_and_r_runs_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The learning curves' screen: a killed run said the exception's name ("RuntimeError: the learning process
    failed (-9): no message"); now plain words, and ``r`` runs the experiment again, to the end."""
    from textual.widgets import Static

    from tui.screens import footstep_learning as experiment
    from tui.screens.footstep_learning import FootstepLearningScreen

    async def test() -> None:
        app = NashplayApp(ai_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = FootstepLearningScreen(6, 2)
            await app.push_screen(screen)

            def status() -> str:
                return str(screen.query_one("#learn-status", Static).render())

            await kill_child(pilot, "solvers.footstep_learning")
            await wait_for(pilot, lambda: "stopped" in status() or "failed" in status(), "the run's end said")
            said = status()
            assert "The experiment stopped: the learning process was killed" in said and "r: run again" in said, said
            assert "Error" not in said and "\n" not in said
            monkeypatch.setattr(experiment, "APP_GAMES", 200)  # the run again, short enough to wait for
            await pilot.press("r")
            await wait_for(pilot, lambda: len(screen.curves) == 3, "the three learning curves")
            assert "All learners done" in status()
            await pilot.press("escape")

    run(test)


# ------------------------------------------------------------------------------------------------ the arena's workers

#: The folder where a held game says it started (a file named after its worker's pid), given to the workers.
HOLD = "NASHPLAY_TEST_ARENA_HOLD"


def _real_play_game() -> Any:
    from solvers import arena

    return arena.play_game


REAL_PLAY_GAME = _real_play_game()


def first_game_held(spec: Any) -> Any:
    """In an arena's worker, instead of ``play_game``: game 1 says it started and waits there for its worker to be
    killed; the other games are played as always."""
    import threading

    if spec.index == 0:
        (Path(os.environ[HOLD]) / str(os.getpid())).touch()
        threading.Event().wait(600)  # killed long before
    return REAL_PLAY_GAME(spec)


def first_game_kills_its_worker(spec: Any) -> Any:
    """In an arena's worker, instead of ``play_game``: game 1 ends its worker at once, every time it is tried."""
    if spec.index == 0:
        os._exit(9)
    return REAL_PLAY_GAME(spec)


def arena_command(*arguments: str) -> tuple[int, str, str, Any]:
    """``nashplay arena`` with ``arguments``, in this process: its exit status (1 from an exception that came out of
    it: a traceback), its output and its error output; and the exception."""
    import argparse
    import contextlib
    import io
    import traceback

    from tui.cli import arena as arena_cli

    parser = argparse.ArgumentParser(prog="nashplay")
    arena_cli.add_command(parser.add_subparsers(dest="command"))
    out, err = io.StringIO(), io.StringIO()
    raised = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = arena_cli.run(parser.parse_args(["arena", *arguments]), parser)
        except Exception as error:
            traceback.print_exc()
            status, raised = 1, error
    return status, out.getvalue(), err.getvalue(), raised


MATCH = ("geister", "--players", "random,chototsu", "--games", "6", "--workers", "2", "--seed", "4", "--json")


def test_an_arena_worker_killed_mid_game_is_said_and_its_games_are_played_again_with_the_same_seeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker killed in the middle of a match once ended ``nashplay arena`` with a ``BrokenProcessPool``
    traceback. Now it says so in one line and plays the games left unfinished in fresh processes, with their seeds:
    the match's result is the one a match without the kill gives."""
    import json
    import threading

    from waiting import wait_until

    from solvers import arena
    from solvers.players import Limit

    hold = tmp_path / "hold"
    hold.mkdir()
    monkeypatch.setenv(HOLD, str(hold))
    monkeypatch.setattr(arena, "play_game", first_game_held)
    killed: list[int] = []

    def kill_the_held_worker() -> None:
        wait_until(lambda: any(hold.iterdir()), "game 1 started in a worker")
        [started] = hold.iterdir()
        killed.append(int(started.name))
        monkeypatch.setattr(arena, "play_game", REAL_PLAY_GAME)  # the fresh pool plays every game as always
        os.kill(killed[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_the_held_worker, daemon=True)
    killer.start()
    status, out, err, raised = arena_command(*MATCH)
    killer.join()
    assert killed and status == 0 and raised is None, err
    assert "Traceback" not in err
    [said] = err.splitlines()
    assert said.startswith("nashplay arena: a worker process stopped") and "same seeds" in said, said
    expected = arena.run_match("geister", ("random", "chototsu"), 6, Limit(time=0.25), workers=1, seed=4)
    assert json.loads(out) == expected.to_json()


def test_an_arena_game_that_kills_its_worker_every_time_stops_the_match_with_the_games_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game whose worker dies each time it is tried (out of memory, say) is not tried for ever: the match stops,
    says so in one line, and reports the games finished (none, here, or a few)."""
    import json

    from solvers import arena

    monkeypatch.setattr(arena, "play_game", first_game_kills_its_worker)
    monkeypatch.setattr(arena, "MAX_TRIES", 1)  # the first try is the last: one pool to start, not three
    status, out, err, raised = arena_command(*MATCH)
    assert raised is None and "Traceback" not in err, err
    assert status == 1
    [said] = err.splitlines()
    assert said.startswith("nashplay arena: stopped after") and "before game 1 could finish" in said, said
    games = json.loads(out)["games"] if out else 0
    assert games < 6 and f"stopped after {games} of 6 games" in said
