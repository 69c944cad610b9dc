"""Every arena game, kept in a SQLite database in the state folder (``results.sqlite``): what ``nashplay ladder``
rates.

One row a game: the match it belongs to (when it began, where it was played), the game and its parameters, both
players with the budget the thinking ones had, the game's seed and the match's, the sides and who moved first, the
result (A's score, the winner), how it ended, its length, the record's path when the match saved records, and when
it finished. Each game is its own transaction, in write-ahead-log mode: a crash or Ctrl-C loses at most the game
being written, and a reader (the ladder) never waits for a match under way.

A database that cannot be opened or written (damaged, locked for longer than ``BUSY_SECONDS``, a folder that cannot
be written) raises ``ResultsStoreError`` with one line that says so: the arena says it and plays on without storing
(its output is never lost for the store), the ladder says it and stops.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tui.storage import state_dir

__all__ = ["BUSY_SECONDS", "ResultsStore", "ResultsStoreError", "StoredGame", "player_label", "store_path"]

#: How long a write waits for another process's (another match finishing a game at the same moment).
BUSY_SECONDS = 5.0
#: The schema's version (``PRAGMA user_version``): a database of another version is not written over.
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    player_a TEXT NOT NULL,
    player_b TEXT NOT NULL,
    budget TEXT NOT NULL,
    seed INTEGER NOT NULL,
    games_asked INTEGER NOT NULL,
    played_on TEXT NOT NULL,
    sprt TEXT
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    game_number INTEGER NOT NULL,
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    player_a TEXT NOT NULL,
    player_b TEXT NOT NULL,
    budget TEXT NOT NULL,
    seed INTEGER NOT NULL,
    a_side INTEGER NOT NULL,
    first INTEGER NOT NULL,
    winner TEXT,
    score_a REAL NOT NULL,
    reason TEXT NOT NULL,
    ending TEXT NOT NULL,
    length INTEGER NOT NULL,
    record_path TEXT,
    finished TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_game ON games(game);
"""


class ResultsStoreError(RuntimeError):
    """The results database cannot be read or written; the message is one line."""


def store_path() -> Path:
    return state_dir() / "results.sqlite"


def player_label(name: str, budget: str) -> str:
    """How the ladder names a player: with its budget when it takes one (``upp@1000 playouts``), since a budget
    makes another player; a player that answers at once (``random``) by its name alone."""
    return f"{name}@{budget}" if budget else name


@dataclass(frozen=True)
class StoredGame:
    """One stored game, as the ladder reads it: the players (labels with their budgets) and A's score in [0, 1]."""

    game: str
    player_a: str
    player_b: str
    #: ``"a"``, ``"b"`` or ``None`` for a draw.
    winner: str | None
    #: A's payoff mapped onto [0, 1]: 1 a win, 1/2 a draw, 0 a loss (points in between).
    share_a: float


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _one_line(error: BaseException) -> str:
    words = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return words[:200]


class ResultsStore:
    """The results database, opened (and made, with its folder, when missing) at ``path``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else store_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.connection = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise ResultsStoreError(f"cannot open the results database {self.path}: {_one_line(error)}") from None
        try:
            version = self.connection.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise ResultsStoreError(
                    f"the results database {self.path} is of another version ({version}): move it away to start "
                    "a new one"
                )
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.executescript(SCHEMA)
            self.connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as error:
            self.connection.close()
            raise ResultsStoreError(
                f"the results database {self.path} is damaged or locked ({_one_line(error)}): move it away to start "
                "a new one"
            ) from None

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, sql: str, values: tuple[Any, ...]) -> int:
        try:
            with self.connection:  # a transaction: the row is stored whole or not at all
                self.connection.execute("BEGIN IMMEDIATE")
                cursor = self.connection.execute(sql, values)
                row_id = cursor.lastrowid
        except sqlite3.Error as error:
            raise ResultsStoreError(f"cannot write the results database {self.path}: {_one_line(error)}") from None
        assert row_id is not None
        return row_id

    def begin_match(
        self,
        game: str,
        params: dict[str, Any],
        players: tuple[str, str],
        budget: str,
        seed: int,
        games: int,
        played_on: str,
    ) -> int:
        """Store a match as it begins; its id, for its games."""
        return self._write(
            "INSERT INTO matches (started, game, params, player_a, player_b, budget, seed, games_asked, played_on) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (_now(), game, json.dumps(params, sort_keys=True), *players, budget, seed, games, played_on),
        )

    def end_match(self, match_id: int, sprt: dict[str, Any] | None) -> None:
        """Store what the match's SPRT concluded (when it ran one)."""
        if sprt is not None:
            self._write("UPDATE matches SET sprt = ? WHERE id = ?", (json.dumps(sprt), match_id))

    def add_game(
        self,
        match_id: int,
        number: int,
        game: str,
        params: dict[str, Any],
        players: tuple[str, str],
        budgets: tuple[str, str],
        seed: int,
        a_side: int,
        first: int,
        winner: str | None,
        score_a: float,
        reason: str,
        ending: str,
        length: int,
        record_path: str | None,
    ) -> None:
        """Store one finished game (``players``: labels with their budgets, ``player_label``)."""
        self._write(
            "INSERT INTO games (match_id, game_number, game, params, player_a, player_b, budget, seed, a_side, first, "
            "winner, score_a, reason, ending, length, record_path, finished) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                number,
                game,
                json.dumps(params, sort_keys=True),
                *players,
                json.dumps(list(budgets)),
                seed,
                a_side,
                first,
                winner,
                score_a,
                reason,
                ending,
                length,
                record_path,
                _now(),
            ),
        )

    def games(self, game: str | None = None) -> Iterator[StoredGame]:
        """The stored games (of ``game`` only, when given), with A's score mapped onto [0, 1] by the game's largest
        payoff."""
        from core.games import GAME_TYPES

        sql = "SELECT game, player_a, player_b, winner, score_a FROM games"
        try:
            rows = self.connection.execute(
                sql + (" WHERE game = ?" if game is not None else "") + " ORDER BY id", (game,) if game else ()
            ).fetchall()
        except sqlite3.Error as error:
            raise ResultsStoreError(
                f"cannot read the results database {self.path} ({_one_line(error)}): move it away to start a new one"
            ) from None
        for name, player_a, player_b, winner, score_a in rows:
            kind = GAME_TYPES.get(name)
            if kind is None:
                continue  # a game this version does not know
            bound = kind.max_payoff
            yield StoredGame(name, player_a, player_b, winner, min(1.0, max(0.0, (score_a + bound) / (2 * bound))))
