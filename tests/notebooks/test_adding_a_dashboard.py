"""Adding a dashboard, walked as ``docs/adding_a_dashboard.md`` tells it, in a copy of the
repository (its tracked and new files, as the working tree has them): the guide's
``make new-dashboard`` command, then the translator's step (a stand-in translator fills every
empty entry, marked as such: ``[te] MY TOPIC``, the English upper-cased, its ``{fields}``
kept, a form for each plural category) with the guide's ``make translations`` and pictures' commands, then the guide's checks
(``scripts/new_dashboard.py --check``: the suite's checks that concern one dashboard, the
notebook run in a kernel among them) in the copy, with this environment's Python (no venv is
made: ``make -o`` takes the copy's ``.venv`` stamp as done).

It fails when the command breaks, when the files it writes are not the ones the guide's table
says, when the guide names a file that does not exist (a test moved away), when a check fails
for the new dashboard, and when a check that must cover every dashboard did not run for it.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding_a_dashboard.md"
sys.path.insert(0, str(ROOT / "scripts"))

from new_dashboard import GLOBAL_CHECKS, PAGE_CHECKS, VIEW_CHECKS, parts  # noqa: E402

from elo_explain.i18n import TRANSLATIONS  # noqa: E402

STAND_IN_TRANSLATOR = r"""
import re, sys
from elo_explain import translate
from elo_explain.i18n import TRANSLATIONS

FIELD = re.compile(r"(\{[^{}]*\})")
def stand_in(text, lang):  # not a translation: the English upper-cased, its fields kept
    return f"[{lang}] " + "".join(p if FIELD.fullmatch(p) else p.upper() for p in FIELD.split(text))

for lang in TRANSLATIONS:
    for domain in (translate.DOMAIN, translate.NOTEBOOK_DOMAIN):
        path = translate.po_path(lang, domain)
        cat = translate.read_catalog(path, lang)
        for m in cat:
            if m.id and isinstance(m.id, str) and not m.string:
                m.string = stand_in(m.id, lang)
            elif m.id and not isinstance(m.id, str) and not all(m.string or ()):
                # a plural entry: one form per plural category of the language
                m.string = tuple(stand_in(m.id[min(i, 1)], lang) for i in range(cat.num_plurals))
        path.write_text(translate.po_text(cat), encoding="utf-8")
"""


def _copy_of_the_repository(tree: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, map(os.fsdecode, listed)):
        if (ROOT / name).is_file():  # (a file removed from the tree but not yet from git)
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tree / name)


def _files(tree: Path) -> dict[str, str]:
    return {
        p.relative_to(tree).as_posix(): hashlib.sha1(p.read_bytes()).hexdigest()
        for p in tree.rglob("*")
        if p.is_file() and not {"__pycache__", ".ruff_cache"} & set(p.parts)
    }


def _guide_command() -> tuple[str, dict[str, str]]:
    """The guide's ``make new-dashboard`` line: its example NAME, and its variables."""
    line = re.search(r"^make new-dashboard (.+)$", GUIDE.read_text(), re.M).group(1)
    values = dict(token.split("=", 1) for token in shlex.split(line))
    assert set(values) == {"NAME", "TITLE", "LINE"}, values
    return values["NAME"], values


def _renamed(path: str, example: str, name: str) -> set[str]:
    """A path the guide names for its ``example`` (``12_my_topic``: ``notebooks/12_my_topic.ipynb``,
    ``tests/site/specs/d12.py``), for the dashboard ``name`` of the same topic; ``<lang>``: each
    translation's."""
    path = path.replace(example, name).replace(f"/d{example[:2]}.py", f"/d{name[:2]}.py")
    return {path.replace("<lang>", lang) for lang in TRANSLATIONS} if "<lang>" in path else {path}


def _guide_table(example: str, name: str) -> tuple[set[str], set[str]]:
    """The files of the guide's table that ``make new-dashboard`` makes, and the ones written by
    hand only, for the dashboard ``name``."""
    made, by_hand = set(), set()
    for path, generated in re.findall(r"^\| `([^`]+)` \|([^|]*)\|", GUIDE.read_text(), re.M):
        (made if generated.strip() else by_hand).update(_renamed(path, example, name))
    return made, by_hand


