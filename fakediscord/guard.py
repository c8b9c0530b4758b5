"""What keeps other web sites out of the local table (issue 22): the checks both of its servers make.

Listening on 127.0.0.1 keeps other machines out, not other web pages: any page the user visits can make their
browser send requests to 127.0.0.1 (a form POST, a ``text/plain`` fetch, a WebSocket), and a page whose host name
is re-pointed at 127.0.0.1 (DNS rebinding) is even allowed to read the answers. So (docs/local-table.md):

* both servers answer only requests whose ``Host`` names them (``127.0.0.1:PORT``, or ``localhost:PORT`` for the
  page, which a person may type), so a rebound host name gets nothing;
* the page (:func:`page_guard`) wants the run's secret token, which only the page it served holds, on everything
  but the page and its static files, and a state-changing request must also come from the page's own origin
  (when the browser names one) with a JSON body;
* the fake Discord (:func:`no_browser_guard`), which only the bot talks to, refuses anything a browser sent (a
  request with an ``Origin`` header: every browser POST and WebSocket handshake has one).

No answer carries a CORS header, so a page of another origin cannot read any answer either.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Awaitable, Callable, Collection

from aiohttp import web

#: the header the page sends its run's token in (a custom header also means another origin needs a CORS
#: preflight, which is never granted)
TOKEN_HEADER = "X-Local-Table-Token"
#: the query parameter that carries the token where no header can be set (EventSource, an <img>'s address);
#: read on GET only
TOKEN_QUERY = "token"
#: what the page itself is: readable without the token (it holds the token), everything else needs it
PUBLIC_PATHS = ("/", "/favicon.ico")
PUBLIC_PREFIXES = ("/static/",)

_Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_SAFE_METHODS = frozenset({"GET", "HEAD"})
#: headers on every answer of the page: no other site may frame it (a framed page could be clicked for the user)
#: or guess its types
PAGE_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def new_token() -> str:
    """A fresh secret for one run of the page (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def served_hosts(host: str, port: int, *, with_localhost: bool) -> frozenset[str]:
    """The ``Host`` header values that name a server listening on ``host:port`` (lower case).

    A browser leaves the port out when it is 80; ``localhost`` is added for a loopback address (the name a
    person types). An IPv6 address is written in brackets, as in a URL."""
    names = {f"[{host}]" if ":" in host else host}
    if with_localhost and host in ("127.0.0.1", "::1"):
        names.add("localhost")
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        hosts |= names
    return frozenset(h.lower() for h in hosts)


def _refusal(error: type[web.HTTPException], reason: str) -> web.HTTPException:
    return error(text=json.dumps({"error": reason}), content_type="application/json")


def host_refusal(request: web.Request, hosts: Collection[str], url: str) -> web.HTTPException | None:
    """A 421 when the request's ``Host`` is not one of ``hosts`` (DNS rebinding: another name pointed here)."""
    host = request.headers.get("Host", "")
    if host.lower() in hosts:
        return None
    return _refusal(
        web.HTTPMisdirectedRequest,
        f"this server answers only for {url}, not for host {host!r}; open {url} in your browser",
    )


def page_guard(token: str, hosts: Callable[[], Collection[str]], url: Callable[[], str]) -> web.Middleware:
    """The page's middleware: the ``Host`` check, the token, and for a POST the origin and a JSON body.

    ``hosts`` and ``url`` are read per request (the port is known only once the server listens)."""

    @web.middleware
    async def guard(request: web.Request, handler: _Handler) -> web.StreamResponse:
        refused = _page_refusal(request, token, hosts(), url())
        if refused is not None:
            raise refused
        return await handler(request)

    return guard


async def add_page_headers(request: web.Request, response: web.StreamResponse) -> None:
    """An ``on_response_prepare`` signal: :data:`PAGE_HEADERS` on every answer of the page, refusals too."""
    response.headers.update(PAGE_HEADERS)


def _page_refusal(request: web.Request, token: str, hosts: Collection[str], url: str) -> web.HTTPException | None:
    refused = host_refusal(request, hosts, url)
    if refused is not None:
        return refused
    if request.method in _SAFE_METHODS and (request.path in PUBLIC_PATHS or request.path.startswith(PUBLIC_PREFIXES)):
        return None
    if request.method not in _SAFE_METHODS:
        # the browser names the origin of every POST; the page's own is http:// plus the host it was opened at
        origin = request.headers.get("Origin")
        own = f"http://{request.headers['Host']}"
        if origin is not None and origin.lower() != own.lower():
            return _refusal(
                web.HTTPForbidden,
                f"a request from another site ({origin}) is refused: only the local table's page at {own} may act",
            )
    sent = request.headers.get(TOKEN_HEADER)
    if sent is None and request.method in _SAFE_METHODS:
        sent = request.query.get(TOKEN_QUERY)
    if sent is None or not hmac.compare_digest(sent.encode(), token.encode()):
        what = "is missing" if sent is None else "is not this run's"
        return _refusal(
            web.HTTPForbidden,
            f"the local table's token {what}: only the page served at {url} may use it "
            "(if the table was restarted, reload the page)",
        )
    if request.method not in _SAFE_METHODS and request.content_type != "application/json":
        return _refusal(
            web.HTTPUnsupportedMediaType,
            f"the request body must be JSON sent as Content-Type: application/json, not {request.content_type!r}",
        )
    return None


def no_browser_guard(hosts: Callable[[], Collection[str]], url: Callable[[], str]) -> web.Middleware:
    """The fake Discord's middleware: its own ``Host`` only, and nothing a browser sent (an ``Origin`` header)."""

    @web.middleware
    async def guard(request: web.Request, handler: _Handler) -> web.StreamResponse:
        refused = host_refusal(request, hosts(), url())
        if refused is not None:
            raise refused
        origin = request.headers.get("Origin")
        if origin is not None:
            raise _refusal(
                web.HTTPForbidden,
                f"the fake Discord talks to the bot only; a request from a web page ({origin}) is refused",
            )
        return await handler(request)

    return guard
