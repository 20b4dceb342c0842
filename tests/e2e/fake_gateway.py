"""The fake Discord's gateway: the websocket, IDENTIFY/READY/GUILD_CREATE, heartbeats,
member chunks, sharding, and the dispatch of events to the connected bot (or shard)."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import WSMsgType, web

from .fake_model import snowflake


class GatewayMixin:
    """The gateway websocket, sharding and event dispatch."""

    @property
    def connected(self) -> bool:
        """Whether a bot is connected to the gateway right now."""
        return self._ws is not None and not self._ws.closed

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        # A restarted bot opens a new connection: from now on events go there.
        self._ws, self.ready = ws, False
        self._sockets.add(ws)
        self.gateway_query = dict(request.query)  # v=10&encoding=json&compress=... (compression ignored)
        try:
            await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                self.gateway_log.append(payload)
                await self._gateway_op(ws, payload)
                self._changed()
        finally:
            self._sockets.discard(ws)
            if self._ws is ws:
                self._ws, self.ready = None, False
            for sid in [k for k, v in self.shard_sockets.items() if v is ws]:
                del self.shard_sockets[sid]
                self.shards_ready.discard(sid)
            self._changed()
        return ws

    async def _gateway_op(self, ws: web.WebSocketResponse, payload: dict) -> None:
        op, d = payload["op"], payload.get("d")
        if op == 1:  # HEARTBEAT
            await ws.send_json({"op": 11})
        elif op == 2 and d.get("shard") and d["shard"][1] > 1:  # IDENTIFY of one shard
            await self._identify_shard(ws, d)
        elif op == 2:  # IDENTIFY
            self.identifies.append(d)
            self.identify = d
            self.identify_count += 1
            await self.dispatch("READY", {
                "v": 10, "user": self.current_user(), "session_id": f"session-{self.identify_count}",
                "resume_gateway_url": self.gateway_url, "shard": [0, 1],
                "guilds": [{"id": g, "unavailable": True} for g in self.bot_guilds],
                "application": {"id": self.app_id, "flags": 0}, "private_channels": [],
                "relationships": [], "user_settings": {}, "presences": [], "guild_join_requests": [],
            })
            for guild in self.bot_guilds.values():
                # Like Discord, only active threads come with the guild.
                active = [t for t in guild["threads"] if not t["thread_metadata"]["archived"]]
                await self.dispatch("GUILD_CREATE", {**guild, "threads": active})
            self.ready = True
        elif op == 6:  # RESUME is not supported: an invalid session makes the client identify again
            await ws.send_json({"op": 9, "d": False})
        elif op == 8:  # REQUEST_GUILD_MEMBERS (members intent)
            gid = str(d["guild_id"])
            members = list(self.guild_members[gid].values())
            if d.get("user_ids"):
                wanted = {str(u) for u in d["user_ids"]}
                members = [m for m in members if m["user"]["id"] in wanted]
            elif d.get("query"):
                members = [m for m in members if m["user"]["username"].startswith(d["query"])]
            await self.dispatch("GUILD_MEMBERS_CHUNK", {
                "guild_id": gid, "members": members, "chunk_index": 0, "chunk_count": 1, "nonce": d.get("nonce")})

    # ------------------------------------------------------------------ sharding
    def shard_of(self, guild_id: str | int | None, total: int | None = None) -> int:
        """The shard that receives a guild's events: (guild_id >> 22) % total; DMs: shard 0."""
        total = total or self.shard_total or 1
        return 0 if guild_id is None else (int(guild_id) >> 22) % total

    @staticmethod
    def _event_guild(event: str, data: dict) -> str | None:
        if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
            return data.get("id")
        return data.get("guild_id")

    def guilds_of_shard(self, shard: int, total: int) -> list[dict]:
        """The guilds whose events go to ``shard`` of ``total``."""
        return [g for gid, g in self.bot_guilds.items() if self.shard_of(gid, total) == shard]

    async def _identify_shard(self, ws: web.WebSocketResponse, d: dict) -> None:
        sid, total = int(d["shard"][0]), int(d["shard"][1])
        if not 0 <= sid < total or (self.shard_total not in (None, total)):
            await ws.close(code=4010, message=b"Invalid shard")
            return
        self.identifies.append(d)
        self.identify = d
        self.identify_count += 1
        self.shard_total = total
        self.shard_sockets[sid] = ws
        self.shards_ready.discard(sid)
        mine = self.guilds_of_shard(sid, total)
        await self.dispatch("READY", {
            "v": 10, "user": self.current_user(), "session_id": f"session-{self.identify_count}",
            "resume_gateway_url": self.gateway_url, "shard": [sid, total],
            "guilds": [{"id": g["id"], "unavailable": True} for g in mine],
            "application": {"id": self.app_id, "flags": 0}, "private_channels": [],
            "relationships": [], "user_settings": {}, "presences": [], "guild_join_requests": [],
        }, ws=ws)
        for guild in mine:
            active = [t for t in guild["threads"] if not t["thread_metadata"]["archived"]]
            await self.dispatch("GUILD_CREATE", {**guild, "threads": active}, ws=ws)
        self.shards_ready.add(sid)

    @property
    def all_shards_ready(self) -> bool:
        """Whether every shard of a sharded bot has identified and received its guilds."""
        return self.shard_total is not None and self.shards_ready == set(range(self.shard_total))

    async def wait_shards_ready(self, timeout: float = 30.0) -> None:
        """Wait until every shard of a sharded bot is connected and has its guilds."""
        await self.wait_until(lambda: self.all_shards_ready, timeout)

    def add_guild_on_shard(self, shard: int, total: int, name: str, channel_names: list[str],
                           members: list[dict], **kwargs: Any) -> dict:
        """Create a guild (as add_guild) whose id falls on ``shard`` of ``total``."""
        gid = int(snowflake())
        while self.shard_of(gid, total) != shard:
            gid += 1 << 22  # one millisecond later: still a well-formed snowflake
        return self.add_guild(name, channel_names, members, guild_id=str(gid), **kwargs)

    async def dispatch(self, event: str, data: dict, *, ws: web.WebSocketResponse | None = None) -> None:
        """Send a gateway event (op 0) to the connected bot (to the shard it belongs to)."""
        if ws is None and self.shard_total is not None:
            sid = self.shard_of(self._event_guild(event, data))
            ws = self.shard_sockets.get(sid)
            if ws is None or ws.closed:
                raise RuntimeError(f"cannot send {event}: shard {sid} is not connected to the fake gateway")
        if ws is not None:
            self._seq += 1
            self.dispatched.append((event, data))
            await ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})
            return
        if not self.connected:
            raise RuntimeError(f"cannot send {event}: no bot is connected to the fake gateway")
        assert self._ws is not None
        self._seq += 1
        self.dispatched.append((event, data))
        await self._ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})

    async def _dispatch_if_connected(self, event: str, data: dict) -> None:
        # World changes while no bot runs (e.g. between a stop and a restart) are simply not seen,
        # as a bot that is offline misses events on Discord.
        if self.shard_total is not None:
            if self.shard_of(self._event_guild(event, data)) in self.shards_ready:
                await self.dispatch(event, data)
            return
        if self.connected and self.ready:
            await self.dispatch(event, data)
