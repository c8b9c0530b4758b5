"""``/me`` and ``/away`` (issue 23, "Games that keep going for weeks"): a person's own settings, privately, in a
server or the bot's DM: their time zone, quiet hours (no pings or DMs then), where they are told it is their move,
a daily digest by DM, and an away time the boards show. The daily digest is sent from here (a loop as the
reminders' one). What the table does with them is the service's (``service/people.py``)."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.contexts import in_servers_and_dm
from cogs.errors import one_round
from cogs.langs import reader_lang
from cogs.overview import games_text
from cogs.publish.common import message_nonce
from engine.msg import M, Msg
from service import ServiceError
from service.quiet import clock_text, quiet_until, zone, zones_like
from store import PersonRow
from words import LANG_NAMES, Words, words

if TYPE_CHECKING:
    from bot import TableBot

log = logging.getLogger(__name__)

TOLD = {
    "ping": M("table.me.told_ping", "a ping in the game's channel"),
    "dm": M("table.me.told_dm", "a DM"),
    "both": M("table.me.told_both", "a ping in the game's channel and a DM"),
}
DIGEST_TITLE = M("table.me.digest_title", "Your games waiting for you")


def settings_text(person: PersonRow, lang_seen: str | None, now: float, w: Words) -> str:
    """``/me``'s answer: every setting as it is now."""
    local = datetime.fromtimestamp(now, zone(person.tz)).strftime("%H:%M")
    lines = [w(M("table.me.head", "**Your settings**"))]
    lines.append(w(M("table.me.tz", "Time zone: {tz} (it is {time} there now)", tz=person.tz, time=local)))
    if person.quiet_start is not None and person.quiet_end is not None:
        quiet: Msg = M(
            "table.me.quiet",
            "Quiet hours: {start} to {end} (no pings or DMs then; your deadlines keep running)",
            start=clock_text(person.quiet_start),
            end=clock_text(person.quiet_end),
        )
        if quiet_until(person, now) is not None:
            quiet = M("table.me.quiet_now", "{quiet}, now", quiet=quiet)
    else:
        quiet = M("table.me.quiet_none", "Quiet hours: none")
    lines.append(w(quiet))
    lines.append(w(M("table.me.told", "Told it is your move by: {how}", how=TOLD[person.notify])))
    digest = M("table.me.digest_on", "on") if person.digest else M("table.me.digest_off", "off")
    lines.append(w(M("table.me.digest", "Daily digest by DM of the games waiting for you: {state}", state=digest)))
    heads = M("table.me.digest_on", "on") if person.heads_up else M("table.me.digest_off", "off")
    lines.append(w(M("table.me.heads_up", "A DM when the player before you begins their turn: {state}", state=heads)))
    if person.hidden:
        shown = M("table.me.profile_hidden", "Profile: hidden (only you see it; you are off the leaderboards)")
    else:
        shown = M("table.me.profile_shown", "Profile: shown (others may look; you are on the leaderboards)")
    lines.append(w(shown))
    if lang_seen:
        lang = M(
            "table.me.lang",
            "Language: {lang} (your Discord language; change it in Discord's settings)",
            lang=LANG_NAMES[lang_seen],
        )
    else:
        lang = M("table.me.lang_table", "Language: each table's own (the bot does not speak your Discord language)")
    lines.append(w(lang))
    if person.away_until is not None and person.away_until > now:
        lines.append(w(M("table.me.away", "Away until <t:{at}:f> (/away off ends it)", at=int(person.away_until))))
    else:
        lines.append(w(M("table.me.not_away", "Away: no (/away until:3d)")))
    return "\n".join(lines)


