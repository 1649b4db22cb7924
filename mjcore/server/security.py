"""What the server does about browsers and other sites, and about what people type.

- :class:`SecurityMiddleware` (pure ASGI, around the whole app): every HTTP response carries
  a Content-Security-Policy (with ``frame-ancestors 'none'``), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``; a WebSocket
  handshake or a POST from a page of another site (its ``Origin``) is refused with 403; a
  POST whose body is not ``application/json`` is refused with 415 (a page of another site
  may send ``text/plain`` or form bodies without a CORS preflight, never JSON).
- :func:`check_display_name`: the rules for a name shown to other players (nothing
  invisible, no name made only of combining marks, no stacks of them).
- :func:`mask_url`: a database URL with its password hidden, for logs.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from ..errors import InvalidOptionError, clip

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The pages load only their own scripts, styles and images, talk only to their own server
# (``connect-src 'self'`` covers ws:/wss: of the same host), and may not be framed.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


# ---- origins -------------------------------------------------------------------------------
def normalize_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port, or None if ``origin``
    is not one (``null``, a path, a bad port)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    host = parts.hostname.lower()
    if ":" in host:  # IPv6
        host = f"[{host}]"
    if port is not None and port != DEFAULT_PORTS[parts.scheme]:
        host = f"{host}:{port}"
    return f"{parts.scheme}://{host}"


def parse_origins(origins: Iterable[str]) -> frozenset[str]:
    """An allow-list of origins from ``--allow-origin`` values (``*``: any origin).

    ValueError for a value that is not an origin (``https://example.com[:port]``)."""
    out = set()
    for item in origins:
        if item.strip() == "*":
            out.add("*")
            continue
        norm = normalize_origin(item)
        if norm is None:
            raise InvalidOptionError(f"not an origin (scheme://host[:port]): {clip(item)}")
        out.add(norm)
    return frozenset(out)


def _host_only(hostport: str, scheme: str) -> str:
    """A Host header value in the normalized form of :func:`normalize_origin`'s netloc."""
    norm = normalize_origin(f"{scheme}://{hostport}")
    return norm.split("://", 1)[1] if norm else ""


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request with this ``Origin`` header may act on the server at ``host``.

    No ``Origin`` (not a browser page: browsers send one with every WebSocket handshake and
    every POST) is allowed; otherwise the origin must be the server's own (its host and port
    are the request's ``Host``, whatever the scheme: TLS may end at a proxy) or on the
    allow-list."""
    if origin is None:
        return True
    if "*" in allowed:
        return True
    norm = normalize_origin(origin)
    if norm is None:
        return False
    if norm in allowed:
        return True
    scheme, netloc = norm.split("://", 1)
    return bool(host) and netloc == _host_only(host or "", scheme)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type header is ``application/json`` (any parameters)."""
    if not content_type:
        return False
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


class SecurityMiddleware:
    """Headers on every HTTP response; Origin and JSON checks (see the module docstring)."""

    state: Any = None
    """The wrapped Starlette app's ``state`` (set by ``create_app``: the limits' counters)."""

    def __init__(self, app: ASGIApp, allowed_origins: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.allowed = allowed_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            if not self._origin_ok(scope):
                return await self._deny_websocket(receive, send)
            return await self.app(scope, receive, send)
        if kind != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in HEADERS if k not in have]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        if scope["method"] not in SAFE_METHODS:
            if not self._origin_ok(scope):
                return await _respond(send_with_headers, 403, "requests from other sites "
                                      "are refused (Origin)")  # fmt: skip
            if not is_json(_header(scope, b"content-type")):
                return await _respond(send_with_headers, 415, "the body must be JSON "
                                      "(Content-Type: application/json)")  # fmt: skip
        await self.app(scope, receive, send_with_headers)

    def _origin_ok(self, scope: Scope) -> bool:
        return origin_allowed(_header(scope, b"origin"), _header(scope, b"host"), self.allowed)

    async def _deny_websocket(self, receive: Receive, send: Send) -> None:
        """403 to the handshake (or a policy-violation close where denial responses are not
        supported)."""
        await receive()  # websocket.connect
        body = json.dumps({"error": "WebSockets from other sites are refused (Origin)"}).encode()
        headers = [(b"content-type", b"application/json"), *HEADERS]
        try:
            await send({"type": "websocket.http.response.start", "status": 403,
                        "headers": headers})  # fmt: skip
            await send({"type": "websocket.http.response.body", "body": body})
        except Exception:  # noqa: BLE001 - a server without the denial-response extension
            await send({"type": "websocket.close", "code": 1008})


async def _respond(send: Send, status: int, error: str) -> None:
    body = json.dumps({"error": error}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


# ---- display names -------------------------------------------------------------------------
MAX_NAME = 24  # characters of a display name (one line of a seat's panel at the table)
MAX_MARKS = 3  # combining marks on one character
# Printable (str.isprintable) yet blank: Hangul fillers, the blank Braille pattern, the
# combining grapheme joiner, Khmer inherent vowels, variation selectors.
INVISIBLE = frozenset(
    [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5]
    + list(range(0xFE00, 0xFE10))
    + list(range(0xE0100, 0xE01F0))
)


class InvalidNameError(InvalidOptionError):
    """A display name that is not shown as what it is (invisible, all marks, too long)."""


def check_display_name(name: Any) -> str:
    """A display name as stored and shown (NFC, surrounding spaces removed), or
    InvalidNameError saying what is wrong: not a string, longer than 24 characters, a
    control, format or separator character (zero-width spaces, bidi overrides, tags), an
    invisible yet "printable" character (Hangul filler, blank Braille), more than three
    combining marks on one character, or no visible character at all (only spaces or
    combining marks). The empty name is allowed (no name)."""
    if not isinstance(name, str):
        raise InvalidNameError(f"name must be a string, got {type(name).__name__}")
    text = unicodedata.normalize("NFC", name).strip(" ")
    if len(text) > MAX_NAME:
        raise InvalidNameError(f"name is longer than {MAX_NAME} characters")
    visible, marks = False, 0
    for ch in text:
        if not ch.isprintable():
            raise InvalidNameError(f"name contains the unprintable character U+{ord(ch):04X}")
        if ord(ch) in INVISIBLE:
            raise InvalidNameError(f"name contains the invisible character U+{ord(ch):04X}")
        if unicodedata.category(ch).startswith("M"):
            marks += 1
            if marks > MAX_MARKS:
                raise InvalidNameError(f"name stacks more than {MAX_MARKS} combining marks")
            continue
        marks = 0
        visible = visible or ch != " "
    if text and not visible:
        raise InvalidNameError("name has no visible character")
    if name and not text:
        raise InvalidNameError("name has no visible character")
    return text


# ---- logs ----------------------------------------------------------------------------------
def mask_url(url: str) -> str:
    """A database path or URL as it may be printed: the password replaced by ``***``."""
    if "://" not in url:
        return url
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - not a URL SQLAlchemy parses: print no credentials
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}" if "@" in rest else url
