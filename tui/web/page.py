"""The HTML that ``nashplay serve`` sends: the page that holds the terminal, and the pages that refuse a visitor.

The terminal page is textual-serve's own (``templates/app_index.html``) with three changes: no font from an outside
site (a visitor's browser asks only this server for anything, and the page works without the internet), the
websocket address taken from the address bar (right behind a proxy, whatever the ``Host`` header said), and a
closing dialog that says the server may have been full. Plain strings, filled in with ``html.escape``d values:
no template engine is needed for three values.
"""

from __future__ import annotations

from html import escape

#: Colours of textual-serve's page, so that the terminal does not flash another colour while it loads.
_STYLE = """
      @font-face {
        font-family: "Roboto Mono";
        src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
        font-weight: 100 700;
      }
      body { background: #0c181f; margin: 0; }
      .dialog-container {
        position: absolute; width: 100vw; height: 100vh; display: flex;
        align-items: center; justify-content: center; z-index: 10;
      }
      .shade { position: absolute; width: 100%; height: 100%; background: #0c181f; }
      .intro {
        max-width: 640px; min-height: 200px; padding: 16px; font-size: 16px; z-index: 20;
        font-family: "Roboto Mono", menlo, monospace; text-align: center; color: rgba(255, 255, 255, 0.95);
        background-color: #12232d; display: flex; flex-direction: column; align-items: center;
        justify-content: center; margin: 32px;
      }
      .intro p { margin: 8px 16px; }
      body.-first-byte .intro-dialog, body.-first-byte .intro-dialog .shade {
        opacity: 0; transition: opacity 0.3s ease-out; display: none;
      }
      body .textual-terminal { opacity: 0; transition: opacity 0.3s ease-out; }
      body.-first-byte .textual-terminal { opacity: 1; transition: opacity 0.3s ease-out; }
      body button {
        padding: 16px 32px; background-color: #5e0ba7; color: rgba(255, 255, 255, 0.95); border: none;
        font-family: "Roboto Mono", menlo, monospace; margin: 16px; display: block;
      }
      button:hover { background: #ac5af4; cursor: pointer; }
      .closed-dialog { opacity: 0; display: none; }
      body.-closed .closed-dialog { opacity: 1; display: flex; }
      #start { display: none; }
      #start.-delay { display: flex; }
"""

_INDEX = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>{title}</title>
    <link rel="stylesheet" href="/static/css/xterm.css">
    <script src="/static/js/textual.js"></script>
    <style>{style}</style>
    <script>
      function getStartUrl() {{
        const url = new URL(window.location.href);
        const params = new URLSearchParams(url.search);
        params.delete("delay");
        return url.pathname + "?" + params.toString();
      }}
      function refresh() {{
        window.location.href = getStartUrl();
      }}
    </script>
  </head>
  <body>
    <div class="dialog-container intro-dialog">
      <div class="shade"></div>
      <div class="intro">
        <p>{title}: starting your app...</p>
        <button type="button" onClick="refresh()" id="start">Start</button>
      </div>
    </div>
    <div class="dialog-container closed-dialog">
      <div class="shade"></div>
      <div class="intro">
        <p>The session ended (the app was closed, the server stopped, or it was full).</p>
        <p>Your games in progress are kept: Restart offers them again.</p>
        <button type="button" onClick="refresh()">Restart</button>
      </div>
    </div>
    <div id="terminal" class="textual-terminal" data-session-websocket-url="{websocket_url}"
         data-font-size="{font_size}"></div>
    <script>
      // textual.js connects on window.onload, after this has run: the websocket goes to the address this page was
      // loaded from (wss: on an https: page), which is right behind a proxy too.
      document.getElementById("terminal").dataset.sessionWebsocketUrl =
        (window.location.protocol === "https:" ? "wss://" : "ws://") + window.location.host + "/ws";
    </script>
  </body>
</html>
"""

_NOTICE = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>{title}</title>
    <style>{style}</style>
  </head>
  <body>
    <div class="dialog-container">
      <div class="shade"></div>
      <div class="intro">
        <p><strong>{heading}</strong></p>
        <p>{text}</p>
      </div>
    </div>
  </body>
</html>
"""


def index(title: str, websocket_url: str, font_size: int) -> str:
    """The page with the terminal; ``websocket_url`` is the server's guess, which the page corrects from its own
    address."""
    return _INDEX.format(
        title=escape(title), style=_STYLE, websocket_url=escape(websocket_url, quote=True), font_size=font_size
    )


def notice(title: str, heading: str, text: str) -> str:
    """A page that only says something (the server is full, the token is missing): no script, no terminal."""
    return _NOTICE.format(title=escape(title), style=_STYLE, heading=escape(heading), text=escape(text))
