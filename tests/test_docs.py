"""The documentation: the front page (``README.md``) and the pages under ``docs/``.

Read as text, without the app: every relative link resolves to a file of the repository, and nothing links or
points outside it (no web links, no ``..`` that leaves the repository); no issue numbers; the README's first two
commands are the ones CI runs (``.ci/run``), so the two cannot drift apart; the README stays a short front page;
and every game of the catalogue is named on a page the README links.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from urllib.parse import unquote

from tui.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
CI = ROOT / ".ci" / "run"

#: The front page stays a front page: what nashplay is, the two commands, a tour, the games, links.
MAX_README_LINES = 150

FENCED = re.compile(r"^```[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
#: ``[text](target)`` and ``![alt](target)``, with an optional title; and reference definitions ``[name]: target``.
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?", re.MULTILINE)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
BARE_URL = re.compile(r"\b(?:https?|ftp)://\S+|<[A-Za-z][A-Za-z0-9+.-]*:[^>\s]+>|\bwww\.\S+", re.IGNORECASE)
#: A relative path that climbs (``../x``), anywhere in the text, code included: where it lands is checked.
CLIMBING_PATH = re.compile(r"(?<![\w./-])((?:\.\./)+[\w.\-/]*)")
#: "issue 12", "issues 3 and 4", "issue #12", "#12" (but not a colour like "#D55E00" or "random#2").
ISSUE_NUMBER = re.compile(r"\bissues?\s*(?:no\.?\s*)?#?\d+|(?<![\w&#/])#\d+\b", re.IGNORECASE)


def pages() -> list[Path]:
    """The README and every page under ``docs/``."""
    return [README, *sorted(DOCS.glob("**/*.md"))]


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def prose(text: str) -> str:
    """``text`` without its fenced code blocks and code spans: what Markdown renders as links and words."""
    return CODE_SPAN.sub("", FENCED.sub("", text))


def link_targets(text: str) -> list[str]:
    """Every link target of a Markdown text (code does not link)."""
    words = prose(text)
    return [*INLINE_LINK.findall(words), *REFERENCE_LINK.findall(words)]


def local_target(page: Path, target: str) -> Path:
    """Where a relative link of ``page`` points (the anchor and query dropped: anchors are not checked)."""
    path = unquote(target.split("#", 1)[0].split("?", 1)[0])
    return page if not path else (page.parent / path).resolve()


def linked_files(page: Path) -> set[Path]:
    """Where ``page``'s relative links point."""
    targets = link_targets(page.read_text(encoding="utf-8"))
    return {local_target(page, target) for target in targets if not SCHEME.match(target)}


def inside_repository(path: Path) -> bool:
    return path.resolve().is_relative_to(ROOT)


def broken_links(page: Path, text: str) -> list[str]:
    """Relative links of ``page`` that do not reach a file of the repository."""
    found = []
    for target in link_targets(text):
        if SCHEME.match(target):
            continue  # not a relative link: test_nothing_points_outside_the_repository refuses it
        where = local_target(page, target)
        if not inside_repository(where) or not where.is_file():
            found.append(f"{name(page)}: ({target}) is not a file of the repository")
    return found


def outside_references(page: Path, text: str) -> list[str]:
    """Links to anything outside the repository, web addresses, and paths that climb out of it."""
    found = [f"{name(page)}: links ({target})" for target in link_targets(text) if SCHEME.match(target)]
    found += [f"{name(page)}: names the address {url}" for url in BARE_URL.findall(prose(text))]
    for path in CLIMBING_PATH.findall(text):
        if "../shared" in path or not inside_repository(page.parent / path):
            found.append(f"{name(page)}: points outside the repository: {path}")
    return found


def issue_numbers(page: Path, text: str) -> list[str]:
    return [f"{name(page)}: {match.group(0)!r}" for match in ISSUE_NUMBER.finditer(text)]


def command_steps(command: str) -> list[list[str]]:
    """A shell line as its ``&&`` steps, each split into words, without what only CI adds: ``-q`` (quiet pip) and
    ``-p no:cacheprovider`` (pytest writes no cache into the checkout)."""
    steps = []
    for step in command.split("&&"):
        words = shlex.split(step)
        kept: list[str] = []
        index = 0
        while index < len(words):
            if words[index] == "-q":
                index += 1
            elif words[index : index + 2] == ["-p", "no:cacheprovider"]:
                index += 2
            else:
                kept.append(words[index])
                index += 1
        steps.append(kept)
    return steps


def ci_line(*needles: str, without: str = "\0") -> str:
    """The one line of ``.ci/run`` that holds every needle (and not ``without``)."""
    lines = [
        line.strip()
        for line in CI.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("#") and all(n in line for n in needles) and without not in line
    ]
    assert len(lines) == 1, f".ci/run has {len(lines)} lines with {needles}: {lines}"
    return lines[0]


def mentions(text: str, game: str) -> bool:
    """``game`` named as a word of its own (``mini-geister`` is not named by ``mini-geister-3v2-rrb``)."""
    return re.search(rf"(?<![\w-]){re.escape(game)}(?![\w-])", text) is not None


# ---------------------------------------------------------------------------------------------------- the tests


def test_the_readme_links_the_docs_and_every_relative_link_resolves() -> None:
    assert DOCS / "README.md" in linked_files(README), "the README links the documentation's index, docs/README.md"
    broken = [problem for page in pages() for problem in broken_links(page, page.read_text(encoding="utf-8"))]
    assert broken == []


def test_every_docs_page_is_linked_from_the_index() -> None:
    index = DOCS / "README.md"
    assert index.is_file(), "docs/README.md, the index of the documentation, is missing"
    linked = linked_files(index)
    orphans = [name(page) for page in pages() if page not in linked and page not in (README, index)]
    assert orphans == []


def test_nothing_points_outside_the_repository() -> None:
    found = [problem for page in pages() for problem in outside_references(page, page.read_text(encoding="utf-8"))]
    assert found == []


def test_no_issue_numbers() -> None:
    found = [problem for page in pages() for problem in issue_numbers(page, page.read_text(encoding="utf-8"))]
    assert found == []


def test_the_readme_starts_with_the_two_commands_ci_runs() -> None:
    blocks = FENCED.findall(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 2
    install, tests = (block.strip() for block in blocks[:2])
    assert "\n" not in install and "\n" not in tests, "each of the two commands is one line, to copy and paste"
    ci_install = ci_line("pip install", " -e .", without="[dev]")
    ci_tests = ci_line("pip install", "[dev]", "pytest")
    # CI has no terminal: it runs the installed entry point with --help instead of starting the app.
    assert command_steps(install) == [*command_steps(ci_install), [".venv/bin/nashplay"]]
    assert ci_line(".venv/bin/nashplay --help") == ".venv/bin/nashplay --help > /dev/null"
    assert command_steps(tests) == command_steps(ci_tests)


def test_the_readme_is_a_short_front_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < MAX_README_LINES


def test_every_game_is_named_in_the_readme_and_on_a_page_it_links() -> None:
    readme = README.read_text(encoding="utf-8")
    linked = linked_files(README) & set(pages()) - {README}
    missing = []
    for game in GAMES:
        if not mentions(readme, game):
            missing.append(f"{game}: not named in the README")
        if not any(mentions(page.read_text(encoding="utf-8"), game) for page in linked):
            missing.append(f"{game}: on no docs page the README links")
    assert missing == []
