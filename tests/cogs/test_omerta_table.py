"""Omerta at the Discord table, through the fake Discord with the real, unpatched bot."""

from __future__ import annotations

from tests.cogs.driver import CHANNEL, Driver, table
from tests.fakediscord import payloads as p


async def test_smoke_open_join_start_and_peek(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        board = await d.board()
        assert board["content"].startswith(f"**Game #{gid} · Omerta")
        assert "table.png" in board["files"]
        rec = await d.click_board(0, "peek", "0,1")
        await rec.wait_followups(1)
        assert "You peek" in rec.followups[-1]["content"]
        assert rec.followups[-1]["ephemeral"]
        assert CHANNEL


async def test_complete_three_player_game_from_lobby_to_final_scores(tmp_path):
    from tests.cogs.driver import play_to_end

    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        await play_to_end(d)
        t = await d.load()
        assert t.row.status == "finished"
        result = t.result()
        assert result is not None and len(result.scores) == 3
        public = [m["content"] for m in server.messages_in(d.where)]
        assert any("Game over" in c for c in public)
        assert any("Round 3 reveal" in c for c in public)
        # the final reveal keeps the cards and adds the standings over all rounds; the end pings everyone
        assert any("Round 3 reveal" in c and "Final standings (lowest total wins):" in c for c in public)
        from tests.cogs.checks import check_end_pings_everyone

        await check_end_pings_everyone(d)
        assert gid == t.id


async def _to_turn(d: Driver):  # noqa: ANN202
    """Everyone peeks; returns the loaded table at the first turn."""
    from tests.cogs.driver import answer

    await d.settle()
    t = await d.load()
    for pr in [pr for pr in t.prompts() if pr.kind == "peek"]:
        await answer(d, pr.seat, "peek", pr.options[0].id, pr.secret)
    await d.settle()
    return await d.load()


async def test_a_players_next_wait_gets_a_reminder_of_its_own(tmp_path):
    """Each wait is reminded with a message of its own: the second wait's first reminder must not carry the first
    wait's nonce (Discord would answer it with the old message and post nothing, the bot counting it sent)."""
    from tests.cogs.driver import answer

    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        t = await _to_turn(d)
        first = t.prompts()[0].seat
        user = d.user_of_seat(first)
        play = bot.get_cog("Play")
        clock.now += bot.settings.reminder_first_s + 1
        assert await play.send_reminders() == 1

        def reminders() -> list[dict]:
            texts = server.messages_in(d.where)
            return [
                m for m in texts if m["content"].startswith(f"<@{user['id']}>") and "waiting for you" in m["content"]
            ]

        assert len(reminders()) == 1
        for _ in range(30):  # turns of draw and discard until the same player's turn comes again
            await d.close_windows()
            await d.settle()
            t = await d.load()
            pr = next(x for x in t.prompts() if x.seat >= 0)
            if pr.kind == "turn" and pr.seat == first and t.version > 1 + len(t.seats):
                break
            if pr.kind == "turn":
                rec = await d.click_board(pr.seat, "turn", "draw")
                await d.done(await d.click_private(rec, pr.seat, "place", "discard"), t.version + 1)
            else:
                await answer(d, pr.seat, pr.kind, pr.options[0].id, pr.secret)
        else:
            raise AssertionError("the first player's turn never came again")
        clock.now += bot.settings.reminder_first_s + 1
        assert await play.send_reminders() == 1
        again = reminders()
        assert len(again) == 2 and again[0]["id"] != again[1]["id"] and "again" not in again[1]["content"]


async def test_restart_mid_round_old_buttons_still_work_and_nothing_is_lost(tmp_path):
    from tests.cogs.driver import Clock, bot_on
    from tests.fakediscord.fixtures import fake_server

    clock = Clock()
    db = tmp_path / "restart.sqlite3"
    async with fake_server(heartbeat_interval_ms=30_000) as server:
        async with bot_on(server, db, clock) as bot:
            d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
            await d.open_and_start()
            t = await _to_turn(d)
            before = await bot.service.store.get_choices(d.gid)
            board = await d.board()
            seat = t.prompts()[0].seat
        async with bot_on(server, db, clock) as bot2:
            d.bot = bot2
            assert await bot2.service.store.get_choices(d.gid) == before
            from tests.cogs.driver import ids_of

            cid = next(i for i in ids_of(server.message(board["id"])) if "|draw|" in i)
            rec = await server.click(d.user_of_seat(seat), board["id"], cid, ts_ms=d.next_ts())
            await rec.wait_followups(1)
            assert "You drew" in rec.followups[-1]["content"]
            assert len(await bot2.service.store.get_choices(d.gid)) == len(before) + 1


async def test_refusals_not_seated_wrong_seat_outdated_board(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        t = await _to_turn(d)
        seat = t.prompts()[0].seat
        other = (seat + 1) % 3
        board = await d.board()
        draw = f"pl|{d.gid}|{t.version}|turn|draw|"
        outsider = await server.click(p.DAN, board["id"], draw, ts_ms=d.next_ts())
        await outsider.wait_followups(1)
        assert "not seated" in outsider.followups[-1]["content"] and outsider.followups[-1]["ephemeral"]
        wrong = await server.click(d.user_of_seat(other), board["id"], draw, ts_ms=d.next_ts())
        await wrong.wait_followups(1)
        assert "Nothing to decide for you" in wrong.followups[-1]["content"]
        # the active player draws; the old board's buttons are now outdated
        rec = await d.click_board(seat, "turn", "draw")
        await rec.wait_followups(1)
        version = (await d.load()).version
        # a client still showing the board before the draw (the edit has not reached it) clicks "draw" again
        stale = await server.click(
            d.user_of_seat(seat), board["id"], f"pl|{d.gid}|{t.version}|turn|draw|", ts_ms=d.next_ts(), check=False
        )
        await stale.wait_followups(1)
        assert "older board" in stale.followups[-1]["content"] and stale.followups[-1]["ephemeral"]
        assert (await d.load()).version == version


async def test_player_with_dms_closed_gets_private_information_in_a_private_thread(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        server.fail_dm(p.BEN)
        await d.open_and_start()
        rec = await d.click_board(1, "peek", "0,1")
        await rec.wait_followups(1)
        assert "You peek" in rec.followups[-1]["content"]

        def thread_note() -> bool:
            return any("You peek" in m["content"] for th in server.threads() for m in server.messages_in(th["id"]))

        await server.wait_until(thread_note, 5, what="Ben's private thread")
        thread = next(th for th in server.threads() if "Ben (private)" in th["name"])
        assert thread["type"] == 12  # private thread
        seats = await bot.service.store.get_seats(d.gid)
        assert next(s for s in seats if s.name == "Ben").dm_blocked
        anna = await d.click_board(0, "peek", "2,3")
        await anna.wait_followups(1)
        await server.wait_until(lambda: any("You peek" in m["content"] for m in server.dm_messages(p.ANNA)), 5)


async def test_snap_race_earlier_discord_timestamp_wins_even_when_it_arrives_second(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        await _to_turn(d)
        for _ in range(60):
            if await bot.service.store.get_race(d.gid):
                break
            t = await d.load()
            pr = next(pr for pr in t.prompts() if pr.seat >= 0)
            if pr.kind == "turn":
                rec = await d.click_board(pr.seat, "turn", "draw")
                place = await d.click_private(rec, pr.seat, "place", "discard")
                await d.done(place, t.version + 1)
            else:
                from tests.cogs.driver import answer

                await answer(d, pr.seat, pr.kind, "decline", pr.secret)
            await d.settle()
        race = await bot.service.store.get_race(d.gid)
        assert race is not None
        await d.settle()
        base = d.next_ts(1000)
        late = await d.click_board(1, "snap", "slot:0", ts_ms=base + 500)
        await late.wait_followups(1)
        early = await d.click_board(2, "snap", "slot:1", ts_ms=base + 100)
        await early.wait_followups(1)
        assert "judged earliest first" in early.followups[-1]["content"]
        await d.close_windows()
        from engine.core import load_choice

        record = await bot.service.store.get_choices(d.gid)
        winner = load_choice(record[race.version])
        assert (winner.seat, winner.option) == (2, "slot:1")
        await d.settle()
        assert any("Cleo" in m["content"] and "first" in m["content"] for m in server.messages_in(d.where))


async def test_no_private_card_value_in_any_channel_message_or_public_picture(tmp_path, monkeypatch):
    import dataclasses

    from cogs import pictures
    from tests.cogs.driver import play_to_end

    seen_views: list[dict] = []
    real = pictures.PICTURES["omerta"]

    def spy(fn):  # noqa: ANN001, ANN202
        def wrapped(view):  # noqa: ANN001, ANN202
            seen_views.append(view)
            return fn(view)

        return wrapped

    patched = dataclasses.replace(
        real,
        table=spy(real.table),
        on_event={k: (n, spy(f), w) for k, (n, f, w) in real.on_event.items()},
    )
    monkeypatch.setitem(pictures.PICTURES, "omerta", patched)
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        await play_to_end(d)
        private_lines = set()
        for user in (p.ANNA, p.BEN, p.CLEO):
            for m in server.dm_messages(user):
                private_lines |= {line for line in m["content"].splitlines()[1:] if line}
        assert private_lines, "the players got private information"
        for m in server.messages_in(d.where):
            for line in private_lines:
                assert line not in m["content"], f"private line {line!r} in a channel message"
            assert "You drew" not in m["content"] and "You peek" not in m["content"]
    assert seen_views
    for view in seen_views:
        assert view["viewer"] is None and view["look"] is None
        assert view["holding"] is None or view["phase"] == "taken"
        for player in view["players"]:
            # ``moved``: the turn a slot's card was last replaced in, which the log says too; never a card
            assert all(set(slot) == {"index", "empty", "police", "moved"} for slot in player["slots"])
            assert all(type(slot["moved"]) is int for slot in player["slots"])


async def test_idle_reminder_fires_on_the_fake_clock_not_at_once(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        t = await _to_turn(d)
        active = d.user_of_seat(t.prompts()[0].seat)
        play = bot.get_cog("Play")
        assert await play.send_reminders() == 0  # the turn just started: no reminder
        clock.now += bot.settings.reminder_first_s - 60
        assert await play.send_reminders() == 0
        clock.now += 120
        assert await play.send_reminders() == 1
        reminder = server.last_message(d.where)
        assert f"<@{active['id']}>" in reminder["content"] and "is waiting for you" in reminder["content"]
        assert [m["id"] for m in reminder["mentions"]] == [active["id"]]
        assert await play.send_reminders() == 0  # then daily, not again at once
        clock.now += bot.settings.reminder_repeat_s
        assert await play.send_reminders() == 1
        assert "again" in server.last_message(d.where)["content"]
