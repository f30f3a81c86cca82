"""The engines the tests drive: ternion's release build (``TERNION`` names another
binary), and the misbehaving fake of ``fake_engine.py``."""

import os
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
# The repository (its README files, its release build); TERNION_REPOSITORY names it when the
# tests run from a copy, against an installed package.
REPOSITORY = Path(os.environ.get("TERNION_REPOSITORY", HERE.parents[2]))


def ternion_binary() -> str:
    named = os.environ.get("TERNION")
    if named:
        return named
    built = REPOSITORY / "target" / "release" / "ternion"
    if built.exists():
        return str(built)
    found = shutil.which("ternion")
    if found:
        return found
    pytest.exit("no ternion binary: build it (cargo build --release) or set TERNION", 2)


@pytest.fixture(scope="session")
def ternion() -> str:
    return ternion_binary()


@pytest.fixture
def fake():
    """The command line of the fake engine in a mode."""
    return lambda mode: [sys.executable, str(HERE / "fake_engine.py"), mode]


def children() -> set[int]:
    """The processes whose parent is this one (zombies included)."""
    mine = os.getpid()
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == mine:
            found.add(int(entry))
    return found


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))
