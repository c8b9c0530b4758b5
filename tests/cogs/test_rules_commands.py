"""``/rules`` and ``/log`` through the fake Discord with the real bot."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot import TableBot
from cogs.rules import MAX_RULE_MESSAGES, RulesCog
from service import rules_text
from tests.cogs.driver import CHANNEL, Clock, Driver, table
from tests.fakediscord import payloads as p
from tests.fakediscord.server import FakeDiscordServer


@contextlib.asynccontextmanager
async def rules_table(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscordServer, TableBot, Clock]]:
    """The bot with the rules cog: loaded here until ``bot.py`` loads it itself, then synced."""
    async with table(tmp_path) as (server, bot, clock):
        if bot.get_cog("Rules") is None:
            await bot.add_cog(RulesCog(bot))
            await bot.tree.sync()
        yield server, bot, clock
        errors = [r.getMessage() for r in server.take_error_logs()]
        assert not errors, errors
        assert not server.unhandled, [f"{r.method} {r.path}" for r in server.unhandled]


def texts(rec) -> list[str]:  # noqa: ANN001
    """The response and every follow-up of an interaction, in order."""
    out = [rec.message] if rec.message is not None else []
    out += [m for m in rec.followups if m["id"] != (rec.message or {}).get("id")]
    return [m["content"] for m in out]


async def test_rules_known_topic_answers_privately_with_the_page_for_players(tmp_path):
    async with rules_table(tmp_path) as (server, _bot, _clock):
        rec = await server.slash(p.ANNA, "rules", {"topic": "Mob War"}, channel_id=CHANNEL)
        assert rec.ephemeral and not rec.followups
        assert rec.content == rules_text.rule_text(rules_text.find("Mob War"))[0]  # type: ignore[arg-type]
        assert rec.content.startswith("**Speakeasy · Mob War**\n")
        assert "Birdie Brown, strength 6 and +1, attacks at 7." in rec.content
        assert rec.content.endswith(
            "-# Source: Speakeasy rulebook, Lucky Luciano Phase: Mob War, Mob War strength, Prepare the next Mob War."
        )
        assert "seed" not in rec.content.lower() and "001:" not in rec.content
        # nothing was posted in the channel
        assert not any("Mob War" in m["content"] for m in server.messages_in(CHANNEL))


async def test_every_page_reaches_the_player_as_one_private_message(tmp_path):
    async with rules_table(tmp_path) as (server, _bot, _clock):
        for topic in rules_text.topics():
            rec = await server.slash(p.CLEO, "rules", {"topic": topic.key}, channel_id=CHANNEL)
            assert rec.ephemeral and not rec.followups, topic.key
            assert rec.content == rules_text.rule_text(topic)[0] and len(rec.content) <= 2000
            assert rec.content.splitlines()[-1].startswith("-# Source: "), topic.key


async def test_rules_by_autocomplete_key_and_game_choice(tmp_path):
    async with rules_table(tmp_path) as (server, _bot, _clock):
        rec = await server.slash(p.BEN, "rules", {"topic": "omerta/the-snap", "game": "omerta"}, channel_id=CHANNEL)
        assert rec.ephemeral and rec.content.startswith("**Omerta · The snap**\n")
        turn = await server.slash(p.BEN, "rules", {"topic": "Your turn", "game": "omerta"}, channel_id=CHANNEL)
        assert turn.ephemeral and turn.content.startswith("**Omerta · Your turn**\n")


def long_page(lines: int) -> rules_text.Topic:
    """A page too long for one message (every shipped page fits one: this stands for an edited rules file)."""
    body = tuple(f"Paragraph {i}: " + "words " * 60 for i in range(lines))
    return rules_text.Topic("speakeasy", "Speakeasy", "A long page", "speakeasy/a-long-page", body)


async def test_rules_long_page_sends_follow_ups_at_most_three_then_how_to_narrow(tmp_path, monkeypatch):
    long_topic = long_page(40)
    assert len(rules_text.rule_text(long_topic)) > MAX_RULE_MESSAGES
    monkeypatch.setattr(rules_text, "find", lambda query, game=None, lang=None: long_topic)
    async with rules_table(tmp_path) as (server, _bot, _clock):
        rec = await server.slash(p.ANNA, "rules", {"topic": long_topic.key}, channel_id=CHANNEL)
        await rec.wait_followups(MAX_RULE_MESSAGES - 1)
        sent = texts(rec)
        assert len(sent) == MAX_RULE_MESSAGES
        assert rec.ephemeral and all(m["ephemeral"] for m in rec.followups)
        assert all(len(t) <= 2000 for t in sent)
        assert "There is more" in sent[-1] and "/rules topic:" in sent[-1], sent[-1]


async def test_rules_two_message_page_sends_one_follow_up(tmp_path, monkeypatch):
    two = long_page(8)
    assert len(rules_text.rule_text(two)) == 2
    monkeypatch.setattr(rules_text, "find", lambda query, game=None, lang=None: two)
    async with rules_table(tmp_path) as (server, _bot, _clock):
        rec = await server.slash(p.ANNA, "rules", {"topic": two.key}, channel_id=CHANNEL)
        await rec.wait_followups(1)
        assert texts(rec) == rules_text.rule_text(two)


async def test_rules_unknown_topic_answers_with_close_matches(tmp_path):
    async with rules_table(tmp_path) as (server, _bot, _clock):
        rec = await server.slash(p.ANNA, "rules", {"topic": "Mob Wor"}, channel_id=CHANNEL)
        assert rec.ephemeral
        assert "Close matches" in rec.content and "Speakeasy · Mob War" in rec.content
        nothing = await server.slash(p.ANNA, "rules", {"topic": "qqqq"}, channel_id=CHANNEL)
        assert nothing.ephemeral and "No rules topic matches" in nothing.content
        wrong_game = await server.slash(
            p.ANNA, "rules", {"topic": "Cook the Books", "game": "omerta"}, channel_id=CHANNEL
        )
        assert wrong_game.ephemeral and "in Omerta" in wrong_game.content


async def test_rules_autocomplete_returns_at_most_25_matching_choices(tmp_path):
    async with rules_table(tmp_path) as (server, _bot, _clock):
        every = await server.autocomplete(p.ANNA, "rules", {"topic": ""}, focused="topic")
        assert len(every) == 25
        mob = await server.autocomplete(p.ANNA, "rules", {"topic": "mob war"}, focused="topic")
        assert 0 < len(mob) <= 25
        assert mob[0]["name"] == "Speakeasy · Mob War" and mob[0]["value"] == "speakeasy/mob-war"
        for choice in mob:
            assert len(choice["name"]) <= 100 and len(choice["value"]) <= 100
            topic = rules_text.topic_by_key(choice["value"])
            assert topic is not None and topic in rules_text.search("mob war")
        only_omerta = await server.autocomplete(p.ANNA, "rules", {"topic": "s", "game": "omerta"}, focused="topic")
        assert only_omerta and all(c["name"].startswith("Omerta · ") for c in only_omerta)


async def test_log_answers_privately_with_the_recent_moves(tmp_path):
    async with rules_table(tmp_path) as (server, bot, clock):
        none_yet = await server.slash(p.ANNA, "log", channel_id=CHANNEL)
        await none_yet.wait_followups(1)
        assert none_yet.ephemeral and "Which game?" in none_yet.followups[-1]["content"]

        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        rec = await server.slash(p.BEN, "log", channel_id=CHANNEL)
        await rec.wait_followups(1)
        answer = rec.followups[-1]
        assert answer["ephemeral"] and rec.ephemeral
        t = await d.load()
        lines = await bot.service.public_log(t)
        assert answer["content"].startswith(f"**Game #{gid} · Omerta**")
        assert lines and lines[-1] in answer["content"]
        by_id = await server.slash(p.DAN, "log", {"game": gid}, channel_id=CHANNEL)
        await by_id.wait_followups(1)
        assert by_id.followups[-1]["content"] == answer["content"]
        missing = await server.slash(p.DAN, "log", {"game": gid + 99}, channel_id=CHANNEL)
        await missing.wait_followups(1)
        assert f"no game #{gid + 99}" in missing.followups[-1]["content"]


async def test_a_german_reader_gets_the_german_page_and_finds_bandenkrieg(tmp_path):
    """Issue 24: ``/rules`` follows the reader's language (the page, the search, the suggestions)."""
    async with rules_table(tmp_path) as (server, _bot, _clock):
        server.set_locale(p.ANNA, "de")
        rec = await server.slash(p.ANNA, "rules", {"topic": "Bandenkrieg"}, channel_id=CHANNEL)
        page = rules_text.find("Bandenkrieg", lang="de")
        assert page is not None and page.lang == "de"
        assert rec.ephemeral and rec.content == rules_text.rule_text(page)[0]
        assert rec.content.startswith("**Speakeasy · Bandenkrieg**\n")
        found = await server.autocomplete(p.ANNA, "rules", {"topic": "bandenkrieg"}, focused="topic")
        assert found and found[0]["name"] == "Speakeasy · Bandenkrieg"
        english = await server.slash(p.BEN, "rules", {"topic": "Mob War"}, channel_id=CHANNEL)
        assert english.content.startswith("**Speakeasy · Mob War**\n")  # each reader their own language


