"""What users do on the fake Discord, driven by tests: slash commands and autocomplete
(checked like the Discord client checks them), clicks, selects, modal submissions,
posts, edits and moderators' deletions."""

from __future__ import annotations

from typing import Any

from .fake_model import (
    ACTION_ROW,
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    ATTACH_FILES,
    ATTACHMENT_SIZE_LIMIT,
    AUTOCOMPLETE,
    BUTTON,
    CHANNEL_SELECT,
    DM,
    EMBED_LINKS,
    GROUP_DM,
    LABEL,
    MENTION_EVERYONE,
    MENTIONABLE_SELECT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    ROLE_SELECT,
    SELECT_TYPES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    STRING_SELECT,
    TEXT_INPUT,
    THREAD_TYPES,
    USE_EXTERNAL_EMOJIS,
    USER_SELECT,
    VIEW_CHANNEL,
    _id,
    public,
    snowflake,
)


def _matches(node: dict, name: str) -> bool:
    """A command/option is addressed by its default name or by any of its localised names."""
    return node.get("name") == name or name in (node.get("name_localizations") or {}).values()


class ActionsMixin:
    """Users' actions: interactions sent to the bot, and messages posted, edited or deleted."""

    def _guild_id_of(self, channel: dict) -> str | None:
        return channel.get("guild_id")

    def _channel_for_interaction(self, channel: dict, user: dict) -> dict:
        chan = public(self.channels[channel["id"]])
        if chan["type"] != DM:
            # Discord: the invoking user's permissions in the channel, overwrites included.
            chan["permissions"] = str(self.channel_permissions(chan, user))
        return chan

    def _context_of(self, channel: dict) -> int:
        """Discord's interaction context of a channel: 0 a server, 1 the bot's DM, 2 a group
        DM (or a DM between users)."""
        if channel["type"] == DM:
            return 1
        return 2 if channel["type"] == GROUP_DM else 0

    def _owners(self, user: dict, channel: dict, command: dict | None) -> dict[str, str]:
        """The interaction's ``authorizing_integration_owners``: the guild install ("0": the
        guild, or "0" in the bot's DM) where the bot is installed, the user install ("1":
        the user) if this user added the app; for a command, only the installations it
        declares (``integration_types``)."""
        owners: dict[str, str] = {}
        gid = self._guild_id_of(channel)
        context = self._context_of(channel)
        if context == 1:
            owners["0"] = "0"
        elif context == 0 and gid not in self.foreign_guilds:
            owners["0"] = str(gid)
        if user["id"] in self.user_installs:
            owners["1"] = user["id"]
        if command is not None:
            kinds = {str(k) for k in command.get("integration_types") or [0]}
            owners = {k: v for k, v in owners.items() if k in kinds}
        return owners

    async def _send_interaction(self, itype: int, user: dict, channel: dict | str, data: dict,
                                message: dict | None = None, opened_by: str | None = None,
                                command: dict | None = None) -> dict:
        if not self.connected:
            raise RuntimeError("no bot is connected to the fake gateway")
        channel = self._channel(_id(channel))
        iid = snowflake()
        token = f"interaction-token-{iid}"
        payload: dict[str, Any] = {
            "id": iid, "application_id": self.app_id, "type": itype, "token": token, "version": 1,
            "locale": self.settings(user).locale, "app_permissions": str(self.channel_permissions(channel)),
            "entitlements": [], "attachment_size_limit": ATTACHMENT_SIZE_LIMIT, "channel_id": channel["id"],
            "channel": self._channel_for_interaction(channel, user), "data": data,
        }
        gid = self._guild_id_of(channel)
        context = self._context_of(channel)
        owners = self._owners(user, channel, command)
        if not owners:  # the app is installed neither here nor by this user: no interaction
            raise PermissionError(f"{user['username']} cannot use the app in this channel")
        if gid is None or context == 2 or gid in self.foreign_guilds:
            # Discord: only these for (G)DMs with other users, USE_EXTERNAL_EMOJIS too with the
            # bot; where the bot is not (a server through a user's install) the same as a GDM.
            limited = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE | (USE_EXTERNAL_EMOJIS if context == 1 else 0)
            payload["app_permissions"] = str(limited)
        if gid is None:
            payload.update(user=user, context=context, authorizing_integration_owners=owners)
        else:
            if user["id"] not in self.guild_members[gid]:
                raise LookupError(f"{user['username']} is not a member of guild {gid}")
            guild = self.guilds[gid]
            # Discord: "total permissions of the member in the channel, including overwrites".
            member = dict(self.guild_members[gid][user["id"]],
                          permissions=str(self.channel_permissions(channel, user)))
            payload.update(guild_id=gid, guild_locale=guild["preferred_locale"], member=member, context=0,
                           guild={"id": gid, "locale": guild["preferred_locale"], "features": []},
                           authorizing_integration_owners=owners)
        if message is not None:
            payload["message"] = public(message)
        self.interactions[iid] = payload
        if opened_by is not None:  # a modal's submission: the interaction answered with the modal
            self._modal_openers[iid] = opened_by
        self._tokens[token] = iid
        self._interaction_started[iid] = self.clock.now()
        await self.dispatch("INTERACTION_CREATE", payload)
        # Discord's clock starts when the event leaves its gateway.
        self._interaction_started[iid] = self.clock.now()
        return payload

    def _find_command(self, command: str, channel: dict, user: dict) -> tuple[dict, list[dict], dict]:
        """Resolve "game new" to (top-level command, [group/subcommand nodes], node holding the options)."""
        parts = command.split()
        if not parts:
            raise ValueError("empty command name")
        gid = self._guild_id_of(channel)
        scopes = [gid, None] if gid else [None]
        cmd = next((c for scope in scopes for (g, _), c in self.commands.items()
                    if g == scope and c.get("type", 1) == 1 and _matches(c, parts[0])), None)
        if cmd is None:
            raise LookupError(f"/{parts[0]} was never synced to the fake Discord (tree.sync())")
        self._check_can_use(cmd, user, channel)
        node, chain = cmd, []
        for part in parts[1:]:
            sub = next((o for o in node.get("options") or [] if o["type"] in (1, 2) and _matches(o, part)), None)
            if sub is None:
                raise LookupError(f"/{command}: {node['name']} has no subcommand or group {part!r}")
            chain.append(sub)
            node = sub
        subs = [o["name"] for o in node.get("options") or [] if o["type"] in (1, 2)]
        if subs:
            raise LookupError(f"/{command} is a group: pick one of {subs}")
        return cmd, chain, node

    def _check_can_use(self, cmd: dict, user: dict, channel: dict) -> None:
        """The Discord client only offers commands allowed in this context, installed here (by
        the server, or by the user for themself) and, in a server, to this member."""
        contexts = cmd.get("contexts")
        gid = self._guild_id_of(channel)
        context = self._context_of(channel)
        if not self._owners(user, channel, cmd):
            raise PermissionError(f"/{cmd['name']} is not installed where {user['username']} is "
                                  f"(integration_types={cmd.get('integration_types')})")
        if contexts is not None and context not in contexts:
            raise PermissionError(f"/{cmd['name']} cannot be used in context {context}")
        if context == 2 or gid in self.foreign_guilds:
            return  # a user's own install: the server's command permissions do not apply
        if gid is None:
            if (contexts is not None and 1 not in contexts) or (contexts is None and cmd.get("dm_permission") is False):
                raise PermissionError(f"/{cmd['name']} cannot be used in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise PermissionError(f"/{cmd['name']} cannot be used in guilds")
        required = cmd.get("default_member_permissions")
        if required is None or not self.enforce_command_permissions:
            return
        perms = self.member_permissions(gid, user)
        if perms & ADMINISTRATOR or perms == ALL_PERMISSIONS:
            return
        if int(required) == 0 or perms & int(required) != int(required):
            raise PermissionError(f"/{cmd['name']} is hidden from {user['username']} "
                                  f"(default_member_permissions={required})")

    def _as_user(self, value: dict | str) -> dict:
        uid = _id(value)
        if uid not in self.users:
            raise LookupError(f"unknown user {uid}")
        return self.users[uid]

    def _as_role(self, value: dict | str, gid: str | None) -> dict:
        rid = _id(value)
        role = next((r for r in self.guilds[gid]["roles"] if r["id"] == rid), None) if gid else None
        if role is None:
            raise LookupError(f"unknown role {rid}")
        return role

    def _resolve_user(self, user: dict, gid: str | None, resolved: dict) -> str:
        resolved.setdefault("users", {})[user["id"]] = user
        if gid and user["id"] in self.guild_members[gid]:
            member = {k: v for k, v in self.guild_members[gid][user["id"]].items() if k != "user"}
            member["permissions"] = str(self.member_permissions(gid, user))
            resolved.setdefault("members", {})[user["id"]] = member
        return user["id"]

    def _resolve_channel(self, channel: dict, gid: str | None, resolved: dict, allowed: list[int] | None,
                         user: dict) -> str:
        chan = self._channel(_id(channel))
        if allowed and chan["type"] not in allowed:
            raise ValueError(f"channel type {chan['type']} is not allowed here (channel_types={allowed})")
        entry = public(chan)
        if chan.get("guild_id"):
            entry["permissions"] = str(self.member_permissions(chan["guild_id"], user))
        resolved.setdefault("channels", {})[chan["id"]] = entry
        return chan["id"]

    def _option_value(self, opt: dict, value: Any, gid: str | None, resolved: dict, user: dict) -> Any:
        """Check a value like the Discord client does and turn objects into ids plus resolved data."""
        otype, name = opt["type"], opt["name"]
        if otype == 3:
            if not isinstance(value, str):
                raise TypeError(f"option {name!r} is a string, got {value!r}")
            if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
                raise ValueError(f"option {name!r}: length {len(value)} outside "
                                 f"{opt.get('min_length', 0)}..{opt.get('max_length', 6000)}")
        elif otype in (4, 10):
            kinds = (int,) if otype == 4 else (int, float)
            if isinstance(value, bool) or not isinstance(value, kinds):
                raise TypeError(f"option {name!r} is {'an integer' if otype == 4 else 'a number'}, got {value!r}")
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise ValueError(f"option {name!r}: {value} < min_value {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise ValueError(f"option {name!r}: {value} > max_value {opt['max_value']}")
        elif otype == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, got {value!r}")
        elif otype == 6:
            return self._resolve_user(self._as_user(value), gid, resolved)
        elif otype == 7:
            return self._resolve_channel(value, gid, resolved, opt.get("channel_types"), user)
        elif otype == 8:
            role = self._as_role(value, gid)
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        elif otype == 9:
            if _id(value) in self.users:
                return self._resolve_user(self._as_user(value), gid, resolved)
            role = self._as_role(value, gid)
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        else:
            raise NotImplementedError(f"option type {otype} ({name!r}) is not supported by the fake")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r}: {value!r} is not one of the choices "
                             f"{[c['value'] for c in choices]}")
        return value

    def _build_options(self, command: str, node: dict, options: dict[str, Any], gid: str | None,
                       resolved: dict, user: dict, focused: str | None = None) -> list[dict]:
        schema = node.get("options") or []
        by_name: dict[str, dict] = {}
        for opt in schema:
            by_name[opt["name"]] = opt
            for localised in (opt.get("name_localizations") or {}).values():
                by_name.setdefault(localised, opt)
        out, given = [], set()
        focus_opt = None
        if focused is not None:
            focus_opt = by_name.get(focused)
            if focus_opt is None or not focus_opt.get("autocomplete"):
                raise LookupError(f"/{command} has no autocomplete option {focused!r}")
        for key, value in options.items():
            opt = by_name.get(key)
            if opt is None:
                raise TypeError(f"/{command} has no option {key!r}; it has {[o['name'] for o in schema]}")
            if opt["name"] in given:
                raise TypeError(f"/{command}: option {opt['name']!r} given twice")
            given.add(opt["name"])
            if opt is focus_opt:
                # The focused value is whatever the user has typed so far: not checked, no resolved data.
                out.append({"name": opt["name"], "type": opt["type"], "value": value, "focused": True})
            else:
                out.append({"name": opt["name"], "type": opt["type"],
                            "value": self._option_value(opt, value, gid, resolved, user)})
        if focus_opt is not None and focus_opt["name"] not in given:
            out.append({"name": focus_opt["name"], "type": focus_opt["type"], "value": "", "focused": True})
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
            if missing:
                raise ValueError(f"/{command}: missing required options {missing}")
        return out

    @staticmethod
    def _command_data(cmd: dict, chain: list[dict], leaf_options: list[dict]) -> dict:
        options = leaf_options
        for node in reversed(chain):  # wrap: subcommand (type 1) inside group (type 2) inside command
            options = [{"name": node["name"], "type": node["type"], "options": options}]
        data = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": options}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return data

    async def slash(self, command: str, user: dict, channel: dict | str, **options: Any) -> dict:
        """Run "/game new ..." as user in channel; returns the INTERACTION_CREATE payload sent."""
        chan = self._channel(_id(channel))
        cmd, chain, node = self._find_command(command, chan, user)
        resolved: dict = {}
        leaf = self._build_options(command, node, options, self._guild_id_of(chan), resolved, user)
        data = self._command_data(cmd, chain, leaf)
        if resolved:
            data["resolved"] = resolved
        return await self._send_interaction(APPLICATION_COMMAND, user, chan, data, command=cmd)

    async def autocomplete(self, command: str, user: dict, channel: dict | str, focused: str,
                           **options: Any) -> list[dict]:
        """Type into option `focused` of a command; returns the choices the bot answered with."""
        chan = self._channel(_id(channel))
        cmd, chain, node = self._find_command(command, chan, user)
        # Discord sends no resolved data with autocomplete: discord.py then gives discord.Object.
        leaf = self._build_options(command, node, options, self._guild_id_of(chan), {}, user, focused=focused)
        payload = await self._send_interaction(AUTOCOMPLETE, user, chan, self._command_data(cmd, chain, leaf),
                                               command=cmd)
        record = await self.wait_response(payload)
        return record["data"]["choices"]

    def _live_message(self, message: dict | str) -> dict:
        mid = _id(message)
        if mid in self.messages:
            return self.messages[mid]
        if mid in self.deleted_messages:
            raise LookupError(f"message {mid} was deleted")
        raise LookupError(f"unknown message {mid}")

    def _any_message(self, message: dict | str) -> dict:
        mid = _id(message)
        found = self.messages.get(mid) or self.deleted_messages.get(mid)
        if found is None:
            raise LookupError(f"unknown message {mid}")
        return found

    def _component(self, message: dict, custom_id: str, user: dict) -> dict:
        if message.get("_visible_to") not in (None, user["id"]):
            raise PermissionError(f"message {message['id']} is ephemeral to someone else")
        comp = self.find_component(message, lambda c: c.get("custom_id") == custom_id)
        if comp is None:
            ids = [c["custom_id"] for c in self.components(message) if c.get("custom_id")]
            raise LookupError(f"no component {custom_id!r} on message {message['id']} (has {ids})")
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        return comp

    async def click(self, message: dict | str, custom_id: str, user: dict) -> dict:
        """Click a button on a message (its current state); returns the INTERACTION_CREATE payload."""
        msg = self._live_message(message)
        comp = self._component(msg, custom_id, user)
        if comp["type"] != BUTTON:
            raise TypeError(f"{custom_id!r} is not a button; use fake.select()")
        if comp.get("style") in (5, 6):
            raise ValueError(f"{custom_id!r} is a link/premium button: it sends no interaction")
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self._send_interaction(MESSAGE_COMPONENT, user, msg["channel_id"], data, message=msg)

    async def select(self, message: dict | str, custom_id: str, user: dict, values: list[Any]) -> dict:
        """Choose values in a select menu; returns the INTERACTION_CREATE payload sent."""
        msg = self._live_message(message)
        comp = self._component(msg, custom_id, user)
        ctype = comp["type"]
        if ctype not in SELECT_TYPES:
            raise TypeError(f"{custom_id!r} is not a select menu; use fake.click()")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        gid = self.channels[msg["channel_id"]].get("guild_id")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        resolved: dict = {}
        if ctype == STRING_SELECT:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad or len(set(values)) != len(values):
                raise ValueError(f"select {custom_id!r}: {values} not among its options {allowed}")
            data["values"] = list(values)
        else:
            ids = []
            for value in values:
                if ctype in (USER_SELECT, MENTIONABLE_SELECT) and _id(value) in self.users:
                    ids.append(self._resolve_user(self.users[_id(value)], gid, resolved))
                elif ctype == CHANNEL_SELECT:
                    ids.append(self._resolve_channel(value, gid, resolved, comp.get("channel_types"), user))
                elif ctype in (ROLE_SELECT, MENTIONABLE_SELECT):
                    role = self._as_role(value, gid)
                    resolved.setdefault("roles", {})[role["id"]] = role
                    ids.append(role["id"])
                else:
                    raise LookupError(f"unknown user {_id(value)}")
            data["values"], data["resolved"] = ids, resolved
        return await self._send_interaction(MESSAGE_COMPONENT, user, msg["channel_id"], data, message=msg)

    async def select_from_dm(self, message: dict | str, custom_id: str, user: dict, values: list[Any]) -> dict:
        """The same choice made on a copy of ``message``'s string menu that ``user`` got by DM:
        a DM interaction, which Discord sends to shard 0 whatever guild the game is in."""
        msg = self._live_message(message)
        comp = self._component(msg, custom_id, user)
        if comp["type"] != STRING_SELECT:
            raise TypeError(f"{custom_id!r} is not a string select menu")
        dm = self.open_dm(user)
        data = {"custom_id": custom_id, "component_type": comp["type"], "values": list(values)}
        return await self._send_interaction(MESSAGE_COMPONENT, user, dm["id"], data,
                                            message={**msg, "channel_id": dm["id"]})

    async def submit_modal(self, interaction: dict, values: dict[str, Any]) -> dict:
        """Fill in and submit the modal the bot answered `interaction` with ({custom_id: text})."""
        record = self.interaction_responses.get(interaction["id"])
        if record is None or record["type"] != 9:
            raise LookupError("the bot did not answer this interaction with a modal")
        modal, remaining = record["data"], dict(values)

        def answer(comp: dict) -> dict | None:
            cid = comp.get("custom_id")
            if comp.get("type") == TEXT_INPUT:
                text = remaining.pop(cid, comp.get("value") or "")
                if comp.get("required", True) and not text:
                    raise ValueError(f"modal field {cid!r} is required")
                if text and not comp.get("min_length", 0) <= len(text) <= comp.get("max_length", 4000):
                    raise ValueError(f"modal field {cid!r}: length {len(text)} out of range")
                return {"type": TEXT_INPUT, "custom_id": cid, "value": text}
            if comp.get("type") in SELECT_TYPES:
                return {"type": comp["type"], "custom_id": cid, "values": list(remaining.pop(cid, []))}
            return None

        components = []
        for comp in modal["components"]:
            if comp.get("type") == ACTION_ROW:
                kids = [a for a in (answer(c) for c in comp.get("components", [])) if a]
                components.append({"type": ACTION_ROW, "components": kids})
            elif comp.get("type") == LABEL and (inner := answer(comp.get("component") or {})):
                components.append({"type": LABEL, "component": inner})
        if remaining:
            raise LookupError(f"modal {modal['custom_id']!r} has no fields {sorted(remaining)}")
        user = self._user_of(interaction)
        message = interaction.get("message")
        data = {"custom_id": modal["custom_id"], "components": components}
        live = self.messages.get(message["id"]) if message else None
        return await self._send_interaction(MODAL_SUBMIT, user, interaction["channel_id"], data, message=live,
                                            opened_by=interaction["id"])

    async def delete_message(self, channel: dict | str, message: dict | str) -> None:
        """Delete a message as a moderator would; the bot then gets 10008 for it."""
        msg = self._get_message(_id(channel), _id(message))
        await self._delete(msg)

    async def delete_channel(self, channel: dict | str) -> None:
        """Delete a guild channel or thread as a moderator would."""
        await self._delete_channel(self._channel(_id(channel)))

    async def post_as(self, user: dict | str, channel: dict | str, content: str = "", **body: Any) -> dict:
        """``user`` posts a message in ``channel`` (e.g. chatter burying the board); returns it.

        Discord's checks for the user apply (a member with View Channel and Send Messages, or
        the DM's recipient) and the bot gets MESSAGE_CREATE if it can see the channel."""
        author, chan = self._as_user(user), self._channel(_id(channel))
        if chan["type"] == DM:
            if chan["recipients"][0]["id"] != author["id"]:
                raise PermissionError(f"{author['username']} is not in DM channel {chan['id']}")
        else:
            send = SEND_MESSAGES_IN_THREADS if chan["type"] in THREAD_TYPES else SEND_MESSAGES
            perms = self.channel_permissions(chan, author)
            if perms & (VIEW_CHANNEL | send) != VIEW_CHANNEL | send:
                raise PermissionError(f"{author['username']} cannot post in channel {chan['id']}")
        self._check_can_post(chan, by_bot=False)
        msg = self._create_message(chan["id"], {"content": content, **body}, [], author=author)
        await self._announce("MESSAGE_CREATE", msg)
        self._changed()
        return msg

    async def edit_as(self, user: dict | str, message: dict | str, content: str) -> dict:
        """``user`` edits their own message; the bot gets MESSAGE_UPDATE if it can see it."""
        msg = self._live_message(message)
        if msg["author"]["id"] != _id(user):
            raise PermissionError("users can only edit their own messages")
        self._edit_message(msg, {"content": content}, [])
        await self._announce("MESSAGE_UPDATE", msg)
        self._changed()
        return msg
