"""The fake Discord's REST handlers by resource: users, the application and its commands,
guilds, channels, messages, pins, typing and threads."""

from __future__ import annotations

from typing import Any

from .fake_limits import OLD_MESSAGE
from .fake_model import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    EMBED_LINKS,
    EPHEMERAL,
    GATEWAY_GUILD_FIELDS,
    GUILD_TEXT,
    HAS_THREAD,
    MANAGE_THREADS,
    NONCE_WINDOW,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    THREAD_TYPES,
    DiscordError,
    _Request,
    invalid_form,
    now_iso,
    public,
    snowflake,
    unknown,
)
from .fake_validation import _check_len, _validate_commands


class RoutesMixin:
    """REST handlers for users, application commands, guilds, channels, messages and threads."""

    async def _get_me(self, req: _Request) -> tuple[int, Any]:
        return 200, self.current_user()

    async def _get_user(self, req: _Request) -> tuple[int, Any]:
        if req.params[0] not in self.users:
            raise unknown("User", 10013)
        return 200, self.users[req.params[0]]

    async def _get_application(self, req: _Request) -> tuple[int, Any]:
        return 200, {"id": self.app_id, "name": self.bot_user["username"], "icon": None, "description": "",
                     "type": None, "bot_public": True, "bot_require_code_grant": False, "owner": self.app_owner,
                     "verify_key": "0" * 64, "flags": 0, "flags_new": "0", "team": None, "bot": self.bot_user,
                     "redirect_uris": [], "interactions_endpoint_url": None,
                     "role_connections_verification_url": None, "approximate_guild_count": len(self.guilds),
                     "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
                     "explicit_content_filter": 0, "eligible_oauth2_scopes": [], "tags": []}

    async def _get_gateway(self, req: _Request) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}

    async def _put_commands(self, req: _Request) -> tuple[int, Any]:
        app_id, gid = req.params
        if app_id != self.app_id:
            raise unknown("Application", 10002)
        if gid is not None and gid not in self.guilds:
            raise unknown("Guild", 10004)
        _validate_commands(req.body)
        for key in [k for k in self.commands if k[0] == gid]:
            del self.commands[key]
        out = []
        for cmd in req.body:
            stored = {**cmd, "id": snowflake(), "application_id": self.app_id, "version": snowflake()}
            if stored.get("integration_types") is None:  # Discord fills in its default: guild install
                stored["integration_types"] = [0]
            if stored.get("default_member_permissions") is not None:  # Discord answers with a string
                stored["default_member_permissions"] = str(stored["default_member_permissions"])
            if gid:
                stored["guild_id"] = gid
            self.commands[(gid, cmd["name"])] = stored
            out.append(stored)
        return 200, out

    async def _get_commands(self, req: _Request) -> tuple[int, Any]:
        return 200, self.synced_commands(req.params[1])

    async def _open_dm(self, req: _Request) -> tuple[int, Any]:
        uid = str(req.body.get("recipient_id"))
        if uid not in self.users:
            raise unknown("User", 10013)
        return 200, self._dm_channel(uid, create=True)

    def _bot_guild(self, gid: str) -> dict:
        """A guild the bot is in; Discord refuses the others (unknown, or not the bot's)."""
        guild = self.guilds.get(gid)
        if guild is None:
            raise unknown("Guild", 10004)
        if gid in self.foreign_guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return guild

    async def _get_guild(self, req: _Request) -> tuple[int, Any]:
        guild = self._bot_guild(req.params[0])
        return 200, {k: v for k, v in guild.items() if k not in GATEWAY_GUILD_FIELDS}

    async def _get_guild_channels(self, req: _Request) -> tuple[int, Any]:
        self._bot_guild(req.params[0])
        return 200, self.guilds[req.params[0]]["channels"]

    async def _create_channel(self, req: _Request) -> tuple[int, Any]:
        gid = req.params[0]
        self._bot_guild(gid)
        _check_len(req.body.get("name"), 100, "name", minimum=1)
        channel = self.add_channel(gid, req.body["name"], type=req.body.get("type") or GUILD_TEXT,
                                   parent_id=req.body.get("parent_id"))
        for key in ("topic", "permission_overwrites", "nsfw", "position", "rate_limit_per_user"):
            if req.body.get(key) is not None:
                channel[key] = req.body[key]
        await self._dispatch_if_connected("CHANNEL_CREATE", channel)
        return 201, channel

    async def _get_member(self, req: _Request) -> tuple[int, Any]:
        gid, uid = req.params
        self._bot_guild(gid)
        member = self.guild_members[gid].get(uid)
        if member is None:
            raise unknown("Member", 10007)
        return 200, member

    async def _get_channel(self, req: _Request) -> tuple[int, Any]:
        return 200, self._channel(req.params[0])

    async def _edit_channel(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        body = req.body
        if "thread_metadata" in channel and (body.get("archived") or "locked" in body):
            # Discord: only unarchiving an unlocked thread goes without Manage Threads.
            self._require(channel, MANAGE_THREADS)
        if "name" in body:
            _check_len(body["name"], 100, "name", minimum=1)
            channel["name"] = body["name"]
        for key in ("topic", "rate_limit_per_user", "nsfw", "position", "parent_id"):
            if key in body and key in channel:
                channel[key] = body[key]
        meta = channel.get("thread_metadata")
        if meta is not None:
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    meta[key] = body[key]
            if "archived" in body:
                meta["archive_timestamp"] = now_iso()
            await self._dispatch_if_connected("THREAD_UPDATE", channel)
        elif channel["type"] != DM:
            await self._dispatch_if_connected("CHANNEL_UPDATE", channel)
        return 200, channel

    async def _delete_channel_route(self, req: _Request) -> tuple[int, Any]:
        return 200, await self._delete_channel(self._channel(req.params[0]))

    async def _get_messages(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        self._require(channel)
        if self.strict.permissions and not self.channel_permissions(channel) & READ_MESSAGE_HISTORY:
            return 200, []  # Discord answers an empty history rather than an error
        messages = [self.as_seen(m) for m in self.channel_messages(req.params[0])]
        if "before" in req.query:
            messages = [m for m in messages if int(m["id"]) < int(req.query["before"])]
        if "after" in req.query:
            messages = [m for m in messages if int(m["id"]) > int(req.query["after"])]
        limit = int(req.query.get("limit", 50))
        return 200, list(reversed(messages))[:limit]  # newest first, as Discord answers

    async def _post_message(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        needed = [SEND_MESSAGES_IN_THREADS if channel["type"] in THREAD_TYPES else SEND_MESSAGES]
        if req.body.get("embeds"):
            needed.append(EMBED_LINKS)
        if req.files:
            needed.append(ATTACH_FILES)
        if req.body.get("message_reference"):
            needed.append(READ_MESSAGE_HISTORY)
        self._require(channel, *needed)
        self._check_can_post(channel)
        nonce = req.body.get("nonce")
        if nonce is not None:
            if len(str(nonce)) > 25:
                raise invalid_form("nonce", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
            seen = self._nonces.get(str(nonce))
            if (req.body.get("enforce_nonce") and seen is not None and seen[0] in self.messages
                    and self.clock.now() - seen[1] < NONCE_WINDOW):
                # Discord answers with the message already created with this nonce, and
                # creates none (enforce_nonce: the nonce is unique for a few minutes).
                self.nonce_repeats += 1
                return 200, {**public(self.messages[seen[0]]), "nonce": nonce}
        msg = self._create_message(channel["id"], req.body, req.files)
        await self._announce("MESSAGE_CREATE", msg)
        if nonce is not None:
            self._nonces[str(nonce)] = (msg["id"], self.clock.now())
            return 200, {**public(msg), "nonce": nonce}
        return 200, public(msg)

    async def _get_message_route(self, req: _Request) -> tuple[int, Any]:
        self._require(self._channel(req.params[0]), READ_MESSAGE_HISTORY)
        msg = self._get_message(*req.params)
        if msg["flags"] & EPHEMERAL:  # ephemeral messages cannot be fetched from the channel
            raise unknown("Message", 10008)
        return 200, self.as_seen(msg)

    async def _patch_message(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        needed = ([EMBED_LINKS] if req.body.get("embeds") else []) + ([ATTACH_FILES] if req.files else [])
        self._require(channel, *needed)
        msg = self._get_message(*req.params)
        if msg["flags"] & EPHEMERAL:
            raise unknown("Message", 10008)
        if self.strict.old_edits and self.clock.now() - msg.get("_born", self.clock.now()) > OLD_MESSAGE:
            raise DiscordError(400, 30046, "Maximum number of edits to messages older than 1 hour reached. "
                                           "Try again later")
        self._edit_message(msg, req.body, req.files)
        await self._announce("MESSAGE_UPDATE", msg)
        return 200, public(msg)

    async def _delete_message_route(self, req: _Request) -> tuple[int, Any]:
        self._require(self._channel(req.params[0]))
        msg = self._get_message(*req.params)
        if msg["flags"] & EPHEMERAL:
            raise unknown("Message", 10008)
        await self._delete(msg)
        return 204, None

    async def _typing(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        self._require(channel, SEND_MESSAGES_IN_THREADS if channel["type"] in THREAD_TYPES else SEND_MESSAGES)
        self.typing.append(req.params[0])
        return 204, None

    async def _pin(self, req: _Request) -> tuple[int, Any]:
        # Both PUT (pin) and DELETE (unpin) land here; the recorded method tells them apart.
        msg = self._get_message(*req.params)
        msg["pinned"] = req.method == "PUT"
        return 204, None

    async def _create_thread(self, req: _Request) -> tuple[int, Any]:
        parent = self._channel(req.params[0])
        if parent["type"] != GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        _check_len(req.body.get("name"), 100, "name", minimum=1)
        from_message = len(req.params) > 1
        private = not from_message and (req.body.get("type") or PRIVATE_THREAD) == PRIVATE_THREAD
        self._require(parent, CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS)
        if from_message:
            msg = self._get_message(parent["id"], req.params[1])
            if msg.get("thread"):
                raise DiscordError(400, 160004, "A thread has already been created for this message")
            tid, ttype = msg["id"], PUBLIC_THREAD  # Discord reuses the message id
        else:
            tid, ttype = snowflake(), req.body.get("type") or PRIVATE_THREAD
        created = now_iso()
        thread = {
            "id": tid, "guild_id": parent["guild_id"], "parent_id": parent["id"], "owner_id": self.bot_user["id"],
            "name": req.body["name"], "type": ttype, "last_message_id": None, "message_count": 0,
            "member_count": 1, "total_message_sent": 0, "rate_limit_per_user": req.body.get("rate_limit_per_user")
            or 0, "flags": 0, "applied_tags": [],
            "thread_metadata": {"archived": False, "auto_archive_duration": req.body.get("auto_archive_duration")
                                or 4320, "archive_timestamp": created, "locked": False, "create_timestamp": created},
        }
        if ttype == PRIVATE_THREAD:
            thread["thread_metadata"]["invitable"] = req.body.get("invitable", True)
        self.channels[tid] = thread
        self.guilds[parent["guild_id"]]["threads"].append(thread)
        self.thread_members[tid] = [self.bot_user["id"]]
        if from_message:
            msg["thread"] = thread
            msg["flags"] |= HAS_THREAD
        # Dispatched before the HTTP answer so discord.py has the thread cached when its call returns.
        member = {"id": tid, "user_id": self.bot_user["id"], "join_timestamp": created, "flags": 0}
        await self._dispatch_if_connected("THREAD_CREATE", {**thread, "newly_created": True, "member": member})
        return 201, thread

    async def _add_thread_member(self, req: _Request) -> tuple[int, Any]:
        thread = self._channel(req.params[0])
        uid = self.bot_user["id"] if req.params[1] == "@me" else req.params[1]
        if "thread_metadata" not in thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        self._require(thread, SEND_MESSAGES_IN_THREADS)
        if uid not in self.guild_members[thread["guild_id"]]:
            raise unknown("Member", 10007)
        if uid not in self.thread_members[thread["id"]]:
            self.thread_members[thread["id"]].append(uid)
            thread["member_count"] = len(self.thread_members[thread["id"]])
        return 204, None

    async def _remove_thread_member(self, req: _Request) -> tuple[int, Any]:
        thread = self._channel(req.params[0])
        uid = self.bot_user["id"] if req.params[1] == "@me" else req.params[1]
        members = self.thread_members.get(thread["id"], [])
        if uid in members:
            members.remove(uid)
            thread["member_count"] = len(members)
        return 204, None
