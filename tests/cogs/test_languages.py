"""Issue 15, who reads which language, end to end through the fake Discord: a table speaks its server's language
(German or English, else English) in public; each player's ephemeral replies and DMs are in their own Discord
locale (remembered for what is sent later); the slash commands are synced with German names and descriptions."""

from __future__ import annotations

import json
from typing import Any

from cogs.publish import private_lines
from cogs.translator import NAME_RULE, command_terms
from engine.msg import M
from service.records import private_body
from tests.cogs.driver import CHANNEL, Driver, answer, ids_of, table
from tests.fakediscord import payloads as p
from tests.words.scan import english_words
from words import words


async def _open(d: Driver, options: str = "") -> int:
    """The host opens an Omerta table with ``/game new`` (in any language), the others join by button, the host
    starts; returns the game id (read from the store, not from the lobby's words)."""
    host, *others = d.users
    opts = {"game": "omerta"} | ({"options": options} if options else {})
    rec = await d.server.slash(host, "game new", opts, channel_id=CHANNEL)
    await rec.wait_followups(1)
    (t,) = await d.bot.service.list_games(p.GUILD_ID, CHANNEL)
    d.gid = t.id
    lobby = await d.bot.service.store.get_message(d.gid, "lobby")
    assert lobby is not None
    for user in others:
        join = await d.server.click(user, lobby.message_id, f"lb|{d.gid}|join")
        await join.wait_followups(1)
    start = await d.server.click(host, lobby.message_id, f"lb|{d.gid}|start")
    await start.wait_followups(1)
    await d.settle()
    d.where = (await d.load()).row.table_channel
    return d.gid


def _reply(rec: Any) -> str:
    return str(rec.followups[-1]["content"])


