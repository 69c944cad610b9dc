"""Choices whose state shows in their shape (``[x]`` / ``[ ]``), not only in their colour, in any font: a radio button
(the choice under a focused radio set's cursor has a ``>`` before it), a radio set whose cursor starts on the chosen
button, and a yes-or-no box."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox, RadioButton, RadioSet


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


class ChoiceSet(RadioSet):
    """A radio set whose cursor starts on the chosen button (Textual's starts on the first, which then looked chosen
    beside the real choice's small mark)."""

    def on_mount(self) -> None:
        # After Textual's own mount handler, which puts the cursor on the first button.
        self.call_after_refresh(self._cursor_to_chosen)

    def _cursor_to_chosen(self) -> None:
        self._selected = self.pressed_index if self.pressed_index >= 0 else 0


class CheckChoice(Checkbox):
    """A yes-or-no choice on one line, its state in its shape (``[x]`` / ``[ ]``) as ``ChoiceButton``'s; ``touched``
    says whether the user changed it (a default that follows another choice stops following it then)."""

    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"
    BUTTON_INNER = " "

    def __init__(self, label: str, value: bool = False, *, id: str | None = None) -> None:
        super().__init__(label, value, id=id, compact=True)
        self.touched = False
        self.BUTTON_INNER = "x" if value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "x" if self.value else " "

    def toggle(self) -> CheckChoice:
        self.touched = True  # a key or a click: the user's own choice
        super().toggle()
        return self

    def set_default(self, value: bool) -> None:
        """Follow a default (the opponent changed) unless the user has chosen."""
        if not self.touched:
            self.value = value
