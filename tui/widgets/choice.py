"""A radio button whose state shows in its shape (``[x]`` / ``[ ]``), not only in its colour, in any font; the
choice under a focused radio set's cursor has a ``>`` before it."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import RadioButton, RadioSet


class ChoiceButton(RadioButton):
    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"
    BUTTON_INNER = " "

    def watch_value(self) -> None:
        # Textual reads BUTTON_INNER on every render; an instance attribute gives each button its own mark.
        self.BUTTON_INNER = "x" if self.value else " "
        super().watch_value()  # keeps the RadioSet informed (it un-presses the other buttons)

    @property
    def under_cursor(self) -> bool:
        """Whether this is the choice the focused radio set's cursor is on (Enter or Space would pick it)."""
        return self.has_class("-selected") and isinstance(self.parent, RadioSet) and self.parent.has_focus

    def render(self) -> Content:
        # Textual marks the cursor's choice by its background alone.
        return Content.assemble(">" if self.under_cursor else " ", super().render())
