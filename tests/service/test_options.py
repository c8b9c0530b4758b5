"""Issue "trust" 7: table options typed as any text get a clear answer, never an unhandled error, and a refused
request changes nothing in the store."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import ServiceError, Settings, TableService, User
from service.options import parse_options
from store import Store

HOST = User(1, "Anna")


def test_good_options_are_read():
    assert parse_options("snap_window=3 rounds=4") == {"snap_window": 3, "rounds": 4}
    assert parse_options("snap_window=3,pace=post") == {"snap_window": 3, "pace": "post"}
    assert parse_options("  ") == {}
    assert parse_options("difficulty=+2 x=-1") == {"difficulty": 2, "x": -1}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("snap_window=--3", "whole number written with the digits 0-9"),
        ("snap_window=²", "whole number written with the digits 0-9"),
        ("snap_window=①", "whole number written with the digits 0-9"),
        ("snap_window=٣", "whole number written with the digits 0-9"),
        ("snap_window=" + "9" * 5000, "too long"),
        ("snap_window=" + "9" * 300, "at most 6"),
        ("snap_window=3 snap_window=4", "given twice"),
        ("snap_window", "name=value"),
        ("Snap=3", "not an option name"),
        ("snap_window=", "needs a value"),
        ("snap_window=a b", "name=value"),
        ("snap_window=🎲", "needs a value"),
    ],
)
def test_bad_options_are_refused_saying_what_is_allowed(text, says):
    with pytest.raises(ServiceError, match=says):
        parse_options(text)


@given(st.text(max_size=600))
def test_any_text_is_read_or_refused_clearly(text):
    try:
        out = parse_options(text)
    except ServiceError as exc:
        assert str(exc) and len(str(exc)) < 300
    else:
        assert all(isinstance(v, int | str) for v in out.values())


@pytest.fixture
async def svc():
    store = await Store.open(":memory:")
    yield TableService(store, Settings())
    await store.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=st.text(max_size=80),
    game=st.sampled_from(["omerta", "speakeasy", "chess", ""]),
    guild=st.integers(min_value=-(2**70), max_value=2**70),
)
async def test_opening_a_table_with_any_input_answers_or_refuses_and_a_refusal_writes_nothing(svc, text, game, guild):
    before = await svc.store.list_games(guild if 0 < guild < 2**63 else 10)
    try:
        notice = await svc.create(guild, 20, HOST, game, parse_options(text))
    except ServiceError:
        assert await svc.store.list_games(guild if 0 < guild < 2**63 else 10) == before
    else:
        assert notice.table.row.status == "lobby"
        await svc.abandon(notice.table.id, HOST)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    gid=st.integers(min_value=-(2**70), max_value=2**70),
    version=st.integers(min_value=-(2**70), max_value=2**70),
    kind=st.text(max_size=30),
    option=st.text(max_size=30),
    user=st.integers(min_value=-(2**70), max_value=2**70).filter(lambda u: u not in (1, 2, 3)),
)
async def test_every_entry_point_with_any_ids_or_text_refuses_cleanly_and_changes_nothing(
    svc, gid, version, kind, option, user
):
    if not await svc.store.list_games(10):
        n = await svc.create(10, 20, HOST, "omerta", {})
        for u in (User(2, "Ben"), User(3, "Cleo")):
            await svc.join(n.table.id, u)
        await svc.start(n.table.id, HOST)
    real = (await svc.store.list_games(10))[0].id
    who = User(user, "X", guild_id=10)
    for target in (gid, real):
        before = await svc.store.get_choices(real)
        calls = [
            svc.act(target, who, version, kind, option),
            svc.undo(target, who, version),
            svc.skip(target, who, version, 0),
            svc.offer_seat(target, who, user, User(user, "Y")),
            svc.take_seat(target, who, 0),
            svc.refuse_seat(target, who, 0),
            svc.give_seat(target, who, 0),
            svc.close_race(target, version),
            svc.load_in(target, user),
            svc.load_for(target, User(user, "X", dm=True)),
            svc.act(target, User(user, "X", dm=True), version, kind, option),
        ]
        for call in calls:
            try:
                await call
            except ServiceError as exc:
                assert str(exc)
        assert await svc.store.get_choices(real) == before


async def test_a_new_omerta_table_plays_by_post_and_a_record_without_the_option_replays_live(svc):
    """Issue 24: live 5-second windows let the bots make every snap at a table of people playing by post, so a new
    Omerta table gets ``pace=post``; ``live`` is still there for a group online together, and a game recorded
    before the option existed is live, as it was played."""
    from engine.omerta import OmertaGame
    from engine.omerta.table import pace

    new = (await svc.create(10, 20, HOST, "omerta", {})).table
    assert json.loads(new.row.options)["pace"] == "post"
    live = (await svc.create(10, 21, HOST, "omerta", {"pace": "live"})).table
    assert json.loads(live.row.options)["pace"] == "live"
    old = OmertaGame().new(["Anna", "Ben", "Cleo"], {}, 7)  # a record's options, as an old table kept them
    assert pace(old) == "live"
