"""A radio button whose state shows in its shape (``[x]`` / ``[ ]``), not only in its colour, in any font."""

from __future__ import annotations

from textual.widgets import RadioButton


class ChoiceButton(RadioButton):
    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"
    BUTTON_INNER = " "

    def watch_value(self) -> None:
        # Textual reads BUTTON_INNER on every render; an instance attribute gives each button its own mark.
        self.BUTTON_INNER = "x" if self.value else " "
        super().watch_value()  # keeps the RadioSet informed (it un-presses the other buttons)
