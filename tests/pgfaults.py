"""Faults of a PostgreSQL server for tests (issue 22): ending a store's connections from another connection, and a
TCP proxy between the store and the server that cuts the connection exactly at a COMMIT.

A store is told apart from every other client of the test server (other tests, other workers) by the
``application_name`` its target carries (``named``): the killer ends only connections with that name.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import struct
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from store.postgres import split_target

#: The startup-phase requests of the PostgreSQL protocol that come before the real startup message.
_SSL_REQUEST, _GSS_REQUEST = 80877103, 80877104
#: A COMMIT as asyncpg sends it: a simple query.
_COMMIT = b"Q" + struct.pack("!i", 4 + 7) + b"COMMIT\x00"


def named(url: str, app: str) -> str:
    """``url`` with its connections named ``app`` (``application_name``, which ``pg_stat_activity`` shows)."""
    return f"{url}{'&' if '?' in url else '?'}application_name={app}"


class Killer:
    """Ends connections named ``app`` at random moments, from a connection of its own (``pg_terminate_backend``):
    one of them, chosen at random, after a pause drawn from ``pause_s``."""

    def __init__(self, server: str, app: str, pause_s: tuple[float, float], seed: int = 1) -> None:
        self._server, self._app, self._pause = server, app, pause_s
        self._rng = random.Random(seed)
        #: how many connections it ended
        self.kills = 0
        self._task: asyncio.Task[None] | None = None
        self._conn: asyncpg.Connection | None = None

    async def __aenter__(self) -> Killer:
        self._conn = await asyncpg.connect(split_target(self._server)[0])
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def stop(self) -> None:
        """Stop ending connections (the store may reconnect for good afterwards)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _run(self) -> None:
        assert self._conn is not None
        sql = (
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1"
            " AND pid <> pg_backend_pid() ORDER BY random() LIMIT 1"
        )
        while True:
            await asyncio.sleep(self._rng.uniform(*self._pause))
            if await self._conn.fetchval(sql, self._app):
                self.kills += 1


class CommitCutter:
    """A TCP proxy in front of a PostgreSQL server that passes everything through, except that when armed it cuts
    the connection at the next COMMIT: ``"before"`` drops the COMMIT and ends both sides (the server rolls the
    transaction back), ``"after"`` forwards the COMMIT to the server and ends both sides before its answer
    reaches the client (the server commits; the client never hears it). Either way the client sees its
    connection lost during the commit. ``down`` refuses new connections (a server that is away)."""

    def __init__(self, server_url: str) -> None:
        parts = urlsplit(server_url)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 5432
        self._url = server_url
        self._server: asyncio.base_events.Server | None = None
        #: the cut for the next COMMIT (None: none); it disarms itself once it cut
        self.armed: str | None = None
        #: COMMITs to let through before the armed cut (``arm``)
        self.let_through = 0
        #: after a cut, refuse new connections for this long (the server away while the bot looks)
        self.down_after_cut_s = 0.0
        #: the cuts made so far, by kind
        self.cuts: dict[str, int] = {"before": 0, "after": 0}
        self.down = False
        self.port = 0
        self._writers: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[None]] = set()

    def arm(self, mode: str | None, *, at: int = 1, down_s: float = 0.0) -> None:
        """Cut at the ``at``-th COMMIT from now (``mode``: "before", "after", or None to disarm), and then refuse
        new connections for ``down_s`` seconds."""
        self.armed, self.let_through, self.down_after_cut_s = mode, at - 1, down_s

    def url(self) -> str:
        """The server's URL through the proxy (no TLS, so the proxy can read the messages)."""
        parts = urlsplit(self._url)
        auth = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
        url = urlunsplit(parts._replace(netloc=f"{auth}127.0.0.1:{self.port}"))
        return f"{url}{'&' if '?' in url else '?'}sslmode=disable"

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[CommitCutter]:
        """Listen on a free port of 127.0.0.1 for the block."""
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        try:
            yield self
        finally:
            self._server.close()
            for w in list(self._writers):
                w.transport.abort()
            await asyncio.gather(*self._handlers, return_exceptions=True)
            await self._server.wait_closed()

    async def _client(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)
        if self.down:
            c_writer.transport.abort()
            return
        try:
            s_reader, s_writer = await asyncio.open_connection(self._host, self._port)
        except OSError:
            c_writer.transport.abort()
            return
        self._writers |= {c_writer, s_writer}
        cut = asyncio.Event()  # set: nothing more of the server's reaches the client
        back = asyncio.create_task(self._back(s_reader, c_writer, cut))
        try:
            await self._forth(c_reader, s_writer, c_writer, cut)
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            cut.set()
            c_writer.transport.abort()
            s_writer.close()
            back.cancel()
            with contextlib.suppress(asyncio.CancelledError, OSError):
                await back
            self._writers -= {c_writer, s_writer}

    async def _forth(
        self,
        c_reader: asyncio.StreamReader,
        s_writer: asyncio.StreamWriter,
        c_writer: asyncio.StreamWriter,
        cut: asyncio.Event,
    ) -> None:
        """Client to server, message by message (the first ones untyped, until the startup message)."""
        starting = True
        while True:
            if starting:
                head = await c_reader.readexactly(4)
                (length,) = struct.unpack("!i", head)
                body = await c_reader.readexactly(length - 4)
                code = struct.unpack("!i", body[:4])[0] if len(body) >= 4 else 0
                starting = code in (_SSL_REQUEST, _GSS_REQUEST)
                message = head + body
            else:
                head = await c_reader.readexactly(5)
                (length,) = struct.unpack("!i", head[1:])
                message = head + await c_reader.readexactly(length - 4)
            if message == _COMMIT and self.armed is not None and self.let_through > 0:
                self.let_through -= 1
            elif message == _COMMIT and self.armed is not None:
                mode, self.armed = self.armed, None
                if self.down_after_cut_s > 0:
                    self.down = True
                    asyncio.get_running_loop().call_later(self.down_after_cut_s, setattr, self, "down", False)
                self.cuts[mode] += 1
                cut.set()  # the server's answer (if any) never reaches the client
                if mode == "after":
                    s_writer.write(message)
                    await s_writer.drain()
                c_writer.transport.abort()
                s_writer.close()  # after the COMMIT, if it was sent: the server reads it before the end
                return
            s_writer.write(message)
            await s_writer.drain()

    @staticmethod
    async def _back(s_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter, cut: asyncio.Event) -> None:
        """Server to client, as it comes, until the cut or the server's end (which ends the client's side too)."""
        while data := await s_reader.read(65536):
            if cut.is_set():
                return
            c_writer.write(data)
            await c_writer.drain()
        c_writer.close()
