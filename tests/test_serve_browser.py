"""``nashplay serve`` in a real browser: headless Chromium (Debian's ``chromium``) opens the printed URL, the menu
shows, keys start a Mini-Geister game and play a move, and the page shows the game with its advice.

Chromium is driven through the DevTools protocol over a websocket, with aiohttp's client (textual-serve brings
aiohttp): no Selenium, no Playwright, no browser download. The terminal text is read from the page itself: xterm.js
draws on a canvas, so a script the test adds to the page (before textual.js runs) keeps a reference to the page's
terminal object, whose buffer holds what the canvas shows, cell by cell.

Where Chromium is missing the test is skipped with the reason; with ``NASHPLAY_REQUIRE_BROWSER=1`` (CI's
``.ci/run`` installs Chromium and sets it) it fails instead.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

aiohttp = pytest.importorskip("aiohttp")
pytest.importorskip("textual_serve")

from waiting import HANG_SECONDS  # noqa: E402

NASHPLAY = Path(sys.executable).parent / "nashplay"
#: Every wait's ceiling: only a hang reaches it (a loaded machine may take seconds to start an app).
TIMEOUT = HANG_SECONDS
TOKEN = "browser-test-token-0123456789"
WINDOW = (1280, 800)

# Runs in the page before its own scripts: textual.js keeps its terminal object in a local variable, and the first
# thing its constructor assigns is ``this.fitAddon``; a setter on Object.prototype for that name catches the object
# (and then steps aside, making it an ordinary property of that object).
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "fitAddon", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "fitAddon", {value, writable: true, configurable: true, enumerable: true});
    (window.__nashplayTerminals = window.__nashplayTerminals || []).push(this);
  },
});
"""
# The rows xterm.js shows, as text (``null`` until the terminal exists).
READ_TERMINAL = """
(() => {
  const session = (window.__nashplayTerminals || [])[0];
  if (!session || !session.terminal) return null;
  const terminal = session.terminal, buffer = terminal.buffer.active, rows = [];
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
})()
"""
#: Key events as Chromium's DevTools protocol takes them: key, code, Windows virtual key code, and the text typed.
KEYS = {
    "down": ("ArrowDown", "ArrowDown", 40, None),
    "enter": ("Enter", "Enter", 13, "\r"),
    "ctrl+s": ("s", "KeyS", 83, None),
}
CTRL = 2


