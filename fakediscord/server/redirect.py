"""Pointing discord.py at the fake."""

from __future__ import annotations

from collections.abc import Callable


def point_discord_at(base_url: str) -> Callable[[], None]:
    """Redirect discord.py's REST base and gateway URL to ``base_url``; return an undo function.

    Call before ``bot.start()``.  This patches two class attributes, so it is process-wide:
    run one fake per process (pytest-xdist workers are separate processes).
    """
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    base = base_url.rstrip("/")
    Route.BASE = f"{base}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http", "ws", 1) + "/gateway")

    def undo() -> None:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return undo
