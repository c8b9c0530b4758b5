"""Speakeasy at the Discord table, through the fake Discord with the real, unpatched bot (issue "Speakeasy at the
Discord table"): a solo game against Jo and a 3-player game from the lobby to the final scores, a restart in the
middle of a Mob War, undo, the safe screen in a private thread when DMs are closed, and the idle reminder."""

from __future__ import annotations

import dataclasses
import json

import pytest

from service import ServiceError, User
from tests.cogs.checks import check_end_pings_everyone, check_story, opening_messages
from tests.cogs.driver import CHANNEL, Driver, answer, ids_of, play_speakeasy, quick_option, table
from tests.cogs.test_end_in_order import check_end_in_order
from tests.cogs.test_end_in_order import posts_in as end_posts_in
from tests.fakediscord import payloads as p

pytestmark = pytest.mark.slow


def _spy_pictures(monkeypatch, seen: list[dict], befores: list | None = None) -> None:  # noqa: ANN001
    """Record every view a public picture is drawn from (and, in ``befores``, the marks the board pictures are
    compared with)."""
    from cogs import pictures

    real = pictures.PICTURES["speakeasy"]

    def spy(fn):  # noqa: ANN001, ANN202
        def wrapped(view, *args):  # noqa: ANN001, ANN002, ANN202
            seen.append(view)
            if args and befores is not None:
                befores.append(args[0])
            return fn(view, *args)

        return wrapped

    patched = dataclasses.replace(
        real,
        table=spy(real.table),
        pictures=spy(real.pictures),
        on_event={k: (n, spy(f), w) for k, (n, f, w) in real.on_event.items()},
    )
    monkeypatch.setitem(pictures.PICTURES, "speakeasy", patched)


async def test_complete_solo_game_against_jo_from_lobby_to_rank(tmp_path, monkeypatch):
    seen: list[dict] = []
    _spy_pictures(monkeypatch, seen)
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA])
        gid = await d.open_and_start("difficulty=1", game="speakeasy")
        t = await d.load()
        assert [pl.name for pl in t.state.players] == ["Anna", "Jo"]
        await play_speakeasy(d)
        t = await d.load()
        assert t.row.status == "finished" and t.state.year == 1933
        await check_story(d)
        assert all("Jo's turn:**" in m for m in opening_messages(d, "Anna")[1:] if "Since your last turn" in m)
        public = "\n".join(m["content"] for m in server.messages_in(d.where))
        alt = "\n".join(a.get("description") or "" for m in server.messages_in(d.where) for a in m["attachments"])
        assert "Jo (Easy)" in alt  # Jo on the board, in the words a screen reader reads
        assert any("Jo flips card" in line for line in await bot.service.public_log(t))  # his turns in the log
        assert "· rank: " in public  # the solo rank, in the final message
        await check_end_pings_everyone(d)
        assert "**Final standings**" in public and "\nJo: " in public  # Jo's money by source too
        assert gid == t.id
        # issue 24: a round's first turn, played by Jo inside one move, is posted under a title naming his turn
        # (it said "Act 1, round 2 (1922). Turn order: Jo, Anna", nobody's turn)
        titles = [m["content"].split("\n")[0] for m in server.messages_in(d.where)]
        passed = [t for t in titles if t.startswith(f"**Game #{gid} · ") and " · Speakeasy · " not in t]
        assert any(t.endswith("Jo's turn**") for t in passed) and not any("Turn order" in t for t in passed), passed
        # Jo's deck order is never public: pictures get counts only, and no message lists his cards to come.
        left = t.state.jo.deck
        assert all(set(v["jo"]) >= {"deck_count"} and "deck" not in v["jo"] for v in seen)
        if len(left) > 1:
            assert ", ".join(left) not in public and " ".join(left) not in public
        # issue 24, the end in order, and Jo's last turn told before the final message
        got = await check_end_in_order(d)
        assert "\nJo: " in got["final"]["content"] and "· rank: " in got["final"]["content"]


