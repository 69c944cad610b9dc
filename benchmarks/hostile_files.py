"""Damaged and hostile files against every reader of files: saves, records, the secret beside a save, solver caches.

Each input class is generated many times (seeded), handed to the same code the app runs at start-up (read the
save, replay it, check its tags) or that a solve runs (load a cached table), and its outcome counted: read, refused
with a one-line message (a ``NotationError`` for records and saves; a rebuild for caches), or anything else (a
crash: the figure that must be 0). The slowest case and the longest message are reported too.

    python benchmarks/hostile_files.py [--per-class N] [--seed S]

Baseline in the same run: the same readers on undamaged files (they must all be read).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import struct
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from core.errors import NotationError
from core.game import Side
from solvers.cache import load_or_build, table_path
from tui.config import GeisterConfig
from tui.saves import SaveStore
from tui.session import GameSession, resumable


def sound_game(rng: random.Random) -> GameSession:
    return play_sound_game(rng, rng.choice(["mini-geister", "geister"]), 0, 30)


def play_sound_game(rng: random.Random, variant: str, fewest: int, most: int) -> GameSession:
    """A seeded game of ``variant`` against chototsu, from ``fewest`` to ``most - 1`` random moves in (fewer if it
    ends): the sound input every hostile case is set beside."""
    setup = "BR" if variant == "mini-geister" else "BBBBRRRR"
    session = GameSession(GeisterConfig(variant, Side.P1, "chototsu", setup, rng.randrange(10**6)))
    for _ in range(rng.randrange(fewest, most)):
        if session.is_over:
            break
        if session.humans_turn:
            session.play(rng.choice(session.view().legal_moves()))
        else:
            session.apply_opponent(session.choose_opponent_move(session.opponent_view()), session.version)
    return session


# ---- save damage: each takes the sound record text and a generator, and returns the damaged bytes


def digit_bomb(text: str, rng: random.Random) -> bytes:
    lines = [line for line in text.splitlines() if not line.startswith("[Start ")]
    bomb = f'[Start "{"9" * rng.randrange(3, 6000)}/4/4/4 1"]'
    return "\n".join([lines[0], bomb, *lines[1:]]).encode() + b"\n"


def oversized(text: str, rng: random.Random) -> bytes:
    return (text + "b1-b2 " * rng.randrange(170_000, 400_000)).encode()


def huge_word(text: str, rng: random.Random) -> bytes:
    return (text.rstrip("\n*") + " " + "x" * rng.randrange(10_000, 2_000_000) + "\n").encode()


def bom(text: str, rng: random.Random) -> bytes:
    return b"\xef\xbb\xbf" + text.encode()


def not_utf8(text: str, rng: random.Random) -> bytes:
    data = bytearray(text.encode())
    data[rng.randrange(len(data))] = rng.choice([0xFF, 0xFE, 0xC0, 0x80])
    return bytes(data)


def random_bytes(text: str, rng: random.Random) -> bytes:
    return rng.randbytes(rng.randrange(0, 4000))


def truncated(text: str, rng: random.Random) -> bytes:
    return text.encode()[: rng.randrange(len(text))]


def flipped_bytes(text: str, rng: random.Random) -> bytes:
    data = bytearray(text.encode())
    for _ in range(rng.randrange(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(32, 127)
    return bytes(data)


def hostile_tag(text: str, rng: random.Random) -> bytes:
    tag = rng.choice(["ThinkTime", "Seed", "Human", "Opponent", "Setup1", "Game", "Start", "Result"])
    value = rng.choice(["nan", "inf", "-inf", "-1", "1e9", "9" * 5000, "?", "", "0x10", "RRRRRRRR", "BBBB", "3"])
    lines = [line for line in text.splitlines() if not line.startswith(f"[{tag} ")]
    return "\n".join([f'[{tag} "{value}"]', *lines]).encode() + b"\n"


SAVE_DAMAGE: dict[str, Callable[[str, random.Random], bytes]] = {
    "digit bomb in the start position": digit_bomb,
    "oversized move text (1-2.4 MB)": oversized,
    "one huge word (up to 2 MB)": huge_word,
    "byte-order mark": bom,
    "invalid UTF-8 byte": not_utf8,
    "random bytes": random_bytes,
    "truncated record": truncated,
    "flipped bytes": flipped_bytes,
    "hostile tag value": hostile_tag,
}

SECRET_DAMAGE: dict[str, Callable[[random.Random], bytes]] = {
    "secret: random bytes": lambda rng: rng.randbytes(rng.randrange(0, 2000)),
    "secret: nested JSON": lambda rng: b"[" * rng.randrange(1000, 70_000),
    "secret: wrong shape": lambda rng: json.dumps(rng.choice([[1, 2], {"tags": [1]}, {"tags": {"a": 1}}, 5])).encode(),
    "secret: oversized": lambda rng: b" " * 70_000 + b"{}",
}


def run_save(folder: Path, public: bytes, secret: bytes | None) -> tuple[str, str]:
    """What the app does with a save at start; returns (outcome, message)."""
    store = SaveStore(folder)
    slot = store.new_slot()
    slot.folder.mkdir(parents=True, exist_ok=True)
    slot.path.write_bytes(public)
    if secret is not None:
        slot.secret_path.write_bytes(secret)
    try:
        resumable(slot.load())
    except NotationError as error:
        slot.set_aside()
        return "refused", str(error)
    except Exception as error:  # the figure that must stay 0
        return "crash", f"{type(error).__name__}: {error}"[:200]
    finally:
        slot.clear()
    return "read", ""


# ---- cache damage


def cache_damage(path: Path, rng: random.Random) -> str:
    kind = rng.choice(["huge shape", "compression byte", "truncated", "random bytes", "flipped bytes"])
    data = bytearray(path.read_bytes())
    if kind == "huge shape":
        stream = io.BytesIO()
        shape = (rng.randrange(10**9, 10**12),)
        np.lib.format.write_array_header_1_0(stream, {"descr": "<i2", "fortran_order": False, "shape": shape})
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("values.npy", stream.getvalue() + b"\0" * 64)
        return kind
    if kind == "compression byte":
        central = data.find(b"PK\x01\x02")
        struct.pack_into("<H", data, central + 10, rng.randrange(13, 200))
    elif kind == "truncated":
        data = data[: rng.randrange(len(data))]
    elif kind == "random bytes":
        data = bytearray(rng.randbytes(rng.randrange(0, 3000)))
    else:
        for _ in range(rng.randrange(1, 10)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))
    return kind


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=200, choices=range(1, 100_001), metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows: list[dict[str, object]] = []

    def tally(name: str, outcomes: list[tuple[str, str, float]]) -> None:
        counts = {key: sum(1 for o, _, _ in outcomes if o == key) for key in ("read", "refused", "rebuilt", "crash")}
        rows.append(
            {
                "class": name,
                "inputs": len(outcomes),
                **counts,
                "longest_message": max((len(m) for o, m, _ in outcomes if o != "crash"), default=0),
                "slowest_ms": round(max(t for _, _, t in outcomes) * 1000, 1),
                "crashes": [m for o, m, _ in outcomes if o == "crash"][:3],
            }
        )

    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        sounds = [sound_game(rng) for _ in range(20)]
        texts = [s.record(reveal=False).to_text() for s in sounds]
        secrets = [json.dumps({"version": 1, "tags": s.secrets()}).encode() for s in sounds]

        def timed(public: bytes, secret: bytes | None) -> tuple[str, str, float]:
            start = time.perf_counter()
            outcome, message = run_save(folder, public, secret)
            return outcome, message, time.perf_counter() - start

        tally("baseline: sound saves", [timed(t.encode(), s) for t, s in zip(texts, secrets, strict=True)])
        for name, damage in SAVE_DAMAGE.items():
            outcomes = []
            for _ in range(args.per_class):
                index = rng.randrange(len(texts))
                outcomes.append(timed(damage(texts[index], rng), secrets[index]))
            tally(f"save: {name}", outcomes)
        for name, make in SECRET_DAMAGE.items():
            tally(name, [timed(texts[i].encode(), make(rng)) for i in rng.choices(range(len(texts)), k=args.per_class)])

        os.environ["NASHPLAY_CACHE_DIR"] = str(folder / "cache")

        def build() -> dict[str, np.ndarray]:
            return {"values": np.arange(5000, dtype=np.int16)}

        outcomes = []
        for _ in range(args.per_class * 2):
            load_or_build("hostile", {"n": 1}, build)
            kind = cache_damage(table_path("hostile", {"n": 1}, 1), rng)
            start = time.perf_counter()
            try:
                loaded = load_or_build("hostile", {"n": 1}, build)
                ok = np.array_equal(loaded.arrays["values"], build()["values"])
                outcome = ("rebuilt" if loaded.source.startswith("rebuilt") else "read") if ok else "crash"
                outcomes.append((outcome, loaded.source, time.perf_counter() - start))
            except Exception as error:
                outcomes.append(
                    ("crash", f"{kind}: {type(error).__name__}: {error}"[:200], time.perf_counter() - start)
                )
        tally("cache: damaged table", outcomes)

    print(
        f"{'input class':42} {'inputs':>7} {'read':>6} {'refused':>8} {'rebuilt':>8} {'crash':>6} {'msg':>5} {'ms':>7}"
    )
    for row in rows:
        print(
            f"{row['class']:42} {row['inputs']:>7} {row['read']:>6} {row['refused']:>8} {row['rebuilt']:>8} "
            f"{row['crash']:>6} {row['longest_message']:>5} {row['slowest_ms']:>7}"
        )
        for crash in row["crashes"]:  # type: ignore[attr-defined]
            print(f"    crash: {crash}")
    total = sum(int(str(row["inputs"])) for row in rows)
    crashes = sum(int(str(row["crash"])) for row in rows)
    print(f"\n{total:,} inputs, {crashes} crashes (msg: longest message in characters; ms: slowest input)")
    print(json.dumps({"benchmark": "hostile_files", "inputs": total, "crashes": crashes, "classes": rows}))
    return 1 if crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