class PeopleCog(commands.Cog, name="People"):
    """A person's own settings, and the daily digest."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.digest_task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        """Start the daily digest's loop."""
        self.digest_task = asyncio.create_task(self._digest_loop())

    async def cog_unload(self) -> None:
        """Stop it."""
        if self.digest_task is not None:
            self.digest_task.cancel()

    async def _digest_loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            await one_round("sending daily digests", self.send_digests, log)
            await asyncio.sleep(self.bot.settings.reminder_poll_s)

    async def send_digests(self) -> int:
        """Send the daily digests that are due (the service claims each: with several processes, one sends it);
        returns how many were sent. Someone whose DMs are closed misses it (the digest is a convenience)."""
        service = self.bot.service
        overview = self.bot.get_cog("Overview")
        sent = 0
        for user_id, games in await service.due_digests():
            lang = await self.bot.langs.of(service.store, user_id, "en")
            w = words(lang)
            names = await overview.server_names(g.guild_id for g in games) if overview else {}  # type: ignore[attr-defined]
            embed = discord.Embed(title=w(DIGEST_TITLE), description=games_text(games, names.get, lang))
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                day = int(service.clock() // 86400)
                await user.send(embed=embed, nonce=message_nonce("digest", user_id, day))
                sent += 1
            except discord.Forbidden:
                log.info("the daily digest of user %s was not sent: their DMs are closed", user_id)
        return sent

    async def _reply(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @in_servers_and_dm()
    @app_commands.command(name="me", description="Your settings: time zone, quiet hours, how you are told, digest")
    @app_commands.describe(
        time_zone="Your time zone, such as Europe/Berlin",
        quiet_start="When your quiet hours start, such as 22:00 (off: no quiet hours)",
        quiet_end="When they end, such as 08:00",
        told_by="How you are told it is your move",
        digest="A daily DM listing the games waiting for you",
        heads_up="A DM when the player before you begins their turn",
        hide_profile="Keep your profile to yourself and stay off the leaderboards",
    )
    @app_commands.choices(
        told_by=[
            app_commands.Choice(name="ping", value="ping"),
            app_commands.Choice(name="dm", value="dm"),
            app_commands.Choice(name="both", value="both"),
        ]
    )
    async def me(
        self,
        interaction: discord.Interaction,
        time_zone: str | None = None,
        quiet_start: str | None = None,
        quiet_end: str | None = None,
        told_by: str | None = None,
        digest: bool | None = None,
        heads_up: bool | None = None,
        hide_profile: bool | None = None,
    ) -> None:
        """``/me``: without options, the settings as they are; with some, those changed (all checked first: a bad
        one changes nothing and says what is allowed). Private, in a server or the bot's DM."""
        service = self.bot.service
        w = words(reader_lang(interaction))
        user_id = interaction.user.id
        off = any(v is not None and v.strip().lower() in ("off", "none") for v in (quiet_start, quiet_end))
        try:
            given = (time_zone, quiet_start, quiet_end, told_by, digest, heads_up, hide_profile)
            if any(v is not None for v in given):
                person = await service.set_my_settings(
                    user_id,
                    tz=time_zone,
                    quiet_start=None if off else quiet_start,
                    quiet_end=None if off else quiet_end,
                    quiet_off=off,
                    notify=told_by,
                    digest=digest,
                    heads_up=heads_up,
                    hidden=hide_profile,
                )
            else:
                person = await service.my_settings(user_id)
        except ServiceError as exc:
            await self._reply(interaction, w(exc.msg))
            return
        seen = await service.store.get_user_lang(user_id)
        await self._reply(interaction, settings_text(person, seen, service.clock(), w))

    @me.autocomplete("time_zone")
    async def time_zone_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """IANA zone names containing what was typed."""
        return [app_commands.Choice(name=n, value=n) for n in zones_like(current)]

    @in_servers_and_dm()
    @app_commands.command(name="away", description="Be away for a while (the boards say so), or back with off")
    @app_commands.describe(until="3d (days, at most 14), a date such as 2026-12-10 in your time zone, or off")
    async def away(self, interaction: discord.Interaction, until: str) -> None:
        """``/away until:``: privately, in a server or the bot's DM."""
        w = words(reader_lang(interaction))
        try:
            person = await self.bot.service.set_away(interaction.user.id, until)
        except ServiceError as exc:
            await self._reply(interaction, w(exc.msg))
            return
        if person.away_until is None:
            text = M("table.me.back", "You are no longer away.")
        else:
            text = M(
                "table.me.away_set",
                "You are away until <t:{at}:f>. The boards of your games say so from their next move; each table "
                "acts on your deadlines as its away option says (act or pause). /away off ends it.",
                at=int(person.away_until),
            )
        await self._reply(interaction, w(text))