@pytest.mark.slow
async def test_complete_four_player_game_tells_the_story_and_no_secret_in_public(tmp_path, monkeypatch):
    """Issue "The channel tells the story": every public line reaches the thread, finished turns are summaries
    without buttons, whoever must act is mentioned in a new message (nobody else), a returning player's turn
    opens with the other turns since theirs; and no private line reaches the channel."""
    seen: list[dict] = []
    befores: list = []
    _spy_pictures(monkeypatch, seen, befores)
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO, p.DAN])
        await d.open_and_start(game="speakeasy")
        await play_speakeasy(d)
        t = await d.load()
        assert t.row.status == "finished"
        result = t.result()
        assert result is not None and len(result.scores) == 4
        counts = await check_story(d)
        assert counts["turns"] >= 4 * 11
        # Issue "deciding well": a private question in a player's own turn comes as the answer to their click;
        # "My options" is needed only out of turn (a Mob War defence)
        assert not [kind for _seat, own, kind in d.mine_presses if own], d.mine_presses
        # each of Ben's turns opens with the turns the others played since his last one
        opened = opening_messages(d, "Ben")
        turns = [e for e in await bot.service.store.get_events(d.gid, public_only=True) if e.kind == "turn"]
        bens = [i for i, e in enumerate(turns) if json.loads(e.data).get("seat") == 1]
        assert len(opened) == len(bens) >= 12
        for k in range(1, len(bens)):
            between = {turns[i].text.rstrip(".") for i in range(bens[k - 1] + 1, bens[k])}
            block = opened[k].split("Since your last turn:")[1] if "Since your last turn:" in opened[k] else ""
            assert all(f"**{t}:**" in block for t in between) or "/game log" in block, opened[k]
        public = [m["content"] for m in server.messages_in(d.where)]
        assert any("Final scoring" in c for c in public)
        await check_end_pings_everyone(d)
        # the final message: standings, every tie explained, each player's money by source (issue 11)
        final = next(c for c in public if "**Final standings**" in c)
        assert "**Where the money came from**" in final
        view = t.view(None)
        assert all(f"{p['name']}: " in final and f"= ${p['final']['total']}" in final for p in view["players"])
        assert final.count("Tie at $") == len(view["standings"]["ties"])
        # Every line of every player's private screen or private note stays out of the channel.
        private = set()
        for user in (p.ANNA, p.BEN, p.CLEO):
            for m in server.dm_messages(user):
                private |= {line.strip() for line in m["content"].splitlines()[1:] if len(line.strip()) > 12}
        assert private, "the players got their safe screens"
        for content in public:
            for line in private:
                assert line not in content, f"private line {line!r} in a channel message"
            assert "your safe" not in content.lower()
        # issue 12: the board is two pictures (the city, the table) on one message; the marks of what they show
        # are kept with the message, and the next pictures are drawn against them (what changed is outlined)
        names = [[a["filename"] for a in m["attachments"]] for m in server.messages_in(d.where) if m["attachments"]]
        boards = [n for n in names if n != ["final.png"]]
        assert len(boards) > 40 and all(n[:2] == ["city.png", "table.png"] for n in boards), names[:5]
        # issue 24: a third picture, the panels that changed, when something did since the last pictures
        assert all(n[2:] in ([], ["changes.png"]) for n in boards) and boards[0] == ["city.png", "table.png"]
        assert sum(n[2:] == ["changes.png"] for n in boards) > len(boards) // 2
        row = await bot.service.store.get_message(d.gid, "board")
        assert row is not None and "ship:1:" in " ".join(json.loads(row.data)["marks"])
        # the first message's pictures (and its edits', issue 24) have nothing before them; every later one is drawn
        # against the pictures before its turn
        first_marked = next(i for i, b in enumerate(befores) if b)
        assert befores[0] is None and all(b for b in befores[first_marked:])
        # issue 24, the end in order (tests/cogs/test_end_in_order.py: the checks; this game is played once)
        got = await check_end_in_order(d)
        assert [a["filename"] for a in got["final"]["attachments"]] == ["final.png"]
        end_posts = [
            r for r in end_posts_in(d, d.where) if "Final scoring**" in str(r.json.get("content")).split("\n")[0]
        ]
        assert not end_posts  # the end's lines are said once, in the final message: not one message each
    assert seen
    for view in seen:
        assert view["seat"] is None
        for player in view["players"]:
            assert "safe" not in player and "hand" not in player and "screen" not in player


