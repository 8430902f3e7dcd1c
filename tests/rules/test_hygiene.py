"""Hygiene the reader of the code relies on (docs/contributing.md).

* No comment, docstring or document cites the project's own tracker ("issue 16", "(issue 26,
  point 4)"): a reader of the code cannot open it, so a comment says the reason itself, or
  links upstream (``voila-dashboards/voila#1458``, a URL), which anyone can open.
* A commit's subject is at most 72 characters, the detail in the body: checked before each
  commit by the commit-msg hook of ``.pre-commit-config.yaml``
  (``scripts/check_commit_subject.py``, tested here); history that has landed is not checked.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# "issue 16", "Issue 26", "issues 12 and 14", "issue #9", and a number on the comment's next
# line ("(issue\n# 10)"). An upstream reference is owner/repo#N or name#N (no word "issue"
# before the number) or a URL (".../issues/1458": a slash, not a space, after "issues").
TRACKER = re.compile(r"\bissues?[ \t]*(?:\n[ \t]*(?:#|//|\*)?[ \t]*)?#?\d+\b", re.IGNORECASE)

# the kinds of text file a reader reads: code, comments, docs, notebooks, catalogs, config
TEXT_SUFFIXES = {
    ".py",
    ".md",
    ".ipynb",
    ".po",
    ".pot",
    ".in",
    ".toml",
    ".yml",
    ".yaml",
    ".cfg",
    ".ini",
    ".txt",
    ".js",
    ".css",
    ".j2",
    ".html",
    ".sh",
    ".json",
}
TEXT_NAMES = {"Makefile", "run", "Dockerfile"}
NOT_SCANNED = {
    "tests/rules/test_hygiene.py",  # its own examples of what the pattern catches
    "package-lock.json",  # npm's lock file, not written by the project
}


def tracker_references(text: str) -> list[tuple[int, str]]:
    """(line number, the words) of each reference to the project's own tracker in ``text``."""
    return [
        (text.count("\n", 0, m.start()) + 1, " ".join(m.group().split()))
        for m in TRACKER.finditer(text)
    ]


@pytest.mark.parametrize(
    "text, caught",
    [
        ("# the slowloris (issue 26, point 4)", True),
        ("freezes the whole server (issue 16). The gate", True),
        ('"""Issue 18: each keystroke that leaves a valid value', True),
        ("(issues 12 and 14)", True),
        ("see issue #9", True),
        ("# --- the translated pages (issue 21) ----------------", True),
        ("were dropped (issue\n# 10): the same asserted values", True),
        ("voila-dashboards/voila#1458", False),
        ("jupyter-server/jupyter_server#706", False),
        ("jsonschema#1428", False),
        ("https://github.com/voila-dashboards/voila/issues/1458", False),
        ("no upstream issue found; 3 of 13 probes", False),
        ('"Report-Msgid-Bugs-To: elo-explain issues\\n"', False),
        ("the issue's 435 updates of 3.8 MB", False),
        ("at 400 points 0.92 vs 0.91", False),
    ],
)
def test_the_pattern_tells_the_trackers_references_from_upstream_ones(text, caught):
    assert bool(tracker_references(text)) is caught, tracker_references(text)


def _files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    # tracked files and new ones not yet added (both are about to be committed)
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return sorted({name for name in out.split("\0") if name})


def test_no_comment_cites_the_projects_own_tracker():
    found = []
    for name in _files():
        path = ROOT / name
        if (
            name in NOT_SCANNED
            or not path.is_file()
            or (path.suffix not in TEXT_SUFFIXES and path.name not in TEXT_NAMES)
        ):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{name}:{line}: {words}" for line, words in tracker_references(text)]
    assert not found, (
        "a reader cannot open the project's tracker: say the reason, or link "
        "upstream (owner/repo#N or a URL):\n" + "\n".join(found)
    )


# ------------------------------------------------------------------------ the commit-msg hook
def _hook():
    spec = importlib.util.spec_from_file_location(
        "check_commit_subject", ROOT / "scripts" / "check_commit_subject.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_commit_msg_hook_is_configured():
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "scripts/check_commit_subject.py" in config
    assert "stages: [commit-msg]" in config


def test_the_commit_msg_hooks_examples():
    module = _hook()
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize(
    "message, ok",
    [
        ("Dock: a lost tap is tapped once more\n\nChromium made no click of ...\n", True),
        ("x" * 72, True),
        ("x" * 73, False),
        ("Subject\nbody straight after it", False),
        ("# Please enter the commit message\n\nSubject\n\nBody\n", True),
        ("Subject\n\n# ------------------------ >8 ------------------------\n" + "y" * 99, True),
    ],
)
def test_the_commit_msg_hook(tmp_path, message, ok):
    module = _hook()
    msg = tmp_path / "COMMIT_EDITMSG"
    msg.write_text(message, encoding="utf-8")
    assert (module.main([str(msg)]) == 0) is ok
