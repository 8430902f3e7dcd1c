"""Project checks that need what ``make`` installs beyond the rules' own dependencies: the
published site's packages (their versions) and the developers' tools (import-linter)."""

import os
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "elo_explain"


def test_voila_and_jupyter_server_are_pinned_to_the_tested_versions():
    # the server code uses their internals (elo_explain/server): a new release is tested first
    from importlib.metadata import version

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    conda = (ROOT / "environment.yml").read_text()
    for name in ("voila", "jupyter_server"):
        pin = f"{name}=={version(name)}"
        assert pin in project["optional-dependencies"]["publish"], pin
        assert f"  - {pin}\n" in conda, pin


def _lint_imports(tree: Path) -> subprocess.CompletedProcess:
    """import-linter's contracts of ``pyproject.toml`` checked on the package in ``tree``."""
    return subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )


def test_the_layers_contracts_catch_an_import_that_points_up(tmp_path):
    # make lint checks the tree as it is; here, that each contract catches what it forbids,
    # in a copy of the package with one import added to each of three layers
    import shutil

    shutil.copytree(
        PACKAGE,
        tmp_path / "elo_explain",
        ignore=shutil.ignore_patterns("data", "locale", "__pycache__"),
    )
    config = (ROOT / "pyproject.toml").read_text()
    (tmp_path / "pyproject.toml").write_text(config[config.index("\n[tool.importlinter]\n") :])
    assert _lint_imports(tmp_path).returncode == 0
    for module, line in [
        ("interactive/view.py", "import elo_explain.server.preheat"),
        ("dashboards/index.py", "import elo_explain.server.gate"),
        ("elo.py", "import matplotlib"),
        ("rounding.py", "import elo_explain.dashboards"),
    ]:
        path = tmp_path / "elo_explain" / module
        text = path.read_text()
        path.write_text(text + f"\n{line}\n")
        result = _lint_imports(tmp_path)
        path.write_text(text)
        assert result.returncode != 0 and "BROKEN" in result.stdout, (module, result.stdout)
        name = "elo_explain." + module.removesuffix(".py").replace("/", ".")
        assert f"{name} -> {line.split()[1]}" in result.stdout, (module, result.stdout)
    # a circle inside a layer: fide imports elo, so elo importing fide closes one
    (tmp_path / "elo_explain" / "elo.py").write_text(
        (PACKAGE / "elo.py").read_text() + "\nimport elo_explain.fide\n"
    )
    result = _lint_imports(tmp_path)
    assert result.returncode != 0 and "cycle" in result.stdout.lower(), result.stdout
