"""Solved tables on disk, in the user's cache directory: versioned, checked, rebuilt when missing or corrupt.

A table is a set of named numpy arrays saved as one ``.npz`` (no pickles) together with what it was built from
(name, parameters, format version) and a SHA-256 of every array. Loading checks all of that; anything wrong
(truncated file, edited bytes, an older format, other parameters) means the table is rebuilt and rewritten, and
the caller is told why. Writes go through the one atomic write (``core.record.replacing``), so a crash never leaves
half a table behind, and a killed write's temporary file is removed at the next write.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.record import is_temporary_name, remove_stale_temporaries, replacing
from solvers.cache_folder import cache_dir as cache_dir  # where callers have always found it

Arrays = dict[str, np.ndarray]


@dataclass(frozen=True)
class Loaded:
    arrays: Arrays
    #: "cache" (read from disk), "built" (no table yet), or "rebuilt: <why>" (the table on disk was unusable).
    source: str
    path: Path


def _digest(arrays: Mapping[str, np.ndarray]) -> str:
    sha = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        sha.update(name.encode())
        sha.update(str(array.dtype).encode())
        sha.update(str(array.shape).encode())
        sha.update(array.tobytes())
    return sha.hexdigest()


def table_path(name: str, params: Mapping[str, object], version: int) -> Path:
    key = json.dumps({"name": name, "params": dict(params), "version": version}, sort_keys=True)
    short = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_dir() / f"{name}-{short}.npz"


#: The largest table read from the cache, all arrays together. The biggest shipped table (Footstep at its bound)
#: is a few hundred MB; a file that claims more is damaged, and is rebuilt rather than read.
MAX_TABLE_BYTES = 4 * 2**30


def _check_members(path: Path) -> None:
    """Check every array's header against the bytes really in the file before anything is allocated: a header whose
    shape says 99999999999 would otherwise be a MemoryError, and a member compressed with a method ``zipfile`` does
    not know (one flipped byte) a NotImplementedError."""
    with zipfile.ZipFile(path) as archive:
        members = archive.infolist()
        if sum(member.file_size for member in members) > MAX_TABLE_BYTES:
            raise ValueError(f"its arrays claim more than {MAX_TABLE_BYTES:,} bytes")
        for member in members:
            if member.compress_type != zipfile.ZIP_STORED:  # np.savez stores; anything else is damage
                raise ValueError(f"{member.filename} is not stored as this cache writes it")
            with archive.open(member) as stream:
                major, _ = np.lib.format.read_magic(stream)
                read_header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
                shape, _, dtype = read_header(stream)
                if dtype.hasobject:
                    raise ValueError(f"{member.filename} holds Python objects")
                if math.prod(shape) * dtype.itemsize > member.file_size:
                    raise ValueError(f"{member.filename} claims {shape} but holds {member.file_size:,} bytes")


def _read(path: Path, name: str, params: Mapping[str, object], version: int) -> Arrays:
    _check_members(path)
    with np.load(path, allow_pickle=False) as data:
        arrays = {key: data[key] for key in data.files}
    meta_bytes = arrays.pop("__meta__", None)
    if meta_bytes is None:
        raise ValueError("no metadata")
    meta = json.loads(bytes(meta_bytes).decode())
    expected = {"name": name, "params": json.loads(json.dumps(dict(params))), "version": version}
    if {k: meta.get(k) for k in expected} != expected:
        raise ValueError(f"built for {meta.get('name')} {meta.get('params')} format {meta.get('version')}")
    if meta.get("sha256") != _digest(arrays):
        raise ValueError("checksum mismatch")
    return arrays


def _write(path: Path, arrays: Mapping[str, np.ndarray], name: str, params: Mapping[str, object], version: int) -> None:
    meta = {"name": name, "params": dict(params), "version": version, "sha256": _digest(arrays)}
    payload = dict(arrays)
    payload["__meta__"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A killed write of a table (hundreds of MB for the largest) leaves its temporary file: the folder is cleaned of
    # old ones whenever a table is written.
    remove_stale_temporaries(path.parent, ours=_temporary_of_ours)
    # The one atomic write (a temporary file of its own, synced, renamed): two solves of the same table (two windows,
    # or two workers) never share a temporary file, and a crash never leaves half a table behind.
    with replacing(path) as handle:
        np.savez(handle, **payload)  # type: ignore[arg-type]


#: The temporary files this cache wrote before it wrote through ``core.record.replacing``
#: (``<table>.npz.<pid>.<thread>.tmp``): a killed write of an older nashplay left them behind.
_OLD_TEMPORARY = re.compile(r".+\.npz\.[0-9]+\.[0-9]+\.tmp")


def _temporary_of_ours(name: str) -> bool:
    return is_temporary_name(name) or _OLD_TEMPORARY.fullmatch(name) is not None


def load_or_build(
    name: str,
    params: Mapping[str, object],
    build: Callable[[], Arrays],
    version: int = 1,
    use_cache: bool = True,
) -> Loaded:
    """The table for ``name`` and ``params``: from disk if it is there and sound, else built (and saved)."""
    path = table_path(name, params, version)
    source = "built"
    if use_cache:
        try:
            return Loaded(_read(path, name, params, version), "cache", path)
        except FileNotFoundError:
            pass
        except Exception as error:  # any failure to read a table means: rebuild it (and overwrite the damaged one)
            source = f"rebuilt: the cached table was unusable ({_short(error)})"
    arrays = build()
    try:
        _write(path, arrays, name, params, version)
    except OSError as error:  # a read-only or unreadable cache folder: the table serves this run only
        source += f" (not cached: {error.strerror or error})"
    return Loaded(arrays, source, path)


def _short(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 120 else text[:120] + "..."
