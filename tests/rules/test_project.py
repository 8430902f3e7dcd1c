"""Project-level checks: environment.yml and pyproject.toml list the same packages (and pin
the ones the server leans on), the package's import graph and folders, the local preview."""

import json
import re
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        wanted |= {_name(r) for r in extra}
    wanted.discard("elo-explain")  # an extra that names others (test: dashboards, publish)
    conda = set()
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        m = re.match(r"^  - ([A-Za-z0-9_.\-]+)", line)  # top-level conda dependencies only
        if m:
            conda.add(_name(m.group(1)))
    conda -= {"python", "pip"}
    # PyPI-only packages go in the pip section
    conda |= {
        _name(m) for m in re.findall(r"^      - ([A-Za-z0-9_.\-]+[=<>]?[^\s#]*)$", text, re.M)
    }
    conda -= {"."}  # the package itself
    assert conda == wanted, (
        f"only in environment.yml: {conda - wanted}; only in pyproject: {wanted - conda}"
    )
    # installed, not editable: an editable install leaves out the data files (the Voilà
    # template of the published pages, JupyterLab's settings), which `make` links instead
    assert "      - ." in text.split("pip:", 1)[1]
    assert "  - conda-forge" in text.split("dependencies:", 1)[0]


def test_ci_runs_exactly_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme
    commands = [
        ln.strip() for ln in ci.splitlines() if ln.strip() and not ln.strip().startswith("#")
    ]
    assert commands[-1] == "make test"


def test_readme_examples_run():
    import doctest

    result = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert result.attempted >= 3 and result.failed == 0


# --- the package's parts ----------------------------------------------------------------------
PACKAGE = ROOT / "elo_explain"


def _modules() -> dict[str, Path]:
    """``{"elo_explain.interactive.view": path, ...}``: every module of the package."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(module: str, path: Path, modules) -> list[tuple[str, str | None, int]]:
    """``(imported module, name or None, line)`` for every import of a package module in
    ``path``, at any level (a function's own imports too): ``from a.b import c`` imports
    ``a.b.c`` when that is a module, else the name ``c`` of ``a.b``."""
    import ast

    found = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names if a.name in modules]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:
                if f"{base}.{a.name}" in modules:
                    found.append((f"{base}.{a.name}", None, node.lineno))
                elif base in modules:
                    found.append((base, a.name, node.lineno))
    return found


def test_pip_install_gives_the_rules_on_numpy_and_babel_alone():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert {_name(r) for r in project["dependencies"]} == {"numpy", "babel"}
    extras = project["optional-dependencies"]
    assert {"dashboards", "publish", "hub"} <= set(extras)
    assert "elo-explain[dashboards,publish,hub]" in extras["test"]  # make installs .[test]
    assert "elo-explain[publish]" in extras["hub"]


def test_every_shared_file_is_installed_by_the_package():
    # pip install . (environment.yml) copies share/ by pyproject's data-files globs; a folder
    # no glob names (the landing page's cards, once) fails the build
    import fnmatch

    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    tracked = subprocess.run(
        ["git", "ls-files", "share"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    assert len(tracked) > 40
    for path in tracked:
        assert any(
            Path(path).parent.as_posix() == folder and fnmatch.fnmatch(path, pattern)
            for folder, patterns in globs.items()
            for pattern in patterns
        ), path


def test_dashboards_hold_only_dashboards():
    from elo_explain.dashboards import DASHBOARDS, INDEX_NOTEBOOK

    modules = {p.stem for p in (PACKAGE / "dashboards").glob("*.py")} - {"__init__"}
    pages = {Path(n).stem.split("_", 1)[1] for n in (d.notebook for d in DASHBOARDS)}
    assert modules == pages | {Path(INDEX_NOTEBOOK).stem}


def _defines(path: Path) -> set[str]:
    """The names a module defines itself at its top level (not the ones it imports)."""
    import ast

    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def test_every_name_is_imported_from_where_it_is_defined():
    # no re-exports: a name comes from the module that defines it (the package, its tests,
    # benchmarks and scripts), so one looks for it in one place
    modules = _modules()
    defined = {m: _defines(p) for m, p in modules.items()}
    wrong = []
    files = [
        *PACKAGE.rglob("*.py"),
        *(ROOT / "tests").rglob("*.py"),
        *(ROOT / "benchmarks").rglob("*.py"),
        *(ROOT / "scripts").rglob("*.py"),
        *(ROOT / "deploy").rglob("*.py"),
    ]
    for path in files:
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for target, name, line in _imports(module, path, modules):
            if name is not None and name not in defined[target]:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {name} is not defined in {target}")
    assert not wrong, "\n".join(wrong)


def test_the_preview_is_the_published_site_without_its_pool():
    # `make dashboard` serves voila.json (gate, template, every language) with one change, the
    # preheated pool off; the site tests (tests/harness.py start_voila) run that same server
    import shlex
    import subprocess

    out = subprocess.run(
        ["make", "-n", "-s", "dashboard", "PORT=1234"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.replace("\\\n", " ")
    # Voilà, through the package's launcher (elo_explain/server/__main__.py)
    line = next(ln for ln in out.splitlines() if "-m elo_explain.server " in ln)
    args = shlex.split(line)
    assert args[1:3] == ["-m", "elo_explain.server"] and args[3] == "notebooks"
    options = set(args[4:]) - {"--port=1234", "--Voila.port_retries=0", "--no-browser"}
    assert options == {"--VoilaConfiguration.preheat_kernel=False"}
    config = json.loads((ROOT / "voila.json").read_text())
    assert config["VoilaConfiguration"]["preheat_kernel"] is True  # make publish: the pool
    harness = (ROOT / "tests" / "harness.py").read_text()
    assert '"--VoilaConfiguration.preheat_kernel=False"' in harness
    assert re.search(r'sys\.executable,\s*"-m",\s*"elo_explain\.server"', harness)


def test_make_publish_pools_what_fits_a_quarter_of_the_memory():
    # docs/capacity.md's rule: one kernel per page (11 a language), 115 MiB each, English
    # first, as many languages as fit in a quarter of the machine's memory

    sys.path.insert(0, str(ROOT / "deploy"))
    from publish import pool_languages, pool_options

    assert pool_languages(24 * 1024) == ("en", "te", "uk", "el")  # 44 x 115 = 4.9 <= 6 GiB
    assert pool_languages(16 * 1024) == ("en", "te", "uk")  # 33 x 115 = 3.7 <= 4 GiB
    assert pool_languages(8 * 1024) == ("en",)  # 11 x 115 = 1.2 <= 2 GiB
    assert pool_languages(4 * 1024) == ()  # 1.2 GiB > 1 GiB
    assert pool_options(24 * 1024) == []  # voila.json's pool stands
    assert pool_options(4 * 1024) == ["--VoilaConfiguration.preheat_kernel=False"]
