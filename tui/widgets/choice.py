"""Choices whose state shows in their shape (``[x]`` / ``[ ]``), not only in their colour, in any font: a radio button
(the choice under a focused radio set's cursor has a ``>`` before it), a radio set whose cursor starts on the chosen
button, a yes-or-no box, and a value stepped through on one line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget
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


class CycleChoice(Widget, can_focus=True):
    """One of a few values on one line, ``Label: < value >``: Left and Right (or Space, Enter) step through them, and
    the arrows' ``<`` ``>`` say so in any font. For a choice with no room for a list (the clock on the set-up
    screen at 80x24)."""

    DEFAULT_CSS = """
    CycleChoice { height: 1; width: auto; }
    CycleChoice:focus { text-style: bold reverse; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("right,space,enter", "step(1)", "Next", show=False),
        Binding("left", "step(-1)", "Previous", show=False),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, label: str, values: Sequence[str], value: str | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label
        self.values = tuple(values)
        self.set_reactive(CycleChoice.index, self.values.index(value) if value in self.values else 0)

    @property
    def value(self) -> str:
        return self.values[self.index]

    def action_step(self, by: int) -> None:
        self.index = (self.index + by) % len(self.values)

    def render(self) -> str:
        return self.line(self.value)

    def line(self, value: str) -> str:
        return f"{self.label}: < {value} >"

    def get_content_width(self, container: Size, viewport: Size) -> int:
        # As wide as its longest choice: an auto width measured on the first value cut the longer ones' ``>``
        # ("Clock: < 15+10" after "none").
        return max(cell_len(self.line(value)) for value in self.values)
