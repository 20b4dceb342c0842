"""Messages on the fake Discord: creating, editing and deleting them as Discord stores them
(attachments, mentions, pings, replies), and their MESSAGE_* events under the bot's intents."""

from __future__ import annotations

import mimetypes
import struct
from typing import Any

from .fake_model import (
    DIRECT_MESSAGES_INTENT,
    DM,
    EPHEMERAL,
    GROUP_DM,
    GUILD_MESSAGES_INTENT,
    IS_COMPONENTS_V2,
    LOADING,
    MANAGE_THREADS,
    MENTION,
    MESSAGE_CONTENT_INTENT,
    PRIVATE_THREAD,
    SUPPRESS_EMBEDS,
    THREAD_TYPES,
    VIEW_CHANNEL,
    DiscordError,
    invalid_form,
    now_iso,
    public,
    snowflake,
    unknown,
)
from .fake_validation import _validate_message, stored_components, stored_embeds


def _image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, read from its IHDR chunk (Discord reports them for images)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


class MessagesMixin:
    """Message storage and the message events the bot may see."""

    @property
    def intents(self) -> int:
        """The gateway intents the bot identified with (0 before it did)."""
        return int((self.identify or {}).get("intents") or 0)

    def _sees_messages(self, channel: dict) -> bool:
        """Whether the bot gets the message events of ``channel``: the intent for guild
        messages or DMs, and (in a guild) View Channel; a private thread also needs the bot
        to be in it or to hold Manage Threads."""
        if channel["type"] == DM:
            return bool(self.intents & DIRECT_MESSAGES_INTENT)
        if channel["type"] == GROUP_DM or channel.get("guild_id") in self.foreign_guilds:
            return False  # not the bot's: it gets none of their events
        if not self.intents & GUILD_MESSAGES_INTENT:
            return False
        if not self.strict.permissions:
            return True
        perms = self.channel_permissions(channel)
        if not perms & VIEW_CHANNEL:
            return False
        if channel["type"] == PRIVATE_THREAD:
            return self.bot_user["id"] in self.thread_members.get(channel["id"], []) or bool(perms & MANAGE_THREADS)
        return True

    def as_seen(self, msg: dict) -> dict:
        """A message as the bot receives it (gateway or REST): without the message content
        intent, another user's message has empty content, embeds, attachments and components
        unless it is in a DM with the bot or mentions it (the "Message Content Intent" docs)."""
        seen = public(msg)
        if self.intents & MESSAGE_CONTENT_INTENT or msg["author"]["id"] == self.bot_user["id"]:
            return seen
        channel = self.channels.get(msg["channel_id"])
        if (channel is not None and channel["type"] == DM) or any(
                u["id"] == self.bot_user["id"] for u in msg["mentions"]):
            return seen
        seen.update(content="", embeds=[], attachments=[], components=[])
        seen.pop("poll", None)
        return seen

    async def _announce(self, event: str, msg: dict) -> None:
        """MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE for ``msg``, if the bot may see it.
        Ephemeral messages have no events; a message from a webhook (interaction responses)
        carries no ``member``."""
        channel = self.channels.get(msg["channel_id"])
        if msg["flags"] & EPHEMERAL or channel is None or not self._sees_messages(channel):
            return
        if event == "MESSAGE_DELETE":
            data = {"id": msg["id"], "channel_id": msg["channel_id"]}
            if msg.get("guild_id"):
                data["guild_id"] = msg["guild_id"]
        else:
            data = self.as_seen(msg)
            gid = msg.get("guild_id")
            member = self.guild_members.get(gid or "", {}).get(msg["author"]["id"])
            if member is not None and not msg.get("webhook_id"):
                data["member"] = {k: v for k, v in member.items() if k != "user"}
            if event == "MESSAGE_UPDATE":
                data["tts"] = False  # "The value for tts will always be false in message updates."
        await self._dispatch_if_connected(event, data)

    # ------------------------------------------------------------------ storage
    def _get_message(self, cid: str, mid: str) -> dict:
        msg = self.messages.get(mid)
        if msg is None or msg["channel_id"] != cid:
            raise unknown("Message", 10008)
        return msg

    def _user_of(self, interaction: dict) -> dict:
        return (interaction.get("member") or interaction)["user"]

    def _attachments(self, cid: str, spec: list[dict] | None, files: list[dict],
                     keep: list[dict], keep_files: list[dict]) -> tuple[list[dict], list[dict]]:
        """Final attachments of a message: listed existing ones are kept, index ids refer to uploads."""
        by_index = {f["index"]: f for f in files}
        if spec is None:
            spec = keep + [{"id": f["index"]} for f in files]
        attachments, stored = [], []
        existing = {a["id"]: (a, d) for a, d in zip(keep, keep_files, strict=True)}
        for i, entry in enumerate(spec):
            key = str(entry.get("id"))
            if key in existing:
                attachments.append(existing[key][0])
                stored.append(existing[key][1])
                continue
            upload = by_index.get(int(key)) if key.isdigit() else None
            if upload is None:
                raise invalid_form(f"attachments.{i}.id", f"Unknown attachment {key}")
            aid = snowflake()
            filename = entry.get("filename") or upload["filename"]
            ctype = mimetypes.guess_type(filename)[0] or upload["content_type"]
            attachment = {"id": aid, "filename": filename, "size": len(upload["data"]),
                          "url": f"https://cdn.discordapp.com/attachments/{cid}/{aid}/{filename}",
                          "proxy_url": f"https://media.discordapp.net/attachments/{cid}/{aid}/{filename}",
                          "content_type": ctype}
            if entry.get("description"):
                attachment["description"] = entry["description"]
            if size := _image_size(upload["data"]):
                attachment["width"], attachment["height"] = size
            attachments.append(attachment)
            stored.append({"id": aid, "filename": filename, "content_type": ctype, "data": upload["data"]})
        return attachments, stored

    def _mentions(self, content: str) -> list[dict]:
        return [self.users[uid] for uid in dict.fromkeys(MENTION.findall(content)) if uid in self.users]

    def _check_can_post(self, channel: dict, *, by_bot: bool = True) -> None:
        if by_bot and channel["type"] == DM and not self.settings(channel["recipients"][0]).dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        meta = channel.get("thread_metadata")
        if meta and meta["archived"]:
            if meta.get("locked"):
                raise DiscordError(400, 50083, "Thread is archived")
            meta["archived"] = False  # Discord unarchives an unlocked thread when someone posts

    def _create_message(self, channel_id: str, body: dict, files: list[dict], *, author: dict | None = None,
                        **extra: Any) -> dict:
        channel = self._channel(channel_id)
        _validate_message(body)
        if not (body.get("content") or body.get("embeds") or body.get("components") or files
                or body.get("sticker_ids") or body.get("poll")):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        attachments, stored = self._attachments(channel_id, body.get("attachments"), files, [], [])
        content = body.get("content") or ""
        msg = {"id": snowflake(), "channel_id": channel_id, "author": author or self.bot_user,
               "content": content, "embeds": stored_embeds(body.get("embeds")),
               "components": stored_components(body.get("components")),
               "attachments": attachments, "mentions": self._mentions(content), "mention_roles": [],
               "mention_everyone": False, "pinned": False, "tts": bool(body.get("tts")), "timestamp": now_iso(),
               "edited_timestamp": None, "type": 0, "flags": body.get("flags") or 0, "_files": stored,
               "_born": self.clock.now()}
        if body.get("allowed_mentions") is not None:
            msg["_allowed_mentions"] = body["allowed_mentions"]
        msg["_pinged"] = self._pings(content, body.get("allowed_mentions"))
        if ref := body.get("message_reference"):
            target = self.messages.get(str(ref.get("message_id")))
            if target is None and ref.get("fail_if_not_exists", True):
                raise invalid_form("message_reference", "Unknown message", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE")
            msg.update(type=19, message_reference=ref, referenced_message=public(target) if target else None)
        if channel.get("guild_id"):
            msg["guild_id"] = channel["guild_id"]
        msg.update(extra)
        self.messages[msg["id"]] = msg
        channel["last_message_id"] = msg["id"]
        if "thread_metadata" in channel:
            channel["message_count"] += 1
            channel["total_message_sent"] += 1
        return msg

    def _edit_message(self, msg: dict, body: dict, files: list[dict]) -> dict:
        _validate_message({**body, "flags": (body.get("flags") or 0) | (msg["flags"] & IS_COMPONENTS_V2)})
        # Build the new state first: a refused edit must leave the message untouched.
        new: dict[str, Any] = {}
        if "content" in body:
            new["content"] = body["content"] or ""
        if "embeds" in body:
            new["embeds"] = stored_embeds(body["embeds"])
        if "components" in body:
            new["components"] = stored_components(body["components"])
        if "attachments" in body or files:
            new["attachments"], new["_files"] = self._attachments(
                msg["channel_id"], body.get("attachments"), files, msg["attachments"], msg["_files"])
        merged = {**msg, **new}
        if not (merged["content"] or merged["embeds"] or merged["components"] or merged["attachments"]):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        msg.update(new)
        if body.get("allowed_mentions") is not None:
            msg["_allowed_mentions"] = body["allowed_mentions"]
        flags = body.get("flags")
        if flags is not None:  # only these can change after sending
            changeable = SUPPRESS_EMBEDS | IS_COMPONENTS_V2
            msg["flags"] = (msg["flags"] & ~changeable) | (flags & changeable)
        if msg["flags"] & LOADING:
            msg["flags"] &= ~LOADING  # the deferred "is thinking..." message becomes the answer
        else:
            msg["edited_timestamp"] = now_iso()
        msg["mentions"] = self._mentions(msg["content"])
        return msg

    async def _delete(self, msg: dict) -> None:
        del self.messages[msg["id"]]
        self.deleted_messages[msg["id"]] = msg
        await self._announce("MESSAGE_DELETE", msg)
        self._changed()

    async def _delete_channel(self, channel: dict) -> dict:
        del self.channels[channel["id"]]
        gid = channel.get("guild_id")
        if channel["type"] in THREAD_TYPES:
            self.guilds[gid]["threads"].remove(channel)
            await self._dispatch_if_connected("THREAD_DELETE", {
                "id": channel["id"], "guild_id": gid, "parent_id": channel["parent_id"], "type": channel["type"]})
        else:
            self.guilds[gid]["channels"].remove(channel)
            await self._dispatch_if_connected("CHANNEL_DELETE", channel)
        self._changed()
        return channel
