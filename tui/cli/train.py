"""``nashplay train geister``: play a corpus of games between every style, learn the belief and the value model from
it, and write them where the players read them (the ``train`` extra: ``pip install -e '.[train]'``)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tui.cli.common import plural, seed_number, whole_number

#: Games in a corpus: about 10 a second on two cores at the corpus's depths and playouts.
MAX_GAMES = 200_000
MAX_WORKERS = 64


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    train = commands.add_parser(
        "train",
        help="re-train the Geister belief and value models from a corpus of games (needs the train extra)",
        description="Plays a corpus of Geister games between every player and style of the catalogue (fixed depths "
        "and playouts, so the same seed gives the same games on any machine), learns from it the belief about "
        "colours (a choice model per style, mixed) and the value model (a position's chance to win), and writes "
        "both where the players read them. The style given by --hold-out never enters training, so the benchmarks "
        "can measure the models on it. Says how long each step took.",
    )
    train.add_argument("game", choices=["geister"], help="the game (geister)")
    train.add_argument(
        "--games", type=whole_number(12, MAX_GAMES), default=8640, help="games in the corpus (default 8640)"
    )
    train.add_argument("--seed", type=seed_number, default=1, help="the corpus's seed (default 1)")
    train.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="the corpus's folder (default: corpus-SEED in the cache folder); games already there are kept",
    )
    train.add_argument(
        "--hold-out",
        default="feeder",
        help="players whose games stay out of training, comma-separated (default feeder; 'none' for none)",
    )
    train.add_argument(
        "--workers", type=whole_number(1, MAX_WORKERS), default=2, help="processes playing the corpus (default 2)"
    )
    train.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the corpus on a Ray cluster instead of --workers (auto, HOST:PORT or ray://HOST:PORT; the cluster "
        "extra, and nashplay on every machine): the same games",
    )
    train.add_argument(
        "--out", type=Path, default=None, help="where to write the models (default: the package's models folder)"
    )
    train.add_argument("--json", action="store_true", help="one JSON object with what was learned and the times")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from solvers.geister.corpus import CORPUS_PLAYERS

    held_out = (
        ()
        if args.hold_out.strip().lower() == "none"
        else tuple(name.strip() for name in args.hold_out.split(",") if name.strip())
    )
    unknown = [name for name in held_out if name not in CORPUS_PLAYERS]
    if unknown:
        parser.exit(
            2,
            f"nashplay train: error: --hold-out names no corpus player: {', '.join(u[:30] for u in unknown)} "
            f"(the players: {', '.join(CORPUS_PLAYERS)})\n",
        )
    try:
        import sklearn  # noqa: F401
    except ImportError:
        parser.exit(1, "nashplay train: the train extra is not installed: pip install -e '.[train]'\n")
    from solvers.cache import cache_dir
    from solvers.geister.learning import train_models

    if args.cluster is not None:
        from solvers.cluster import ClusterUnavailableError, connect

        try:
            connect(args.cluster.strip())  # before any game: an unreachable cluster is said at once
        except ClusterUnavailableError as error:
            parser.exit(1, f"nashplay train: {error}\n")

    corpus = args.corpus if args.corpus is not None else cache_dir() / f"corpus-{args.seed}"
    out = args.out if args.out is not None else Path(__file__).resolve().parents[2] / "solvers" / "geister" / "models"
    tty = sys.stderr.isatty() and not args.json
    started = time.perf_counter()

    def say(message: str) -> None:
        if tty:
            print(f"\r{message:<78}", end="", file=sys.stderr, flush=True)

    try:
        report = train_models(
            corpus,
            out,
            games=args.games,
            seed=args.seed,
            held_out=held_out,
            workers=args.workers,
            say=say,
            cluster=None if args.cluster is None else args.cluster.strip(),
        )
    except KeyboardInterrupt:
        if tty:
            print(file=sys.stderr)
        print(f"nashplay train: stopped; the games played so far stay in {corpus}", file=sys.stderr)
        raise
    if tty:
        print("\r" + " " * 78 + "\r", end="", file=sys.stderr)
    report["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"Corpus: {plural(report['games'], 'game')} in {corpus} ({report['times']['corpus']:.0f} s)")
    print(f"Held out of training: {', '.join(held_out) or 'none'}")
    belief = report["belief"]
    print(
        f"Belief: {len(belief['styles'])} styles from {belief['turns']:,} turns, temper {belief['temper']} "
        f"({report['times']['belief']:.0f} s)"
    )
    value = report["value"]
    print(f"Value model: {value['positions']:,} positions ({report['times']['value']:.0f} s)")
    calibration = value["search_calibration"]
    print(
        f"Search calibration: slope {calibration['slope']:.3f}, shift {calibration['intercept']:+.3f} on "
        f"{calibration['positions']:,} positions ({report['times']['calibration']:.0f} s)"
    )
    print(f"Written: {out / 'belief.json'}, {out / 'value.json'}")
    print(f"Took {report['seconds']:.0f} s in all.")
    return 0