def _run(command: list[str], tree: Path, env: dict, timeout: int = 300) -> str:
    done = subprocess.run(
        command, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, (
        f"{shlex.join(command)}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    )
    return done.stdout


def test_a_dashboard_added_as_the_guide_says_passes_the_checks_for_it(tmp_path):
    tree = tmp_path / "repo"
    _copy_of_the_repository(tree)
    # the guide's example, at the next free number of this tree
    example, values = _guide_command()
    taken = [int(p.name[:2]) for p in (tree / "notebooks").glob("[0-9][0-9]_*.ipynb")]
    name = f"{max(taken) + 1:02d}_{example[3:]}"
    notebook = f"{name}.ipynb"
    _number, topic, cls = parts(name)
    env = {**os.environ, "PYTHONPATH": str(tree)}  # the copy's package, in every process and kernel
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    make = ["make", "-s", "-o", ".venv/.installed", f"BIN={Path(sys.executable).parent}"]
    before = _files(tree)

    out = _run(
        [
            *make,
            "new-dashboard",
            f"NAME={name}",
            f"TITLE={values['TITLE']}",
            f"LINE={values['LINE']}",
        ],
        tree,
        env,
    )
    # the translation checks see the new dashboard: its entries are left to the translator
    for lang in TRANSLATIONS:
        assert f"{lang}/LC_MESSAGES/elo_explain.po: {notebook} title: " in out, out
        assert f"{lang}/LC_MESSAGES/notebooks.po: {notebook} {name[:2]}-00: " in out, out

    # the translator's step, then the guide's commands after it
    guide = GUIDE.read_text()
    assert f"scripts/new_dashboard.py --cards {example}" in guide
    _run([sys.executable, "-c", STAND_IN_TRANSLATOR], tree, env)
    _run([*make, "translations"], tree, env)
    _run([sys.executable, "scripts/new_dashboard.py", "--cards", name], tree, env)

    # the files made are the guide's, and every file the guide names exists
    after = _files(tree)
    changed = {f for f in after if before.get(f) != after[f]}
    made, by_hand = _guide_table(example, name)
    assert changed == made, (
        f"made but not in the guide's table: {sorted(changed - made)}; "
        f"in the table but not made: {sorted(made - changed)}"
    )
    named = set().union(
        *(_renamed(p, example, name) for p in re.findall(r"`((?:[\w.-]+/)+[\w.<>-]*)`", guide))
    )
    missing = sorted(p for p in named | by_hand if not (tree / p).exists())
    assert not missing, f"the guide names files that do not exist: {missing}"

    # the tree as make lint checks it: ruff's lint and format, the layers' contracts
    _run([*make, "lint"], tree, env)

    # the guide's checks of the new dashboard
    assert f"scripts/new_dashboard.py --check {example}" in guide
    out = _run([sys.executable, "scripts/new_dashboard.py", "--check", name], tree, env, 600)
    passed = re.findall(r"^PASSED (\S+)", out, re.M)
    functions = {p.split("::")[-1].split("[")[0] for p in passed}
    assert set(GLOBAL_CHECKS) <= functions, f"did not run: {set(GLOBAL_CHECKS) - functions}"
    for check in PAGE_CHECKS:  # each check that covers every dashboard covered this one
        assert any(f"::{check}[" in p and notebook in p for p in passed), (
            f"{check} skipped {notebook}"
        )
    for check in VIEW_CHECKS:
        assert any(f"::{check}[" in p and f"{cls}View" in p for p in passed), (
            f"{check} skipped {cls}View"
        )
    assert any(p.startswith(f"elo_explain/dashboards/{topic}.py::") for p in passed), passed
    assert sum(f"/test_dash_{topic}.py::" in p for p in passed) >= 3, passed
    assert any(f"::test_{name[:2]}_notebook_follows_its_parameters" in p for p in passed), passed
    assert not re.search(r"^(FAILED|ERROR) ", out, re.M), out[-4000:]


@pytest.mark.parametrize("name", ["12_my_topic", "12_my_topic.ipynb"])
def test_the_generator_names_the_files_by_the_dashboard(name):
    from new_dashboard import files

    assert parts(name) == ("12", "my_topic", "MyTopic")
    assert {k: p.relative_to(ROOT).as_posix() for k, p in files(name).items()} == {
        "module": "elo_explain/dashboards/my_topic.py",
        "notebook": "notebooks/12_my_topic.ipynb",
        "model tests": "tests/models/test_dash_my_topic.py",
        "spec": "tests/site/specs/d12.py",
        "picture": "share/jupyter/voila/templates/elo-explain/static/cards/12_my_topic.png",
    }
