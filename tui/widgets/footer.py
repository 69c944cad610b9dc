"""The footer every screen uses: Textual's, with quitting and help first, drawn again only when its keys change.

Textual lists the focused widget's keys, then the screen's, then the app's, and a narrow terminal cuts the end of
the line: at 80 columns the game screens lost ``q`` and ``?``, the two keys a newcomer needs most. This footer puts
those first and keeps the rest in Textual's order.

Textual's footer builds its keys afresh (new widgets, styled and laid out) each time the screen's bindings are
refreshed, and the screens refresh them after every move, every advice and every focus change, mostly to the same
keys: measured over the app's tests, that rebuilding was a tenth of all the processor time. This one rebuilds only when
what it shows (a key, its label, whether it is enabled, its tooltip) differs from what it shows already.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

# FooterKey is the footer's own key widget; Textual does not export it publicly.
from textual.widgets._footer import FooterKey

#: Actions shown first, in this order.
FIRST_ACTIONS = ("quit", "quit_game", "help")

#: What one key of the footer shows: the binding, whether it is enabled, its tooltip.
Shown = tuple[Binding, bool, str]
#: What tells two footers apart: each key's key, label, description, action, whether enabled, tooltip.
Signature = tuple[tuple[str, str, str, str, bool, str], ...]


class NashplayFooter(Footer):
    #: What the keys on show were built from, ``None`` before they are built.
    _built_from: Signature | None = None

    def _shown(self) -> list[Shown]:
        """The keys to show, in order: quitting and help first, then the rest in Textual's order."""
        shown: dict[str, Shown] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in shown:
                shown[binding.action] = (binding, enabled, tooltip)

        def rank(action: str) -> int:
            return FIRST_ACTIONS.index(action) if action in FIRST_ACTIONS else len(FIRST_ACTIONS)

        return sorted(shown.values(), key=lambda entry: rank(entry[0].action))

    def _signature(self, shown: list[Shown]) -> Signature:
        return tuple(
            (binding.key, self.app.get_key_display(binding), binding.description, binding.action, enabled, tooltip)
            for binding, enabled, tooltip in shown
        )

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        ordered = self._shown()
        self._built_from = self._signature(ordered)
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

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self._rebuild_if_changed)

    async def _rebuild_if_changed(self) -> None:
        if self.is_attached and (self._built_from is None or self._signature(self._shown()) != self._built_from):
            await self.recompose()
