"""The asyncio API: the same names, awaited; many engines at once."""

import asyncio

import pytest

from ternion import CommandRefused, EngineBusy, Limit
from ternion.aio import Engine


def run(coroutine):
    return asyncio.run(coroutine)


def test_the_same_commands_awaited(ternion):
    async def session():
        async with await Engine.start(ternion) as engine:
            await engine.set_variant("lielow9")
            await engine.configure({"Skill Level": 10})
            await engine.position(moves=["b3c4"])
            assert await engine.turn() == 2
            moves = await engine.legal_moves()
            best = await engine.go(Limit(nodes=3000))
            assert best.move in moves and best.score is not None
            with pytest.raises(CommandRefused):
                await engine.position(moves=["a1a9"])
            await engine.position(moves=["b3c4"])
            analysis = await engine.analysis()
            async with analysis:
                async for info in analysis:
                    if info.depth and info.depth >= 3:
                        break
                with pytest.raises(EngineBusy):
                    await engine.fen()
            assert analysis.best is not None
            await engine.set_option("Ponder", True)
            await engine.position()
            pondering = await engine.ponder(time=0.05)
            await pondering.ponderhit()
            assert (await pondering.wait(timeout=10)).move is not None
            return engine.pid

    run(session())


def test_many_engines_at_once_each_answer_for_their_own_position(ternion):
    async def one(index):
        async with await Engine.start(ternion) as engine:
            await engine.set_variant(["lielow", "lielow9", "egaraguti", "lerontenin"][index % 4])
            legal = await engine.legal_moves()
            best = await engine.go(nodes=2000 + index)
            assert best.move in legal
            return await engine.variant()

    async def many():
        return await asyncio.gather(*(one(i) for i in range(12)))

    assert run(many()) == ["lielow", "lielow9", "egaraguti", "lerontenin"] * 3


def test_a_cancelled_wait_leaves_no_process_behind(ternion):
    async def cancelled():
        engine = await Engine.start(ternion)
        analysis = await engine.analysis()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(analysis.wait(timeout=60), 0.3)
        await engine.quit()
        return engine

    engine = run(cancelled())
    assert engine.returncode is not None
