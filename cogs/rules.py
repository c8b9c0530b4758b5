"""``/rules TOPIC`` (the rules for players, by topic: ``data/rules/``) and ``/log`` (a game's recent public moves)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.contexts import in_servers_and_dm
from cogs.dynamic_items import forget
from cogs.langs import reader_lang, reader_words
from cogs.lobby import WHICH_GAME
from cogs.play import user_of
from cogs.publish import clip_message
from engine.msg import M
from service import ServiceError, rules_text
from words import words

if TYPE_CHECKING:
    from bot import TableBot

#: ``/rules`` answers with at most this many messages (the response and its follow-ups).
MAX_RULE_MESSAGES = 3
#: Discord's limits for autocomplete.
MAX_CHOICES = 25
CHOICE_MAX = 100

GAME_CHOICES = [app_commands.Choice(name=title, value=name) for name, title in rules_text.games().items()]

NONE = discord.AllowedMentions.none()


def topic_choice(topic: rules_text.Topic) -> app_commands.Choice[str]:
    """An autocomplete choice: the game and title as name (≤ 100 characters), the topic key as value."""
    name = topic.label if len(topic.label) <= CHOICE_MAX else topic.label[: CHOICE_MAX - 1].rstrip() + "…"
    return app_commands.Choice(name=name, value=topic.key[:CHOICE_MAX])


def overflow_note(topic: rules_text.Topic, lang: str | None = None) -> str:
    """The line that ends a page too long for three messages: where the rest is (every shipped page fits one
    message, so this is a guard for an edited rules file)."""
    return words(lang)(
        M(
            "table.rules.more",
            "-# There is more. Type a word of the rule in `/rules topic:` and pick a narrower topic; the whole page "
            "is in data/rules/{game}.md.",
            game=topic.game,
        )
    )


class RulesCog(commands.Cog, name="Rules"):
    """The rules by topic and a game's public log, both answered privately."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    # --- /rules --------------------------------------------------------------------------------------------

    async def topic_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Topics matching what has been typed, in the reader's language, across both games or the chosen one; in a
        game's channel or thread that game's topics come first (issue 24: Discord shows 25, and the two games have
        more together)."""
        lang = reader_lang(interaction)
        game = getattr(interaction.namespace, "game", None)
        game = game if isinstance(game, str) and game else None
        found = rules_text.search(current, game, lang=lang) if current.strip() else rules_text.topics(game, lang=lang)
        here = None if game else await self._game_name_here(interaction)
        if here is not None:
            found = sorted(found, key=lambda t: t.game != here)  # stable: the best matches stay first within a game
        return [topic_choice(t) for t in found[:MAX_CHOICES]]

    async def _game_name_here(self, interaction: discord.Interaction) -> str | None:
        """The game played in this channel or thread (the newest, if several), or ``None``."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return None
        tables = await self.bot.service.list_games(interaction.guild_id, interaction.channel_id, open_only=False)
        return tables[-1].game.name if tables else None

    @in_servers_and_dm()
    @app_commands.command(name="rules", description="Read the rules as this bot plays them, by topic")
    @app_commands.describe(topic="A rule topic, e.g. Mob War or The snap", game="Only this game's topics")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(topic=topic_autocomplete)
    async def rules(
        self, interaction: discord.Interaction, topic: str, game: app_commands.Choice[str] | None = None
    ) -> None:
        """``/rules``: the topic's page for players, privately (one message; at most three if a page grows)."""
        game_name = game.value if game is not None else None
        lang = reader_lang(interaction)  # issue 24: the page in the reader's language (German: "Bandenkrieg")
        found = rules_text.find(topic, game_name, lang=lang)
        if found is None:
            await interaction.response.send_message(self.unknown_topic(topic, game_name, lang), ephemeral=True)
            return
        note = overflow_note(found, lang)
        messages = rules_text.rule_text(found, max_messages=MAX_RULE_MESSAGES, overflow=note)
        await interaction.response.send_message(messages[0], ephemeral=True, allowed_mentions=NONE)
        for text in messages[1:]:
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NONE)

    @staticmethod
    def unknown_topic(query: str, game: str | None, lang: str | None = None) -> str:
        """The error for a topic that names no section (or several): the close matches to pick from."""
        w = words(lang)
        close = rules_text.close_matches(query, game, lang=lang)
        shown = query.strip()[:80] or w(M("table.rules.empty", "(empty)"))
        title = rules_text.games(lang=lang).get(game, game) if game else None
        if not close:
            if title:
                text = M(
                    "table.rules.none_in",
                    "No rules topic in {title} matches “{query}”. Start typing in `topic` and pick one of the "
                    "suggestions.",
                    title=title,
                    query=shown,
                )
            else:
                text = M(
                    "table.rules.none",
                    "No rules topic matches “{query}”. Start typing in `topic` and pick one of the suggestions.",
                    query=shown,
                )
            return clip_message(w(text))
        names = "\n".join(f"• {t.label}" for t in close)
        if title:
            text = M(
                "table.rules.close_in",
                "No single rules topic in {title} is “{query}”. Close matches:\n{names}",
                title=title,
                query=shown,
                names=names,
            )
        else:
            text = M(
                "table.rules.close",
                "No single rules topic is “{query}”. Close matches:\n{names}",
                query=shown,
                names=names,
            )
        return clip_message(w(text))

    # --- /log ----------------------------------------------------------------------------------------------

    async def _game_here(self, interaction: discord.Interaction) -> int | None:
        """The user's single open game in this channel, or the channel's only game (as ``/game``)."""
        return await self.bot.get_cog("Lobby").my_game_here(interaction)  # type: ignore[union-attr]

    async def game_id_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """Open games in this server, this channel's first (the same list as ``/game``'s)."""
        lobby = self.bot.get_cog("Lobby")
        return await lobby.game_id_autocomplete(interaction, current) if lobby else []  # type: ignore[union-attr]

    @in_servers_and_dm()
    @app_commands.command(name="log", description="The recent moves of the game in this channel")
    @app_commands.describe(game="A game number (default: your game in this channel)")
    @app_commands.autocomplete(game=game_id_autocomplete)
    async def show_log(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """``/log``: the latest page of the public log, with buttons to the older pages (as ``/game log``)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            gid = game or await self._game_here(interaction)
            if gid is None:
                raise ServiceError(WHICH_GAME)
            table = await self.bot.service.load_for(gid, user_of(interaction))
        except ServiceError as exc:
            await interaction.followup.send(reader_words(interaction)(exc.msg), ephemeral=True)
            return
        lang = reader_lang(interaction, table)
        text, view = await self.bot.get_cog("Lobby").log_message(table, None, lang)  # type: ignore[union-attr]
        await interaction.followup.send(text, view=view or discord.utils.MISSING, ephemeral=True, allowed_mentions=NONE)
        forget(view)
