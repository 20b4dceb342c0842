"""The fake Discord's world: users, guilds, members, roles, channels, DMs and the
permissions Discord computes from roles and channel overwrites."""

from __future__ import annotations

from .fake_model import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    DEFAULT_PERMISSIONS,
    DISCORD_LOCALES,
    DM,
    GROUP_DM,
    GUILD_TEXT,
    MANAGE_CHANNELS,
    ROLE_LOOK,
    THREAD_TYPES,
    VIEW_CHANNEL,
    DiscordError,
    UserSettings,
    _id,
    now_iso,
    snowflake,
    unknown,
)


class WorldMixin:
    """Building the world and reading permissions out of it, as Discord computes them."""

    @staticmethod
    def _new_user(name: str, bot: bool = False) -> dict:
        # Every field Discord's user object always carries; those a user has not set are null.
        return {"id": snowflake(), "username": name, "global_name": None if bot else name,
                "discriminator": "0", "avatar": None, "bot": bot, "flags": 0, "public_flags": 0, "banner": None,
                "accent_color": None, "avatar_decoration_data": None, "collectibles": None, "primary_guild": None}

    def current_user(self) -> dict:
        """The bot's own user as Discord sends it to the bot (GET /users/@me, READY)."""
        return {**self.bot_user, "mfa_enabled": False, "locale": "en-US", "verified": True, "email": None}

    def add_user(self, name: str, *, locale: str = "en-US", dms_open: bool = True,
                 manage_channels: bool = False, permissions: int = 0) -> dict:
        """Create a user; returns Discord's user object. Extra permissions apply in every guild."""
        if locale not in DISCORD_LOCALES:
            raise ValueError(f"{locale!r} is not a Discord locale")
        user = self._new_user(name)
        self.users[user["id"]] = user
        self.user_settings[user["id"]] = UserSettings(
            locale=locale, dms_open=dms_open, permissions=permissions | (MANAGE_CHANNELS if manage_channels else 0))
        return user

    def settings(self, user: dict | str) -> UserSettings:
        """The fake-only settings of a user (locale, DMs open, extra permissions); mutable."""
        return self.user_settings.setdefault(_id(user), UserSettings())

    def user_named(self, name: str) -> dict:
        """Look a user up by username."""
        for user in self.users.values():
            if user["username"] == name:
                return user
        raise LookupError(f"no user named {name!r}")

    def add_guild(self, name: str, channel_names: list[str], members: list[dict], *,
                  owner: dict | None = None, locale: str = "en-US", guild_id: str | None = None,
                  with_bot: bool = True) -> dict:
        """Create a guild with text channels and members; returns the GUILD_CREATE payload.
        ``with_bot`` False: a server that never added the bot (it gets no event of it, and
        no REST call reaches it), where a user may still use an app they installed."""
        gid = guild_id or snowflake()
        everyone = {"id": gid, "name": "@everyone", "permissions": str(DEFAULT_PERMISSIONS), "position": 0,
                    **ROLE_LOOK, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        guild = {
            "id": gid, "name": name, "icon": None, "owner_id": (owner or self.app_owner)["id"],
            "unavailable": False, "roles": [everyone],
            # Like Discord for anything but tiny guilds: only the bot's own member is sent; other
            # members are only visible through the members intent (op 8 chunking) or events.
            "members": [], "member_count": 0, "channels": [], "threads": [], "presences": [],
            "voice_states": [], "emojis": [], "stickers": [], "features": [], "large": False,
            "joined_at": now_iso(), "preferred_locale": locale, "premium_tier": 0, "mfa_level": 0,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "nsfw_level": 0, "system_channel_flags": 0, "afk_timeout": 300, "system_channel_id": None,
            # What a new, unboosted guild has; Discord sends the unset ones as null.
            "description": None, "home_header": None, "splash": None, "discovery_splash": None, "banner": None,
            "application_id": None, "region": "deprecated", "afk_channel_id": None, "widget_enabled": False,
            "widget_channel_id": None, "max_presences": None, "max_members": 25000000,
            "max_stage_video_channel_users": 50, "max_video_channel_users": 25, "vanity_url_code": None,
            "premium_subscription_count": 0, "rules_channel_id": None, "safety_alerts_channel_id": None,
            "public_updates_channel_id": None, "premium_progress_bar_enabled": False, "nsfw": False,
            "incidents_data": None, "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }
        self.guilds[gid] = guild
        self.guild_members[gid] = {}
        if not with_bot:
            self.foreign_guilds.add(gid)
            for user in members:
                self.add_member(guild, user)
            for cname in channel_names:
                self.add_channel(guild, cname)
            return guild
        # The bot's own managed role, as Discord creates it when the bot joins with permissions.
        bot_role = {"id": snowflake(), "name": self.bot_user["username"], "permissions": str(self.bot_permissions),
                    "position": 1, **ROLE_LOOK, "hoist": False, "managed": True, "mentionable": False, "flags": 0,
                    "tags": {"bot_id": self.bot_user["id"]}}
        guild["roles"].append(bot_role)
        self._bot_roles[gid] = bot_role["id"]
        for user in [self.bot_user, *members]:
            self.add_member(guild, user)
        guild["members"] = [self.guild_members[gid][self.bot_user["id"]]]
        for cname in channel_names:
            self.add_channel(guild, cname)
        return guild

    def add_member(self, guild: dict | str, user: dict) -> dict:
        """Add a user to a guild (before the bot connects); returns the member object."""
        gid = _id(guild)
        extra = self.settings(user).permissions if not user.get("bot") else 0
        roles = [self._role_for(gid, extra)["id"]] if extra else []
        if user["id"] == self.bot_user["id"] and gid in self._bot_roles:
            roles = [self._bot_roles[gid]]
        member = {"user": user, "roles": roles, "nick": None, "avatar": None, "banner": None, "joined_at": now_iso(),
                  "premium_since": None, "deaf": False, "mute": False, "flags": 0, "pending": False,
                  "communication_disabled_until": None}
        self.guild_members[gid][user["id"]] = member
        self.guilds[gid]["member_count"] = len(self.guild_members[gid])
        return member

    def _role_for(self, gid: str, permissions: int) -> dict:
        """One role per distinct permission set, so Member.guild_permissions agrees with the payload."""
        guild = self.guilds[gid]
        for role in guild["roles"]:
            if role["id"] != gid and not role.get("managed") and int(role["permissions"]) == permissions:
                return role
        role = {"id": snowflake(), "name": f"granted-{permissions:x}", "permissions": str(permissions),
                "position": len(guild["roles"]), **ROLE_LOOK, "hoist": False, "managed": False,
                "mentionable": False, "flags": 0}
        guild["roles"].append(role)
        return role

    def add_channel(self, guild: dict | str, name: str, *, type: int = GUILD_TEXT,
                    parent_id: str | None = None) -> dict:
        """Add a guild channel (before the bot connects; bot-created channels go through REST)."""
        gid = _id(guild)
        channel = {"id": snowflake(), "type": type, "guild_id": gid, "name": name,
                   "position": len(self.guilds[gid]["channels"]), "permission_overwrites": [], "nsfw": False,
                   "parent_id": parent_id, "topic": None, "last_message_id": None, "rate_limit_per_user": 0,
                   "flags": 0}
        self.guilds[gid]["channels"].append(channel)
        self.channels[channel["id"]] = channel
        return channel

    def add_group_dm(self, users: list[dict]) -> dict:
        """A group DM between users (not the bot): the bot never sees it, but a user who
        installed the app to their account may use its commands there."""
        channel = {"id": snowflake(), "type": GROUP_DM, "recipients": [self.users[u["id"]] for u in users],
                   "name": None, "icon": None, "owner_id": users[0]["id"], "last_message_id": None, "flags": 0}
        self.channels[channel["id"]] = channel
        return channel

    def install_for_user(self, user: dict | str) -> None:
        """The user adds the app to their own account (Discord's user install)."""
        self.user_installs.add(_id(user))

    @property
    def bot_guilds(self) -> dict[str, dict]:
        """The guilds the bot is in (the others reach it only through users' installs)."""
        return {gid: g for gid, g in self.guilds.items() if gid not in self.foreign_guilds}

    def channel_named(self, guild: dict | str, name: str) -> dict:
        """A guild channel or thread by name."""
        gid = _id(guild)
        for channel in self.channels.values():
            if channel.get("guild_id") == gid and channel.get("name") == name:
                return channel
        raise LookupError(f"no channel {name!r} in guild {gid}")

    def member_permissions(self, guild: dict | str, user: dict | str) -> int:
        """Permission bits of a member, computed from owner status and roles like Discord does."""
        gid, uid = _id(guild), _id(user)
        guild_obj = self.guilds[gid]
        if guild_obj["owner_id"] == uid:
            return ALL_PERMISSIONS
        member = self.guild_members[gid].get(uid)
        if member is None:
            raise LookupError(f"user {uid} is not a member of guild {gid}")
        roles = {r["id"]: int(r["permissions"]) for r in guild_obj["roles"]}
        perms = roles[gid]
        for rid in member["roles"]:
            perms |= roles[rid]
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def channel_permissions(self, channel: dict | str, user: dict | str | None = None) -> int:
        """A member's permissions in a channel (the bot's by default), as Discord computes them:
        @everyone and roles, then the channel's overwrites (@everyone, roles, the member).
        A thread uses its parent's overwrites. DMs: everything."""
        chan = self._channel(_id(channel))
        if chan["type"] == DM:
            return ALL_PERMISSIONS
        uid = _id(user) if user is not None else self.bot_user["id"]
        if chan["type"] == GROUP_DM:  # its members see everything; the bot is never one of them
            return ALL_PERMISSIONS if any(r["id"] == uid for r in chan["recipients"]) else 0
        gid = chan["guild_id"]
        if gid in self.foreign_guilds and uid == self.bot_user["id"]:
            return 0  # the bot is not in this server
        perms = self.member_permissions(gid, uid)
        if perms & ADMINISTRATOR or self.guilds[gid]["owner_id"] == uid:
            return ALL_PERMISSIONS
        base = self.channels.get(chan.get("parent_id") or "", chan) if chan["type"] in THREAD_TYPES else chan
        overwrites = {o["id"]: o for o in base.get("permission_overwrites") or []}
        roles = set(self.guild_members[gid][uid]["roles"])

        def apply(perms: int, allow: int, deny: int) -> int:
            return (perms & ~deny) | allow

        if gid in overwrites:
            perms = apply(perms, int(overwrites[gid]["allow"]), int(overwrites[gid]["deny"]))
        allow = deny = 0
        for rid in roles:
            if rid in overwrites:
                allow |= int(overwrites[rid]["allow"])
                deny |= int(overwrites[rid]["deny"])
        perms = apply(perms, allow, deny)
        if uid in overwrites:
            perms = apply(perms, int(overwrites[uid]["allow"]), int(overwrites[uid]["deny"]))
        return perms

    async def set_overwrite(self, channel: dict | str, target: dict | str, *, allow: int = 0, deny: int = 0,
                            member: bool = False) -> None:
        """Set a channel's permission overwrite for a role (or a member) as a server admin
        would; the connected bot is told (CHANNEL_UPDATE). ``target`` is a role, a user or an id."""
        chan = self._channel(_id(channel))
        tid = _id(target)
        kind = 1 if member or tid in self.users else 0
        rest = [o for o in chan["permission_overwrites"] if o["id"] != tid]
        chan["permission_overwrites"] = [*rest, {"id": tid, "type": kind, "allow": str(allow), "deny": str(deny)}]
        await self._dispatch_if_connected("CHANNEL_UPDATE", chan)

    async def deny_bot(self, channel: dict | str, permissions: int) -> None:
        """Take ``permissions`` from the bot in one channel (an overwrite on its member)."""
        await self.set_overwrite(channel, self.bot_user["id"], deny=permissions, member=True)

    async def set_bot_role_permissions(self, guild: dict | str, permissions: int) -> None:
        """Change what the bot's managed role grants in a guild (GUILD_ROLE_UPDATE is sent)."""
        gid = _id(guild)
        role = next(r for r in self.guilds[gid]["roles"] if r["id"] == self._bot_roles[gid])
        role["permissions"] = str(permissions)
        await self._dispatch_if_connected("GUILD_ROLE_UPDATE", {"guild_id": gid, "role": role})

    def _require(self, channel: dict, *needed: int) -> None:
        """Refuse as Discord does when the bot lacks one of ``needed`` in ``channel``:
        403/50001 without View Channel, 403/50013 for any other."""
        if channel["type"] == GROUP_DM or channel.get("guild_id") in self.foreign_guilds:
            raise DiscordError(403, 50001, "Missing Access")  # never the bot's, strict or not
        if not self.strict.permissions or channel["type"] == DM:
            return
        perms = self.channel_permissions(channel)
        if not perms & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        for bit in needed:
            if not perms & bit:
                raise DiscordError(403, 50013, "Missing Permissions")

    def _dm_channel(self, user: dict | str, create: bool) -> dict | None:
        uid = _id(user)
        for channel in self.channels.values():
            if channel["type"] == DM and channel["recipients"][0]["id"] == uid:
                return channel
        if not create:
            return None
        channel = {"id": snowflake(), "type": DM, "recipients": [self.users[uid]], "last_message_id": None,
                   "flags": 0}
        self.channels[channel["id"]] = channel
        return channel

    def _channel(self, cid: str) -> dict:
        channel = self.channels.get(cid)
        if channel is None:
            raise unknown("Channel", 10003)
        return channel
