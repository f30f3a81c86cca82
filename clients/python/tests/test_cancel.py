"""Cancelling leaves the engine usable: a search cut short by ``asyncio.wait_for``,
``task.cancel()`` or Ctrl-C is stopped and read to its ``bestmove``, a command cut short is
read to its answer, and the next command gets its own answer."""

import asyncio
import subprocess
import sys
import textwrap

import pytest

from ternion import AnalysisComplete, EngineTimeoutError
from ternion.aio import Engine


def run(coroutine):
    return asyncio.run(coroutine)


async def usable(engine):
    """The engine answers, and plays, as if nothing had happened."""
    await engine.isready()
    legal = await engine.legal_moves()
    best = await engine.go(nodes=1500)
    assert best.move in legal


def test_a_go_cut_short_by_wait_for_is_stopped_and_the_engine_goes_on(ternion):
    async def session():
        async with await Engine.start(ternion) as engine:
            for _ in range(2):
                with pytest.raises(asyncio.TimeoutError):
                    await asyncio.wait_for(engine.go(depth=60), 0.3)
                await usable(engine)

    run(session())


def test_a_cancelled_task_stops_its_analysis_or_ponder(ternion):
    async def cancel_soon(awaitable):
        task = asyncio.ensure_future(awaitable)
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    async def each_info(analysis):
        async for _info in analysis:
            pass

    async def session():
        async with await Engine.start(ternion) as engine:
            analysis = await engine.analysis()
            await cancel_soon(analysis.wait())
            await usable(engine)
            assert analysis.done and analysis.best.move is not None

            analysis = await engine.analysis()
            await cancel_soon(each_info(analysis))
            await usable(engine)

            pondering = await engine.ponder(time=100)
            await cancel_soon(pondering.wait())
            await usable(engine)

            await engine.configure({"Ponder": True})
            await cancel_soon(engine.go(p1time=100, p2time=100))
            await usable(engine)

    run(session())


def test_the_running_search_can_be_stopped_through_the_engine(ternion):
    async def session():
        async with await Engine.start(ternion) as engine:
            assert await engine.stop() is None
            analysis = await engine.analysis()
            await asyncio.sleep(0.1)
            best = await engine.stop()
            assert best is not None and best.move in await engine.legal_moves()
            assert analysis.best is best and await engine.stop() is None

    run(session())


def test_a_command_cut_short_is_read_to_its_answer_in_the_background(fake):
    async def session():
        async with await Engine.start(fake("slow")) as engine:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.query("fen"), 0.1)
            # The first answer belongs to the cancelled query, not to this one.
            assert await engine.query("fen") == "2"
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.isready(), 0.1)
            await engine.isready()
            assert await engine.query("fen") == "3"

    run(session())


def test_a_finished_search_is_no_hung_engine(fake):
    """At ``go infinite`` an engine that has found its mate is silent until ``stop``: no
    deadline by default, and a wait bounded by the caller stops nothing it should not."""

    async def session():
        async with await Engine.start(fake("done-early")) as engine:
            analysis = await engine.analysis()
            first = await analysis.get()
            assert first.string is not None  # the options it was searched with
            mate = await analysis.get()
            assert mate.score.mate == 1 and mate.score.plies == 2 and analysis.info is mate
            await asyncio.sleep(0.3)
            assert analysis.empty()
            best = await analysis.stop()
            assert best.move == "e2e4" and analysis.empty()
            with pytest.raises(AnalysisComplete):
                await analysis.get()
            await engine.isready()

            bounded = await engine.analysis(line_timeout=0.3)
            await bounded.get()
            await bounded.get()
            with pytest.raises(EngineTimeoutError):
                await bounded.get()

    run(session())


def test_each_line_of_a_multipv_analysis_keeps_its_latest_info(ternion):
    async def session():
        async with await Engine.start(ternion) as engine:
            await engine.configure({"MultiPV": 3})
            analysis = await engine.analysis(depth=5)
            best = await analysis.wait()
            assert [info.multipv for info in analysis.multipv] == [1, 2, 3]
            assert all(info.depth == 5 for info in analysis.multipv)
            assert best.info is analysis.multipv[0] and analysis.info is analysis.multipv[0]
            assert isinstance(analysis.info.time, float)

    run(session())


SIGINT_SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, threading
    from ternion import Engine

    engine = Engine.start(sys.argv[1])
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        if sys.argv[2] == "go":
            engine.go(depth=60)
        elif sys.argv[2] == "analysis":
            with engine.analysis() as analysis:
                for info in analysis:
                    pass
        else:
            engine.ponder(time=100).wait()
    except KeyboardInterrupt:
        print("interrupted")
    best = engine.go(nodes=1500)
    print("then", best.move in engine.legal_moves())
    print("status", engine.quit())
    """
)


@pytest.mark.parametrize("call", ["go", "analysis", "ponder"])
def test_ctrl_c_reaches_the_caller_as_itself_and_the_engine_goes_on(ternion, call):
    done = subprocess.run(
        [sys.executable, "-c", SIGINT_SCRIPT, ternion, call], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split("\n")[:3] == ["interrupted", "then True", "status 0"], done.stderr