def chromium() -> str:
    """The browser to drive, else the test is skipped (or fails, where CI requires the browser)."""
    path = os.environ.get("NASHPLAY_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        reason = "Chromium is not installed (Debian: apt-get install chromium)"
        if os.environ.get("NASHPLAY_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{reason}, and NASHPLAY_REQUIRE_BROWSER=1 requires it")
        pytest.skip(reason)
    return path


class DevTools:
    """One page of Chromium through the DevTools protocol: commands by id, events ignored."""

    def __init__(self, websocket: Any) -> None:
        self.websocket = websocket
        self.last_id = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.last_id += 1
        number = self.last_id
        await self.websocket.send_json({"id": number, "method": method, "params": params})
        while True:
            message = await asyncio.wait_for(self.websocket.receive_json(), TIMEOUT)
            if message.get("id") == number:
                assert "error" not in message, f"{method}: {message['error']}"
                result: dict[str, Any] = message["result"]
                return result

    async def terminal_text(self) -> str:
        result = await self.call("Runtime.evaluate", expression=READ_TERMINAL, returnByValue=True)
        value = result["result"].get("value")
        return value if isinstance(value, str) else ""

    async def wait_for(self, needle: str) -> str:
        """Poll the page's terminal until ``needle`` shows on it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        text = ""
        while needle not in text:
            assert loop.time() < deadline, f"{needle!r} never showed in the browser; the page's terminal:\n{text}"
            await asyncio.sleep(0.1)
            text = await self.terminal_text()
        return text

    async def press(self, name: str, modifiers: int = 0) -> None:
        key, code, virtual, text = KEYS[name]
        common = {"key": key, "code": code, "windowsVirtualKeyCode": virtual, "modifiers": modifiers}
        await self.call("Input.dispatchKeyEvent", type="rawKeyDown", **common)
        if text is not None:
            await self.call("Input.dispatchKeyEvent", type="char", text=text, **common)
        await self.call("Input.dispatchKeyEvent", type="keyUp", **common)

    async def type(self, text: str) -> None:
        await self.call("Input.insertText", text=text)


async def next_line(stream: asyncio.StreamReader) -> str:
    line = await asyncio.wait_for(stream.readline(), TIMEOUT)
    assert line, "the server ended early"
    return line.decode()


@contextlib.asynccontextmanager
async def browser(executable: str, profile: Path, log: Path) -> AsyncIterator[int]:
    """Headless Chromium with a fresh profile; yields its DevTools port. ``--no-sandbox``: the sandbox needs user
    namespaces that containers (and root) often lack, and the only page loaded is the test's own server."""
    with log.open("wb") as err:
        process = await asyncio.create_subprocess_exec(
            executable,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            "about:blank",
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,  # its helper processes go with it at the end
        )
    try:
        # Chromium writes the port it took into the profile (no parsing of its log).
        active = profile / "DevToolsActivePort"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while not (active.exists() and active.read_text().count("\n") >= 1):
            assert process.returncode is None, f"Chromium ended: {log.read_text(errors='replace')[-2000:]}"
            assert loop.time() < deadline, f"Chromium did not start: {log.read_text(errors='replace')[-2000:]}"
            await asyncio.sleep(0.1)
        yield int(active.read_text().splitlines()[0])
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()


async def page_target(port: int) -> str:
    """The websocket of Chromium's first page (about:blank)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    async with aiohttp.ClientSession() as client:
        while True:
            async with client.get(f"http://127.0.0.1:{port}/json/list") as response:
                pages = [target for target in await response.json() if target.get("type") == "page"]
            if pages:
                return str(pages[0]["webSocketDebuggerUrl"])
            assert loop.time() < deadline, "Chromium shows no page"
            await asyncio.sleep(0.1)


def test_a_game_of_mini_geister_with_advice_in_headless_chromium(tmp_path: Path) -> None:
    executable = chromium()

    async def body() -> None:
        server = await asyncio.create_subprocess_exec(
            str(NASHPLAY),
            "serve",
            "--port",
            "0",
            "--token",
            TOKEN,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert server.stdout is not None and server.stderr is not None
        try:
            first = await next_line(server.stdout)
            found = re.search(r"http://\S+", first)
            assert found is not None and TOKEN in found.group(0), first
            url = found.group(0)
            async with (
                browser(executable, tmp_path / "profile", tmp_path / "chromium.log") as port,
                aiohttp.ClientSession() as client,
                client.ws_connect(await page_target(port), max_msg_size=0) as websocket,
            ):
                page = DevTools(websocket)
                await page.call("Page.enable")
                await page.call("Page.addScriptToEvaluateOnNewDocument", source=CATCH_TERMINAL)
                await page.call("Page.navigate", url=url)
                menu = await page.wait_for("Choose a game")
                assert "Mini-Geister" in menu and "Replay a record file" in menu
                title = await page.call("Runtime.evaluate", expression="document.title", returnByValue=True)
                assert title["result"]["value"] == "nashplay"
                # Keys go where a person's would: to xterm.js's input, which sends them down the websocket.
                await page.call(
                    "Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()"
                )
                await page.press("down")
                await page.press("enter")
                await page.wait_for("set-up")
                await page.press("ctrl+s", CTRL)
                game = await page.wait_for("Suggested:")
                assert "Mini-Geister vs nash" in game and "Value for you: +0.00" in game  # the strongest; worth 0
                await page.type(":")
                await page.wait_for("Enter plays")
                await page.type("b1b2")
                await page.press("enter")
                played = await page.wait_for("1. b1-b2")
                assert "Advice" in played and "Ply " in played
                shot = await page.call("Page.captureScreenshot", format="png")
                picture = base64.b64decode(shot["data"])
                (tmp_path / "page.png").write_bytes(picture)  # for a person to look at when the test fails
                assert picture[:8] == b"\x89PNG\r\n\x1a\n"
                width, height = int.from_bytes(picture[16:20], "big"), int.from_bytes(picture[20:24], "big")
                assert width == WINDOW[0] and 0 < height <= WINDOW[1]
            # The browser has gone: its session ends, and the server stops cleanly.
            line = ""
            while "session 1 ended" not in line:
                line = await next_line(server.stdout)
            server.send_signal(signal.SIGINT)
            assert await asyncio.wait_for(server.wait(), TIMEOUT) == 130
            err = (await server.stderr.read()).decode()
            assert err.count("\n") == 1 and "interrupted" in err, err
        finally:
            if server.returncode is None:
                server.kill()
                await server.wait()

    asyncio.run(asyncio.wait_for(body(), TIMEOUT * 4))
    # The game in progress was saved in the visitor's own folder.
    saves = list((Path(os.environ["NASHPLAY_STATE_DIR"]) / "web").glob("*/games/*.ngr"))
    assert len(saves) == 1 and "1. b1-b2" in saves[0].read_text()