async def test_in_a_games_thread_its_topics_come_first_and_none_is_cut(tmp_path):
    """Issue 24: the two games have 30 topics, Discord shows 25: in a Speakeasy game's thread every Speakeasy
    topic is offered (first), in an Omerta thread every Omerta topic."""
    async with rules_table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        offered = await server.autocomplete(p.ANNA, "rules", {"topic": ""}, focused="topic", channel_id=d.where)
        speakeasy = [t.key for t in rules_text.topics("speakeasy")]
        assert [c["value"] for c in offered[: len(speakeasy)]] == speakeasy
        o = Driver(server, bot, clock, [p.CLEO, p.DAN, p.BEN])
        await o.open_and_start()
        offered = await server.autocomplete(p.CLEO, "rules", {"topic": ""}, focused="topic", channel_id=o.where)
        omerta = [t.key for t in rules_text.topics("omerta")]
        assert [c["value"] for c in offered[: len(omerta)]] == omerta


async def test_commands_in_a_finished_games_thread_know_their_game(tmp_path):
    """Issue 24: ``/log`` in a finished game's own thread shows that game (it used to ask "Which game?")."""
    async with rules_table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        rec = await server.slash(p.ANNA, "game abandon", {"game": gid}, channel_id=CHANNEL)
        await rec.wait_followups(1)
        await d.settle()
        assert (await d.load()).row.status == "abandoned"
        log = await server.slash(p.DAN, "log", channel_id=d.where)
        await log.wait_followups(1)
        assert log.followups[-1]["content"].startswith(f"**Game #{gid} · Omerta**")
        elsewhere = await server.slash(p.DAN, "log", channel_id=CHANNEL)  # the parent channel: which one?
        await elsewhere.wait_followups(1)
        assert "Which game?" in elsewhere.followups[-1]["content"]
