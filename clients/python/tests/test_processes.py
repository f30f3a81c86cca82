"""No process left behind: the engine runs in a process group of its own, ended with it;
a forgotten engine, or one whose event loop closes, is ended; a match cut short ends its
engines."""

import asyncio
import gc
import os
import sys
import time
import uuid
from pathlib import Path

import pytest

from ternion import Engine, EngineError, EngineTimeoutError, play_match
from ternion import aio as ternion_aio

HERE = Path(__file__).resolve().parent


def gone(pid):
    """Whether the process is neither running nor a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def eventually_gone(pid, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return gone(pid)


def test_what_the_engine_started_ends_with_it(fake):
    engine = Engine.start(fake("child"))
    strings = [i.string for i in engine.go(depth=1).infos if i.string and i.string.startswith("child")]
    child = int(strings[0].split()[1])
    assert not gone(child)
    assert engine.quit() == 0
    assert eventually_gone(child)


def test_a_forgotten_asyncio_engine_is_ended_when_collected(ternion):
    async def forget():
        engine = await ternion_aio.Engine.start(ternion)
        pid = engine.pid
        del engine
        gc.collect()
        for _ in range(200):
            if gone(pid):
                break
            await asyncio.sleep(0.05)
        return pid

    assert gone(asyncio.run(forget()))


def test_an_asyncio_engine_does_not_outlive_its_loop(ternion):
    kept = []

    async def start_and_leave():
        kept.append(await ternion_aio.Engine.start(ternion))
        analysis = await kept[0].analysis()
        kept.append(analysis)

    asyncio.run(start_and_leave())
    assert eventually_gone(kept[0].pid)


def with_token(token):
    """The processes whose command line holds ``token``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and not gone(entry):
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as file:
                    if token.encode() in file.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


def test_a_match_cut_short_ends_its_engines(ternion):
    """``ternion match`` gets SIGTERM first, so it ends engines that would outlive a
    SIGKILL (these ignore SIGTERM and their stdin closing)."""
    token = uuid.uuid4().hex
    stuck = f"{sys.executable} {HERE / 'fake_engine.py'} stuck {token}"
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError) as raised:
        play_match(stuck, stuck, "lielow", 2, tc="600+0", ternion=ternion, timeout=2)
    assert isinstance(raised.value, (EngineError, TimeoutError))
    deadline = started + 30
    while with_token(token) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert with_token(token) == []
