"""Project-level checks: environment.yml and pyproject.toml list the same packages."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        wanted |= {_name(r) for r in extra}
    conda = set()
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        m = re.match(r"^  - ([A-Za-z0-9_.\-]+)", line)  # top-level conda dependencies only
        if m:
            conda.add(_name(m.group(1)))
    conda -= {"python", "pip"}
    # PyPI-only packages go in the pip section
    conda |= {_name(m) for m in re.findall(r"^      - ([A-Za-z0-9_.\-]+[=<>]?[^\s#]*)$", text, re.M)}
    conda -= {"."}  # the package itself
    assert conda == wanted, f"only in environment.yml: {conda - wanted}; only in pyproject: {wanted - conda}"
    # installed, not editable: an editable install leaves out the data files (the Voilà
    # template of the published pages, JupyterLab's settings), which `make` links instead
    assert "      - ." in text.split("pip:", 1)[1]
    assert "  - conda-forge" in text.split("dependencies:", 1)[0]


def test_ci_runs_exactly_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme
    commands = [l.strip() for l in ci.splitlines()
                if l.strip() and not l.strip().startswith("#")]
    assert commands[-1] == "make test"


def test_readme_examples_run():
    import doctest

    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 3 and result.failed == 0
