"""The app in a web browser (``nashplay serve``): textual-serve runs one app process per visitor behind a websocket.

``tui.web.server`` is the server (it imports aiohttp and textual-serve, so only ``nashplay serve`` loads it);
``tui.web.page`` the HTML it serves. Neither imports the app: each visitor's app is a process of its own,
``python -m tui``, the same app as in the terminal.
"""
