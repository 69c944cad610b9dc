"""``python -m tui``: the same as the ``nashplay`` command (``textual serve`` needs this entry point)."""

from tui.cli import run

if __name__ == "__main__":
    raise SystemExit(run())
