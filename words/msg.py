"""The message makers (``M``, ``P``, ``T``, ``Join`` of ``engine.msg``) for code that says things but must not
import the engine, such as ``render/`` (its pictures read engine views only). The same functions, so
``python -m words.extract`` finds their calls by name wherever they are imported from."""

from __future__ import annotations

from engine.msg import Join, M, Msg, P, T

__all__ = ["Join", "M", "Msg", "P", "T"]