async def test_a_german_table_where_one_player_reads_english(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        server.set_guild_locale("de")
        server.set_locale(p.ANNA, "de")
        server.set_locale(p.BEN, "en-US")
        server.set_locale(p.CLEO, "de")
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await _open(d)
        t = await d.load()
        assert json.loads(t.row.options)["lang"] == "de" and t.lang == "de"
        # the public board: German words, German buttons
        board = await d.board()
        assert f"**Spiel #{gid} · Omerta" in board["content"]
        labels = [c.get("label") for row in board["components"] for c in row.get("components", [])]
        assert "Meine Optionen" in labels and "My options" not in labels
        lobby = server.message((await bot.service.store.get_message(gid, "lobby")).message_id)
        assert lobby["content"].startswith(f"**Spiel #{gid} · Omerta** (gestartet)")
        # the same refusal, each in the reader's language: a click on a question that is not theirs
        waiting = {pr.seat for pr in t.prompts() if pr.kind == "peek"}
        assert waiting, "Omerta starts with everyone peeking"
        # the players answer their peeks; then whoever is not asked clicks the board
        for seat in sorted(waiting):
            pr = next(pr for pr in (await d.load()).prompts_for(seat) if pr.kind == "peek")
            await answer(d, seat, "peek", pr.options[0].id, pr.secret)
        await d.settle()
        t = await d.load()
        asked = {pr.seat for pr in t.prompts() if pr.seat >= 0 and not pr.optional}
        idle = [s for s in range(3) if s not in asked]
        assert idle, "someone is not asked on the second turn"
        board = await d.board()
        # a plain (not risky) option: a risky one would first ask to confirm
        button = next(
            c["custom_id"]
            for row in board["components"]
            for c in row.get("components", [])
            if c.get("custom_id", "").startswith("pl|") and c.get("style") != 4
        )
        replies = {}
        for seat in idle:
            rec = await server.click(d.user_of_seat(seat), board["id"], button, ts_ms=d.next_ts())
            await rec.wait_followups(1)
            replies[seat] = _reply(rec)
            assert rec.followups[-1]["ephemeral"]
        english = ("Nothing to decide for you now", "That button is not for the question")
        german = ("Du hast gerade nichts zu entscheiden", "Dieser Knopf gehört nicht zu der Frage")
        for seat, text in replies.items():
            assert text.startswith(english if d.user_of_seat(seat) is p.BEN else german), (seat, text)
        german_replies = [text for seat, text in replies.items() if d.user_of_seat(seat) is not p.BEN]
        # the English player's own slash command replies are English, the German host's German
        ben = await server.slash(p.BEN, "game skip", {"game": gid}, channel_id=CHANNEL)
        assert (
            _reply_of(await ben.wait_followups(1)) == f"Only the host or a server admin can skip a turn in game #{gid}."
        )
        cleo = await server.slash(p.CLEO, "game skip", {"game": gid}, channel_id=CHANNEL)
        want = f"Nur der Host oder ein Server-Admin kann in Spiel #{gid} einen Zug überspringen."
        assert _reply_of(await cleo.wait_followups(1)) == want
        anna = await server.slash(p.ANNA, "log", {"game": gid}, channel_id=CHANNEL)
        assert f"**Spiel #{gid} · Omerta** · Protokoll, Seite" in _reply_of(await anna.wait_followups(1))
        ben_log = await server.slash(p.BEN, "log", {"game": gid}, channel_id=CHANNEL)
        assert f"**Game #{gid} · Omerta** · log, page" in _reply_of(await ben_log.wait_followups(1))
        # a line the table writes itself (the host's skip) reaches the German board in German, and the host's
        # confirmation and reply are German too
        ask = await server.slash(p.ANNA, "game skip", {"game": gid}, channel_id=CHANNEL)
        (confirm,) = await ask.wait_followups(1)
        assert confirm["content"].startswith("Den Zug von ")
        skip_id = next(i for i in ids_of(confirm) if i.startswith("sk|"))
        done = await server.click(p.ANNA, confirm["id"], skip_id)
        (reply,) = await done.wait_followups(1)
        assert reply["content"].startswith("Zug von ") and "übersprungen" in reply["content"]
        await d.settle()
        assert any("überspringt den Zug von" in m["content"] for m in server.messages_in(d.where))
        # the German scan finds no English in these words of the table layer (names and kept terms pass)
        names = [str(u.get("global_name") or u["username"]) for u in d.users]
        lobby = server.message((await bot.service.store.get_message(gid, "lobby")).message_id)
        mine = [lobby["content"], confirm["content"], reply["content"], want, *german_replies]
        assert [(text, english_words(text, names)) for text in mine if english_words(text, names)] == []
        # private lines sent later (the DMs of the deal) in each reader's remembered language
        assert await bot.service.store.get_user_lang(p.uid(p.BEN)) == "en"
        assert await bot.service.store.get_user_lang(p.uid(p.ANNA)) == "de"
        ben_dms = [m["content"] for m in server.messages_in(server.dm_channel_id(p.BEN))]
        anna_dms = [m["content"] for m in server.messages_in(server.dm_channel_id(p.ANNA))]
        assert ben_dms and all(m.startswith(f"**Game #{gid} · Omerta · your private log**") for m in ben_dms)
        assert anna_dms and all(m.startswith(f"**Spiel #{gid} · Omerta · dein privates Protokoll**") for m in anna_dms)


def _reply_of(followups: list[dict[str, Any]]) -> str:
    return str(followups[-1]["content"])


async def test_new_tables_take_the_servers_language_when_the_bot_speaks_it(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        for guild_locale, given, want in [
            ("en-US", "", "en"),
            ("fr", "", "en"),
            ("de", "", "de"),
            ("fr", "lang=de", "de"),
            ("de", "lang=en", "en"),
        ]:
            server.set_guild_locale(guild_locale)
            opts = {"game": "omerta"} | ({"options": given} if given else {})
            rec = await server.slash(p.ANNA, "game new", opts, channel_id=CHANNEL)
            await rec.wait_followups(1)
            newest = max(await bot.service.list_games(p.GUILD_ID), key=lambda t: t.id)
            assert newest.lang == want, (guild_locale, given)
            abandon = await server.slash(p.ANNA, "game abandon", {"game": newest.id}, channel_id=CHANNEL)
            await abandon.wait_followups(1)
        # a language the bot does not speak is refused like any bad option, and nothing is opened
        before = len(await bot.service.list_games(p.GUILD_ID, open_only=False))
        rec = await server.slash(p.ANNA, "game new", {"game": "omerta", "options": "lang=fr"}, channel_id=CHANNEL)
        (reply,) = await rec.wait_followups(1)
        assert "lang" in reply["content"] and reply["ephemeral"]
        assert len(await bot.service.list_games(p.GUILD_ID, open_only=False)) == before


async def test_slash_commands_are_synced_with_german_names_and_descriptions(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        synced = server.commands[None]
        game = synced["game"]
        assert game["name_localizations"]["de"] == "spiel"
        assert game["description_localizations"]["de"] == "Spieltische eröffnen, ihnen beitreten und sie verwalten"
        new = next(o for o in game["options"] if o["name"] == "new")
        assert new["name_localizations"]["de"] == "neu"
        options = next(o for o in new["options"] if o["name"] == "options")
        assert options["name_localizations"]["de"] == "optionen"
        addbot = next(o for o in game["options"] if o["name"] == "addbot")
        level = next(o for o in addbot["options"] if o["name"] == "level")
        assert {c["name_localizations"]["de"] for c in level["choices"]} == {"leicht", "normal", "schwer"}
        assert synced["hint"]["name_localizations"]["de"] == "tipp"
        # English clients read the decorators' English: no English localisation is sent
        assert "en-US" not in game["name_localizations"] and "en-GB" not in game["name_localizations"]


def test_every_german_command_and_option_name_obeys_discords_rules():
    de = words("de")
    names = [(ctx, english) for ctx, english, _ in command_terms() if ctx.endswith(".name")]
    assert len(names) > 40
    for ctx, english in names:
        assert de.has(ctx, english), f"no German for {ctx}"
        german = de(M(ctx, english))
        assert NAME_RULE.fullmatch(german) and german == german.lower() and " " not in german, (ctx, german)
    # siblings never share a German name (Discord refuses that)
    by_parent: dict[str, list[str]] = {}
    for ctx, english in names:
        parent = ".".join(ctx.split(".")[:-2])
        by_parent.setdefault(parent, []).append(de(M(ctx, english)))
    for parent, group in by_parent.items():
        assert len(group) == len(set(group)), (parent, group)


def test_a_private_line_in_the_outbox_keeps_its_message_for_the_readers_language():
    line = M("omerta.log.draw", "{name} draws a card.", name="Anna")
    body = json.loads(private_body([line, "a plain line"]))
    assert body["lines"] == ["Anna draws a card.", "a plain line"]
    lines = private_lines(body)
    assert [words("de")(x) for x in lines] == ["Anna zieht eine Karte.", "a plain line"]
    assert [words("en")(x) for x in lines] == ["Anna draws a card.", "a plain line"]
    # an entry written before messages were kept: its English, as it was
    assert private_lines({"lines": ["old"]}) == ["old"]


async def test_the_options_of_a_new_table_are_suggested_with_their_help_in_the_typers_language(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        server.set_locale(p.ANNA, "de")
        found = await server.autocomplete(
            p.ANNA, "game new", {"game": "omerta", "options": "snap_window=3 pa"}, focused="options"
        )
        assert [c["value"] for c in found] == ["snap_window=3 pace=post"]
        assert found[0]["name"].startswith("pace=post · live: Schnellabwurf-Fenster von snap_window Sekunden")
        english = await server.autocomplete(p.BEN, "game new", {"game": "speakeasy", "options": ""}, focused="options")
        shown = {c["value"]: c["name"] for c in english}
        assert shown["settle=auto"].startswith("settle=auto · auto: a question with one possible answer")
        assert "snap_window=5" not in shown  # only the chosen game's options
        assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in found + english)


def test_the_fake_discord_refuses_localised_names_discord_would_refuse():
    from fakediscord.server import _localization_problems

    good = {"name": "new", "name_localizations": {"de": "neu"}, "description_localizations": {"de": "Neu"}}
    assert _localization_problems(good, "new") == []
    for bad_name in ("Neu", "neues spiel", "x" * 33, ""):
        bad = {"name": "new", "options": [{"type": 3, "name": "o", "name_localizations": {"de": bad_name}}]}
        assert _localization_problems(bad, "new"), bad_name
    too_long = {"name": "new", "description_localizations": {"de": "x" * 101}}
    assert _localization_problems(too_long, "new")
    # a choice's name may have spaces and capitals
    choice = {
        "name": "level",
        "type": 3,
        "choices": [{"name": "easy", "value": "easy", "name_localizations": {"de": "Sehr Leicht"}}],
    }
    assert _localization_problems({"name": "addbot", "options": [choice]}, "addbot") == []


async def _first_mover_hint(d: Driver, server) -> tuple[int, str]:  # noqa: ANN001
    """Everyone peeks; the player whose turn it is then asks ``/hint``: (their seat, the reply)."""
    t = await d.load()
    for pr in [pr for pr in t.prompts() if pr.kind == "peek"]:
        await answer(d, pr.seat, "peek", pr.options[0].id, pr.secret)
    await d.settle()
    t = await d.load()
    seat = next(pr.seat for pr in t.prompts() if pr.seat >= 0 and pr.kind == "turn")
    rec = await server.slash(d.user_of_seat(seat), "hint", {}, channel_id=d.where)
    return seat, _reply_of(await rec.wait_followups(1))


async def test_a_hint_quotes_the_boards_button_as_the_board_shows_it(tmp_path):
    """Issue 24: at a German table an English reader's hint names the German button that is on the board, with
    its English beside it (it used to name "Draw a card" beside a board that says "Eine Karte ziehen")."""
    async with table(tmp_path) as (server, bot, clock):
        server.set_guild_locale("de")
        server.set_locale(p.ANNA, "en-US")
        server.set_locale(p.BEN, "en-US")
        server.set_locale(p.CLEO, "en-US")
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await _open(d)
        _seat, hint = await _first_mover_hint(d, server)
        assert hint.startswith("Hint: **"), hint
        label = hint.split("**")[1]
        board = await d.board()
        buttons = [c.get("label") or "" for row in board["components"] for c in row.get("components", [])]
        on_board, _, english = label.partition(" (")
        assert on_board in buttons, (label, buttons)
        assert english.endswith(")") and english[:-1] not in buttons  # the reader's words beside the board's
        board = await d.board()
        assert f"/{board['channel_id']}/{board['id']}" in hint  # the hint links the live question


async def test_private_lang_table_makes_private_replies_follow_the_table(tmp_path):
    """Issue 24: ``private_lang=table``: an English reader at a German table gets German private replies (and
    DMs); the default ``reader`` keeps each reader's own language (the test above)."""
    async with table(tmp_path) as (server, bot, clock):
        server.set_guild_locale("de")
        for user in (p.ANNA, p.BEN, p.CLEO):
            server.set_locale(user, "en-US")
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await _open(d, "private_lang=table")
        t = await d.load()
        assert t.private_lang == "table" and t.lang == "de"
        _seat, hint = await _first_mover_hint(d, server)
        assert hint.startswith("Tipp: **") and " (" not in hint.split("**")[1], hint
        log = await server.slash(p.BEN, "log", {"game": gid}, channel_id=CHANNEL)
        assert f"**Spiel #{gid} · Omerta** · Protokoll, Seite" in _reply_of(await log.wait_followups(1))
        dms = [m["content"] for m in server.messages_in(server.dm_channel_id(p.BEN))]
        assert dms and all(m.startswith(f"**Spiel #{gid} · Omerta · dein privates Protokoll**") for m in dms)
