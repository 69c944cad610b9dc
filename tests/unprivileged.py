"""Run part of a test as a user that file permissions bind.

The tests may run as root, and root reads and writes whatever the permission bits say: a folder made unreadable
(``chmod 000``) or read-only (``chmod a-w``) is neither to root. So a test that needs real permissions prepares its
folder, then runs its checks through ``call_unprivileged``: in this process when it is not root, else in a child
process run as ``nobody`` (skipped, with the reason, where root cannot become another user).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import stat
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

#: The user a root test run drops to.
UNPRIVILEGED = "nobody"
#: The child's exit codes besides 0: it failed (the traceback follows), it skipped (the reason follows), it could
#: not become the unprivileged user (why follows).
FAILED, SKIPPED, CANNOT_DROP = 1, 77, 78


@contextmanager
def shared_folder() -> Iterator[Path]:
    """A fresh folder the unprivileged user may enter: pytest's ``tmp_path`` sits under a folder (mode 0700) that only
    the user running the tests may enter. Its permissions are given back before it is removed."""
    folder = Path(tempfile.mkdtemp(prefix="nashplay-permissions-"))
    folder.chmod(0o755)  # mkdtemp makes it 0700
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")] if os.geteuid() == 0 else _walk_restoring(folder):
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | stat.S_IRWXU)
        shutil.rmtree(folder, ignore_errors=True)


def _walk_restoring(folder: Path) -> Iterator[Path]:
    """Every path under ``folder``, each folder made enterable before it is walked (a non-root user's cleanup)."""
    folder.chmod(folder.stat().st_mode | stat.S_IRWXU)
    yield folder
    for child in folder.iterdir():
        if child.is_dir() and not child.is_symlink():
            yield from _walk_restoring(child)
        else:
            yield child


def make_read_only(folder: Path) -> None:
    """``chmod -R a-w``: nothing in ``folder`` can be created, removed, renamed or written (by a user bound by it)."""
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def call_unprivileged(function: Callable[[Path], None], folder: Path) -> None:
    """Call ``function(folder)`` as a user bound by file permissions: here when the tests do not run as root, else in
    a forked child that drops to ``nobody`` first (a fork, not a new interpreter: the one running the tests may sit
    where ``nobody`` cannot reach). The child's assertion errors fail the calling test; its ``pytest.skip`` skips it."""
    if os.geteuid() != 0:
        function(folder)
        return
    try:
        user = pwd.getpwnam(UNPRIVILEGED)
    except KeyError:
        pytest.skip(f"the tests run as root and there is no user {UNPRIVILEGED!r} to drop to")
    for path in [folder, *folder.rglob("*")]:  # the folder becomes that user's own, as a state folder would be
        os.chown(path, user.pw_uid, user.pw_gid, follow_symlinks=False)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: whatever happens, it ends here, with os._exit (never back into pytest)
        os.close(read_end)
        code, report = FAILED, ""
        try:
            try:
                os.setgroups([])
                os.setgid(user.pw_gid)
                os.setuid(user.pw_uid)
            except OSError as error:
                code, report = CANNOT_DROP, str(error)
            else:
                function(folder)
                code = 0
        except pytest.skip.Exception as skip:
            code, report = SKIPPED, skip.msg or ""
        except BaseException:
            report = traceback.format_exc()
        finally:
            with contextlib.suppress(BaseException):
                os.write(write_end, report.encode()[:60_000])
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        report = reader.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == CANNOT_DROP:
        pytest.skip(f"the tests run as root, and root cannot become {UNPRIVILEGED!r} here: {report}")
    if code == SKIPPED:
        pytest.skip(report)
    assert code == 0, f"as {UNPRIVILEGED} (exit code {code}):\n{report}"