@pytest.mark.slow
async def test_restart_in_a_mob_war_the_pending_defence_still_works(tmp_path):
    from tests.cogs.driver import Clock, bot_on
    from tests.fakediscord.fixtures import fake_server

    clock = Clock()
    db = tmp_path / "restart.sqlite3"
    async with fake_server(heartbeat_interval_ms=30_000) as server:
        async with bot_on(server, db, clock) as bot:
            d = Driver(server, bot, clock, [p.ANNA, p.BEN])
            # settle=off: every defence is asked, so the first Mob War brings one however the safe stands
            await d.open_and_start("settle=off", game="speakeasy")
            await play_speakeasy(d, until=lambda t: any(pr.kind == "defend" for pr in t.prompts()))
            t = await d.load()
            defend = next(pr for pr in t.prompts() if pr.kind == "defend")
            before = await bot.service.store.get_choices(d.gid)
            board = await d.board()
        async with bot_on(server, db, clock) as bot2:
            d.bot = bot2
            assert await bot2.service.store.get_choices(d.gid) == before
            option = quick_option(defend)
            # A defence offers what the safe can pay, so it is private by its kind: the old board's "My options"
            # button still opens it after the restart.
            assert defend.secret
            t = await d.load()
            mine = f"pm|{d.gid}|{t.version}"
            assert mine in ids_of(server.message(board["id"]))
            opened = await server.click(d.user_of_seat(defend.seat), board["id"], mine, ts_ms=d.next_ts())
            rec = await d.click_private(opened, defend.seat, "defend", option)
            await rec.wait_callback()
            if any(i.endswith("|!") for i in ids_of(rec.message)):  # a risky step asks to confirm first
                rec = await d.confirm(rec, defend.seat)
            await d.done(rec, len(before))  # a quiet click: the board shows it
            assert len(await bot2.service.store.get_choices(d.gid)) == len(before) + 1


