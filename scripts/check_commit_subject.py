"""The commit-msg hook (.pre-commit-config.yaml): a commit's subject is at most 72 characters,
and the detail goes in the body, after a blank line.

``git log --oneline``, GitHub's commit lists and ``git shortlog`` show the subject alone and
cut it beyond about 72 characters; what does not fit there belongs in the body.

    python scripts/check_commit_subject.py .git/COMMIT_EDITMSG
"""

from __future__ import annotations

import sys
from pathlib import Path

LIMIT = 72


def problems(message: str) -> list[str]:
    """What is wrong with a commit message, in words (empty when it is fine).

    Lines git strips before committing (``#`` comments, the diff below a ``--verbose``
    scissors line) are not part of the message.

    >>> problems("Fix the dock's fold check on a phone\\n\\nThe tap ...\\n")
    []
    >>> problems("x" * 73)
    ['the subject is 73 characters, more than 72: put the detail in the body']
    >>> problems("A subject\\nand a body without the blank line")
    ['the second line is not blank: a blank line separates the subject from the body']
    """
    lines = []
    for line in message.splitlines():
        if line.startswith("# ------------------------ >8 ------------------------"):
            break
        if not line.startswith("#"):
            lines.append(line.rstrip())
    while lines and not lines[0]:
        lines.pop(0)
    if not lines:
        return []  # git refuses an empty message itself
    found = []
    if len(lines[0]) > LIMIT:
        found.append(
            f"the subject is {len(lines[0])} characters, more than {LIMIT}: "
            "put the detail in the body"
        )
    if len(lines) > 1 and lines[1]:
        found.append(
            "the second line is not blank: a blank line separates the subject from the body"
        )
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: check_commit_subject.py COMMIT_MSG_FILE", file=sys.stderr)
        return 2
    found = problems(Path(argv[0]).read_text(encoding="utf-8"))
    for problem in found:
        print(f"commit message: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
