"""``python -m tui``: the same as the ``nashplay`` command (``textual serve`` needs this entry point)."""

from tui.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