async def test_undo_back_to_and_not_past_a_revealed_card(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        await play_speakeasy(d, until=lambda t: t.state.phase == "play" and t.prompts()[0].kind == "place")
        t = await d.load()
        seat = t.prompts()[0].seat
        await answer(d, seat, "place", "first", False)  # Lucky's table: first place (then Sell or a Party card)
        await d.settle()
        board = await d.board()
        assert any(i.startswith(f"un|{d.gid}|") for i in ids_of(board))
        undo = next(i for i in ids_of(board) if i.startswith(f"un|{d.gid}|"))
        version = (await d.load()).version
        rec = await server.click(d.user_of_seat(seat), board["id"], undo, ts_ms=d.next_ts())
        await d.done(rec, version)
        await d.settle()
        t = await d.load()
        assert t.prompts()[0].kind == "place" and t.prompts()[0].seat == seat
        # quiet (the board says it): a reply only asks the player's question again, where the thumb is (issue 24)
        assert all(any(i.split("|")[3:4] == ["place"] for i in ids_of(m)) for m in rec.followups), rec.followups
        assert any("takes back" in m["content"] for m in server.messages_in(d.where))
        # Finish the turn: the end-of-turn draw reveals the next card; nothing before it can be taken back.
        await play_speakeasy(d, until=lambda t: t.prompts()[0].seat != seat)
        t = await d.load()
        with pytest.raises(ServiceError, match="taken back|revealed|own steps|nothing"):
            await bot.service.undo(d.gid, User(int(d.user_of_seat(seat)["id"]), "Anna"))


async def test_safe_screen_goes_to_a_private_thread_when_dms_are_closed(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        server.fail_dm(p.BEN)
        await d.open_and_start(game="speakeasy")

        def screen_in_thread() -> bool:
            return any("safe screen" in m["content"] for th in server.threads() for m in server.messages_in(th["id"]))

        await server.wait_until(screen_in_thread, 5, what="Ben's safe screen in a private thread")
        thread = next(th for th in server.threads() if "Ben (private)" in th["name"])
        assert thread["type"] == 12
        await server.wait_until(lambda: any("safe screen" in m["content"] for m in server.dm_messages(p.ANNA)), 5)
        # The screen is one message, edited as the game goes on.
        before = [m for m in server.dm_messages(p.ANNA) if "safe screen" in m["content"]]
        await play_speakeasy(d, until=lambda t: t.state.phase == "play")
        after = [m for m in server.dm_messages(p.ANNA) if "safe screen" in m["content"]]
        assert len(after) == len(before) == 1


async def test_idle_reminder_on_the_fake_clock_not_at_once(tmp_path):
    """A table without a deadline: the global timer (``reminder_first_s``)."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start("deadline=none", game="speakeasy")
        play = bot.get_cog("Play")
        assert await play.send_reminders() == 0
        clock.now += bot.settings.reminder_first_s + 1
        assert await play.send_reminders() == 1
        assert await play.send_reminders() == 0


async def test_a_new_speakeasy_table_reminds_half_way_to_its_48h_deadline_and_shows_it(tmp_path):
    """Issue 23: a new Speakeasy table gets ``deadline=48h``; the board shows when the time runs out (a Discord
    relative time), the reminder comes half-way (24 h) and says when the time runs out; then the bot plays for
    the player at the deadline (``on_timeout=bot``) and the log says so."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        t = await d.load()
        waited = {s.user_id for s in t.seats if t.prompts_for(s.seat)}
        board = server.last_message(d.where)
        assert board is not None and f"time runs out <t:{int(clock.now + 48 * 3600)}:R>" in board["content"]
        play = bot.get_cog("Play")
        clock.now += 24 * 3600 - 1
        assert await play.send_reminders() == 0
        clock.now += 1
        assert await play.send_reminders() == len(waited)
        reminder = server.last_message(d.where)
        assert reminder is not None and "Your time runs out <t:" in reminder["content"]
        clock.now += 24 * 3600
        assert await play.fire_deadlines() >= 1
        await d.settle()
        log = [e.text for e in await bot.service.store.get_events(d.gid)]
        assert any("time ran out: the bot plays for" in line for line in log)


async def test_player_board_on_demand_shows_secrets_only_to_their_owner(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        mine = await server.slash(p.ANNA, "board", {}, channel_id=CHANNEL)
        await mine.wait_followups(1)
        assert mine.followups[-1]["ephemeral"] and "player.png" in mine.followups[-1]["files"]
        clock.now += bot.settings.board_cooldown_s  # one picture per player per cooldown (issue 22)
        theirs = await server.slash(p.ANNA, "board", {"player": p.BEN["id"]}, channel_id=CHANNEL)
        await theirs.wait_followups(1)
        assert "Ben's board" in theirs.followups[-1]["content"] and "player.png" in theirs.followups[-1]["files"]
        assert mine.followups[-1]["files"]["player.png"] != theirs.followups[-1]["files"]["player.png"]


async def test_a_mob_war_with_three_buildings_is_decided_in_one_message(tmp_path):
    """Issue "deciding well": one decision per player in a Mob War. A recorded opening (played through the
    service) brings Cleo to a Mob War with three buildings in the district; her private answer shows one menu of
    plans, and one pick (confirmed, as it loses buildings) answers all three."""
    from engine.core import dump_choice
    from tests.service.positions import THREE_BUILDINGS_SEED, three_building_war

    _state, opening = three_building_war()
    async with table(tmp_path) as (server, bot, clock):
        bot.service.seeds = lambda: THREE_BUILDINGS_SEED
        users = [p.ANNA, p.BEN, p.CLEO, p.DAN]
        d = Driver(server, bot, clock, users)
        await d.open_and_start(game="speakeasy")
        for choice in opening:
            t = await d.load()
            who = User(int(users[choice.seat]["id"]), users[choice.seat]["global_name"])
            await bot.service.act(d.gid, who, t.version, choice.kind, choice.option)
        await d.settle()
        t = await d.load()
        (defend,) = t.prompts()
        assert (defend.seat, defend.kind, defend.secret) == (2, "defend", True)
        # a Mob War defence is out of turn: "My options" on the board opens it
        board = await d.board()
        mine = await server.click(p.CLEO, board["id"], f"pm|{d.gid}|{t.version}", ts_ms=d.next_ts())
        await mine.wait_followups(1)
        menu = next(c for c in _components(mine.followups[-1]) if c.get("custom_id", "").endswith("|defend|99"))
        assert menu["placeholder"] == "Decide all 3 at once…"
        entries = {o["value"]: o for o in menu["options"]}
        plan = next(v for v in entries if v.count("+") == 2 and v.startswith("defend:"))
        assert entries[plan]["label"].startswith("Save the ") and "lose 2 of 3" in entries[plan]["description"]
        pick = await server.click(p.CLEO, mine.followups[-1]["id"], menu["custom_id"], values=[plan], ts_ms=d.next_ts())
        done = await d.done(await d.confirm(pick, 2), t.version)
        assert done is not None
        choices = await bot.service.store.get_choices(d.gid)
        assert choices[t.version :] == [dump_choice(c) for c in parse_plan_choices(plan)]
        after = await d.load()
        assert not any(pr.seat == 2 and pr.group == defend.group for pr in after.prompts())


def _components(message: dict) -> list[dict]:
    out = []
    for row in message.get("components", []):
        out += row.get("components", [])
    return out


def parse_plan_choices(plan: str) -> list:
    from engine.core import Choice

    return [Choice(2, "defend", part) for part in plan.split("+")]
