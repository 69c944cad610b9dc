"""The footer every screen uses: Textual's, with quitting and help first.

Textual lists the focused widget's keys, then the screen's, then the app's, and a narrow terminal cuts the end of
the line: at 80 columns the game screens lost ``q`` and ``?``, the two keys a newcomer needs most. This footer puts
those first and keeps the rest in Textual's order.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer

# FooterKey is the footer's own key widget; Textual does not export it publicly.
from textual.widgets._footer import FooterKey

#: Actions shown first, in this order.
FIRST_ACTIONS = ("quit", "quit_game", "help")


class NashplayFooter(Footer):
    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        shown: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in shown:
                shown[binding.action] = (binding, enabled, tooltip)

        def rank(action: str) -> int:
            return FIRST_ACTIONS.index(action) if action in FIRST_ACTIONS else len(FIRST_ACTIONS)

        ordered = sorted(shown.values(), key=lambda entry: rank(entry[0].action))
        self.styles.grid_size_columns = len(ordered)
        for binding, enabled, tooltip in ordered:
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)
