"""The examples of the README files run as written, with ternion on the PATH."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPOSITORY, ternion_binary

DOCUMENTS = [REPOSITORY / "README.md", REPOSITORY / "clients" / "python" / "README.md"]


def examples(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.S)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPOSITORY)))
def test_every_python_example_runs_as_written(document):
    found = examples(document)
    assert found, f"no example in {document}"
    binary = Path(ternion_binary()).resolve()
    path = f"{binary.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    for example in found:
        done = subprocess.run(
            [sys.executable, "-c", example],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PATH": path},
        )
        assert done.returncode == 0, done.stderr
        move, score = done.stdout.split("\n")[0].split(" ", 1)
        assert len(move) >= 4 and re.fullmatch(r"(cp|mate) -?\d+", score), done.stdout
