"""The fake Discord's REST plumbing: reading requests (JSON or multipart), recording them,
rate limits (429 with Discord's headers) and the route table every handler is found in."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .fake_limits import too_many
from .fake_model import ATTACHMENT_SIZE_LIMIT, DiscordError, Recorded, _Request


@dataclass
class Hold:
    """Requests kept waiting by the fake (a slow Discord): those of ``method`` whose path
    matches ``path``; ``arrived`` is set when the first comes, they go on once ``release`` is."""

    method: str
    path: re.Pattern[str]
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


class RestMixin:
    """REST requests in, Discord-shaped answers out; the routes and their rate-limit buckets."""

    def hold(self, method: str, path: str) -> Hold:
        """Keep the bot's ``method`` requests to paths matching the regex ``path`` waiting
        until the returned hold's ``release`` is set (``arrived`` tells one came): lets a
        test put other work between a request and its answer, without timing anything."""
        held = Hold(method, re.compile(path))
        self._holds.append(held)
        return held

    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict]]:
        if request.content_type == "application/json":
            return await request.json(), []
        if request.content_type.startswith("multipart/"):
            # discord.py sends payload_json plus one files[n] part per upload.
            body: Any = {}
            files: list[dict] = []
            async for part in await request.multipart():
                raw = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":
                    body = json.loads(raw)
                elif (m := re.fullmatch(r"files\[(\d+)\]", part.name or "")) is not None:
                    files.append({"index": int(m.group(1)), "filename": part.filename, "data": bytes(raw),
                                  "content_type": part.headers.get("Content-Type", "application/octet-stream")})
            return body, files
        return None, []

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        rec = Recorded(request.method, path, body, dict(request.query), [f["filename"] for f in files])
        self.requests.append(rec)
        for held in [h for h in self._holds if h.method == request.method and h.path.fullmatch(path)]:
            held.arrived.set()
            await held.release.wait()
        status: int
        payload: Any
        headers: dict[str, str] = {}
        limited = self._rate_limit(request.method, path)
        if limited is not None:
            payload, headers = limited
            rec.status = 429
            rec.answer = json.dumps(payload)  # says whether the global limit refused it
            self.errors.append(rec)
            self._changed()
            return web.Response(body=json.dumps(payload).encode(), status=429,
                                headers={"Content-Type": "application/json", **headers})
        bucket = self._bucket_for(request.method, path)
        if bucket is not None:
            headers = bucket.headers(self.clock.now(), self.clock.wall())
        try:
            handler, params = self._match(request.method, path)
            if handler is None:
                self.unhandled.append(rec)
                raise DiscordError(404, 0, f"fake discord: no route {request.method} {path}")
            if any(len(f["data"]) > ATTACHMENT_SIZE_LIMIT for f in files):
                raise DiscordError(413, 40005, "Request entity too large")
            status, payload = await handler(_Request(request.method, params, body if body is not None else {}, files,
                                                     dict(request.query)))
        except DiscordError as exc:
            status, payload = exc.status, exc.payload()
            rec.code = exc.code
        rec.status = status
        if status >= 400:
            self.errors.append(rec)
        self._changed()
        if status == 204:
            return web.Response(status=204, headers=headers)
        rec.answer = json.dumps(payload)
        # discord.py only parses JSON when Content-Type is exactly application/json (no charset).
        return web.Response(body=rec.answer.encode(), status=status,
                            headers={"Content-Type": "application/json", **headers})

    _BUCKETED = (
        ("POST", re.compile(r"/channels/(\d+)/messages"), "message-create"),
        ("PATCH", re.compile(r"/channels/(\d+)/messages/\d+"), "message-edit"),
        ("DELETE", re.compile(r"/channels/(\d+)/messages/\d+"), "message-delete"),
        ("POST", re.compile(r"/channels/(\d+)(?:/messages/\d+)?/threads"), "thread-create"),
    )

    def _bucket_for(self, method: str, path: str) -> Any:
        """The per-route bucket of a request (per channel), or None for routes without one."""
        for route_method, pattern, kind in self._BUCKETED:
            if route_method == method and (m := pattern.fullmatch(path)):
                on = self.strict.edit_limit if kind == "message-edit" else self.strict.rate_limits
                return self.limiter.route_bucket(kind, m.group(1)) if on else None
        return None

    def _rate_limit(self, method: str, path: str) -> tuple[dict, dict] | None:
        """A 429 (body, headers) when this request is over a limit, else None (and counted).
        Interaction endpoints are bound neither by the global limit nor by these buckets."""
        if path.startswith(("/interactions/", "/webhooks/")):
            return None
        if self.strict.rate_limits:
            wait = self.limiter.take_global()
            if wait is not None:
                return too_many(wait, is_global=True)
        bucket = self._bucket_for(method, path)
        if bucket is not None and not bucket.take(self.clock.now()):
            now = self.clock.now()
            return too_many(max(bucket.reset_at - now, 0.001), is_global=False,
                            headers=bucket.headers(now, self.clock.wall()))
        return None

    @property
    def rate_limited(self) -> list[Recorded]:
        """Requests answered 429 (the bot should retry them; discord.py does)."""
        return [r for r in self.errors if r.status == 429]

    def _match(self, method: str, path: str) -> tuple[Callable[[_Request], Awaitable[tuple[int, Any]]] | None,
                                                      tuple[str, ...]]:
        for route_method, pattern, handler in self._routes:
            if route_method == method and (m := pattern.fullmatch(path)):
                return handler, m.groups()
        return None, ()

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Callable[[_Request], Awaitable[tuple[int, Any]]]]]:
        app, wh = r"/applications/(\d+)(?:/guilds/(\d+))?/commands", r"/webhooks/(\d+)/([^/]+)"
        table = [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/users/(\d+)", self._get_user),
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/gateway(?:/bot)?", self._get_gateway),
            ("PUT", app, self._put_commands),
            ("GET", app, self._get_commands),
            ("POST", r"/users/@me/channels", self._open_dm),
            ("GET", r"/guilds/(\d+)", self._get_guild),
            ("GET", r"/guilds/(\d+)/channels", self._get_guild_channels),
            ("POST", r"/guilds/(\d+)/channels", self._create_channel),
            ("GET", r"/guilds/(\d+)/members/(\d+)", self._get_member),
            ("GET", r"/channels/(\d+)", self._get_channel),
            ("PATCH", r"/channels/(\d+)", self._edit_channel),
            ("DELETE", r"/channels/(\d+)", self._delete_channel_route),
            ("GET", r"/channels/(\d+)/messages", self._get_messages),
            ("POST", r"/channels/(\d+)/messages", self._post_message),
            ("GET", r"/channels/(\d+)/messages/(\d+)", self._get_message_route),
            ("PATCH", r"/channels/(\d+)/messages/(\d+)", self._patch_message),
            ("DELETE", r"/channels/(\d+)/messages/(\d+)", self._delete_message_route),
            ("POST", r"/channels/(\d+)/typing", self._typing),
            ("PUT", r"/channels/(\d+)/messages/pins/(\d+)", self._pin),
            ("DELETE", r"/channels/(\d+)/messages/pins/(\d+)", self._pin),
            ("POST", r"/channels/(\d+)/threads", self._create_thread),
            ("POST", r"/channels/(\d+)/messages/(\d+)/threads", self._create_thread),
            ("PUT", r"/channels/(\d+)/thread-members/(\d+|@me)", self._add_thread_member),
            ("DELETE", r"/channels/(\d+)/thread-members/(\d+|@me)", self._remove_thread_member),
            ("POST", r"/interactions/(\d+)/([^/]+)/callback", self._interaction_callback),
            ("POST", wh, self._followup),
            ("GET", wh + r"/messages/(@original|\d+)", self._get_webhook_message),
            ("PATCH", wh + r"/messages/(@original|\d+)", self._patch_webhook_message),
            ("DELETE", wh + r"/messages/(@original|\d+)", self._delete_webhook_message),
        ]
        return [(method, re.compile(pattern), handler) for method, pattern, handler in table]
