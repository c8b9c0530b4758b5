"""Seat bots: players the table runs itself (above the engine, below the service; the engine never imports them)."""
