"""Issue 22, "Honest replies when PostgreSQL fails": when the database fails around a move's COMMIT, every reply is
true. A scripted table (Omerta with snap claims and windows closing, Speakeasy with undos) plays through the
service while the server ends the bot's connections at random (``pg_terminate_backend`` from another
connection), or while a proxy cuts the connection exactly at COMMIT (before the server got it, or after it
committed but before its answer came back). Each request's reply is recorded (taken / not taken / not known /
the database unreachable / refused) and compared with the record afterwards: every "taken" is in it, every "not
taken" (and every refusal) is not, every "not known" is resolved by it; then the table keeps working.

The figures of each run are printed (``pytest -s`` shows them).
"""

from __future__ import annotations

import random
import uuid
from collections import Counter
from pathlib import Path

import pytest

from service.outcome import TAKEN
from store import Store
from tests.backends import Targets
from tests.pgfaults import CommitCutter, Killer, named
from tests.service.faults import Clock, Looks, Run, check_replies, figures, finish, make_service, open_tables, play


@pytest.mark.slow
async def test_500_moves_while_the_server_ends_the_bots_connections_at_random(postgres_server: str, tmp_path: Path):
    """Issue 22 acceptance: 500 moves while another connection ends the bot's connections at random; every reply
    is true, no acknowledged move is lost, and the table keeps working."""
    app = f"faults_{uuid.uuid4().hex[:10]}"
    targets = Targets("postgres", tmp_path, named(postgres_server, app))
    try:
        target = targets.new()
        clock = Clock()
        svc = make_service(await Store.open(target), clock)
        games = await open_tables(svc)
        run = Run(svc, clock, random.Random(22))
        with Looks().watching() as looks:
            async with Killer(postgres_server, app, (0.005, 0.06), seed=22) as killer:
                # kills come by the clock, moves by the machine's speed: play on (a little) until there are enough
                await play(run, games, 500, until=lambda: killer.kills >= 100)
        moves = run.moves()
        await finish(run, games)
        async with await Store.open(target) as other:
            told = await check_replies(run, make_service(other, clock), games)
        await svc.store.close()
        print(figures("random kills", run, told, faults=killer.kills))
        print(f"[random kills] the service's looks: {dict(sorted(looks.found.items()))}")
        assert moves >= 500
        assert killer.kills >= 100, "too few faults to mean anything"
        assert told["taken"] >= 250, told
    finally:
        await targets.cleanup()


async def test_moves_cut_exactly_at_commit_are_answered_as_the_record_has_them(postgres_server: str, tmp_path: Path):
    """Issue 22 acceptance, "the same test at COMMIT exactly": a proxy cuts the connection at a request's COMMIT,
    before the server got it (every such reply: "not taken", and the record has nothing) or after the server
    committed it but before its answer came back (every such reply: taken; a quiet move says "Your move was
    taken.")."""
    cutter = CommitCutter(postgres_server)
    async with cutter.running():
        app = f"commit_{uuid.uuid4().hex[:10]}"
        targets = Targets("postgres", tmp_path, named(cutter.url(), app))
        try:
            target = targets.new()
            clock = Clock()
            svc = make_service(await Store.open(target), clock)
            games = await open_tables(svc)
            run = Run(svc, clock, random.Random(5), cutter=cutter)
            await play(run, games, 90, cuts=("before", "after", None))
            for req in run.requests:
                if req.cut == "before":
                    assert req.told == "not taken", req
                elif req.cut == "after":
                    assert req.told == "taken", req
                    assert req.kind != "act" or req.reply == TAKEN, req
                else:  # nothing else failed (an undo may be refused: past a reveal, or of an earlier turn)
                    assert req.told == "taken" or (req.kind, req.told) == ("undo", "refused"), req
            await finish(run, games)
            async with await Store.open(target) as other:
                told = await check_replies(run, make_service(other, clock), games)
            await svc.store.close()
            by_cut = Counter((r.cut, r.kind) for r in run.requests if r.cut)
            print(figures("commit cut", run, told, cut_before=cutter.cuts["before"], cut_after=cutter.cuts["after"]))
            print(f"[commit cut] cuts by request: {dict(sorted(by_cut.items()))}")
            assert cutter.cuts["before"] >= 25 and cutter.cuts["after"] >= 25, cutter.cuts
        finally:
            await targets.cleanup()
