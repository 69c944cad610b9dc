"""The solved-table cache: any failure to read a table means rebuilding it; a cache folder that cannot be used
means solving without it, said in the table's source."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

from solvers.cache import load_or_build, table_path
from tui.cli import main

PARAMS = {"n": 3}


def build() -> dict[str, np.ndarray]:
    return {"values": np.arange(1000, dtype=np.int16)}


def cached_path() -> Path:
    loaded = load_or_build("test-table", PARAMS, build)
    assert loaded.source == "built" and loaded.path.is_file()
    assert load_or_build("test-table", PARAMS, build).source == "cache"
    return loaded.path


def npy_with_shape(shape: tuple[int, ...], payload: bytes) -> bytes:
    """An .npy member whose header claims ``shape`` whatever bytes follow."""
    stream = io.BytesIO()
    np.lib.format.write_array_header_1_0(stream, {"descr": "<i2", "fortran_order": False, "shape": shape})
    return stream.getvalue() + payload


def test_a_header_claiming_a_huge_shape_is_rebuilt_not_allocated() -> None:
    path = cached_path()
    with zipfile.ZipFile(path, "w") as archive:  # the damaged file: stored members, as np.savez writes
        archive.writestr("values.npy", npy_with_shape((99_999_999_999,), b"\0" * 64))
        archive.writestr("__meta__.npy", npy_with_shape((4,), b"\0" * 8))
    loaded = load_or_build("test-table", PARAMS, build)
    assert loaded.source.startswith("rebuilt:") and "claims" in loaded.source
    assert np.array_equal(loaded.arrays["values"], build()["values"])
    assert load_or_build("test-table", PARAMS, build).source == "cache"  # the damaged file was replaced


def test_a_flipped_compression_byte_is_rebuilt() -> None:
    """One flipped byte in the central directory's compression method made ``zipfile`` raise
    NotImplementedError, and every later solve failed the same way."""
    path = cached_path()
    data = bytearray(path.read_bytes())
    central = data.find(b"PK\x01\x02")
    struct.pack_into("<H", data, central + 10, 99)  # compression method 99: unknown
    path.write_bytes(bytes(data))
    loaded = load_or_build("test-table", PARAMS, build)
    assert loaded.source.startswith("rebuilt:")
    assert load_or_build("test-table", PARAMS, build).source == "cache"


@pytest.mark.parametrize("damage", [b"", b"PK\x03\x04" + b"\xff" * 100, b"not a zip at all"])
def test_truncated_or_foreign_files_are_rebuilt(damage: bytes) -> None:
    path = cached_path()
    path.write_bytes(damage)
    assert load_or_build("test-table", PARAMS, build).source.startswith("rebuilt:")
    assert load_or_build("test-table", PARAMS, build).source == "cache"


def test_a_cache_folder_that_cannot_be_used_solves_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cache "folder" is under a file, so it can neither be read nor written (even by root)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("NASHPLAY_CACHE_DIR", str(blocker / "cache"))
    loaded = load_or_build("test-table", PARAMS, build)
    assert "not cached" in loaded.source and not table_path("test-table", PARAMS, 1).exists()
    assert main(["solve", "tcg", "--n", "3"]) == 0
    assert "not cached" in capsys.readouterr().out
