"""Interaction responses on the fake Discord: the callback (with its 3 s deadline and single
acknowledgement), followups and the webhook routes that edit or delete the responses."""

from __future__ import annotations

import time
from typing import Any

from .fake_limits import OLD_MESSAGE, TOKEN_LIFETIME
from .fake_model import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    EPHEMERAL,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    DiscordError,
    _Request,
    invalid_form,
    now_iso,
    public,
    snowflake,
    unknown,
)
from .fake_validation import _validate_choices, _validate_message, _validate_modal


class InteractionsMixin:
    """Interaction callbacks, followups and webhook messages, as Discord answers them."""

    def _interaction_for(self, app_id: str, token: str) -> dict:
        iid = self._tokens.get(token)
        if app_id != self.app_id or iid is None:
            raise unknown("Webhook", 10015)
        if self.strict.token_expiry and self.clock.now() - self._interaction_started[iid] > TOKEN_LIFETIME:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return self.interactions[iid]

    async def _interaction_callback(self, req: _Request) -> tuple[int, Any]:
        iid, token = req.params
        inter = self.interactions.get(iid)
        if inter is None or inter["token"] != token:
            raise unknown("interaction", 10062)
        try:
            answer = self._respond(inter, req.body, req.files)
        except DiscordError as exc:
            if iid not in self.interaction_responses:
                self.rejected_callbacks[iid] = exc
            raise
        record = self.interaction_responses[iid]
        if record["message_id"] is not None and record["type"] in (4, 5, 7):
            event = "MESSAGE_UPDATE" if record["type"] == 7 else "MESSAGE_CREATE"
            await self._announce(event, self.messages[record["message_id"]])
        return 200, answer

    def _respond(self, inter: dict, body: dict, files: list[dict]) -> dict:
        iid = inter["id"]
        if iid in self.interaction_responses:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        late = self.clock.now() - self._interaction_started[iid] > self.response_deadline
        if late and self.strict.response_deadline:
            raise unknown("interaction", 10062)  # too late: Discord already told the user it failed
        rtype, data = body.get("type"), dict(body.get("data") or {})
        on_message = "message" in inter  # components, and modals opened from a component
        allowed = {APPLICATION_COMMAND: {4, 5, 9}, MESSAGE_COMPONENT: {4, 5, 6, 7, 9}, AUTOCOMPLETE: {8},
                   MODAL_SUBMIT: {4, 5, 6, 7} if on_message else {4, 5, 6}}[inter["type"]]
        if rtype not in allowed:
            raise invalid_form("type", f"Response type {rtype} is not valid for interaction type {inter['type']}.")
        user = self._user_of(inter)
        record: dict[str, Any] = {"type": rtype, "data": data, "at": time.perf_counter(), "message_id": None,
                                  "interaction_id": iid, "files": [f["filename"] for f in files]}
        resource: dict[str, Any] = {"type": rtype}
        if rtype in (4, 5):  # (deferred) channel message with source
            flags = (data.get("flags") or 0) | (LOADING if rtype == 5 else 0)
            meta = self._interaction_metadata(inter)
            body_for_message = {**data, "flags": flags}
            if rtype == 5:
                channel = self._channel(inter["channel_id"])
                _validate_message(body_for_message)
                msg = self._new_loading_message(channel, flags)
            else:
                msg = self._create_message(inter["channel_id"], body_for_message, files)
            msg.update(webhook_id=self.app_id, interaction_metadata=meta, _interaction=iid,
                       type=20 if inter["type"] == APPLICATION_COMMAND else 19)
            if flags & EPHEMERAL:
                msg["_visible_to"] = user["id"]
            record["message_id"] = msg["id"]
            if rtype == 4:
                resource["message"] = public(msg)
        elif rtype == 6 and not on_message:
            pass  # a modal opened by a slash command: plain acknowledgement, nothing to update
        elif rtype in (6, 7):  # (deferred) update of the message the component is on
            msg = self._live_message(inter["message"]["id"])
            if rtype == 7:
                self._edit_message(msg, data, files)
                resource["message"] = public(msg)
            record["message_id"] = msg["id"]
        elif rtype == 8:
            _validate_choices(data.get("choices") or [], "data.choices")
        elif rtype == 9:
            _validate_modal(data)
        self.interaction_responses[iid] = record
        answer: dict[str, Any] = {"interaction": {"id": iid, "type": inter["type"]}}
        if rtype in (4, 5):
            answer["interaction"].update(response_message_id=record["message_id"], response_message_loading=rtype == 5,
                                         response_message_ephemeral=bool((data.get("flags") or 0) & EPHEMERAL))
        if "message" in resource:  # only a message sent (4) or updated (7) is a resource
            answer["resource"] = resource
        return answer

    def _interaction_metadata(self, inter: dict) -> dict:
        """A response message's ``interaction_metadata``: who did what, and on which message
        (components) or after which interaction (modal submissions)."""
        meta = {"id": inter["id"], "type": inter["type"], "user": self._user_of(inter),
                "authorizing_integration_owners": inter["authorizing_integration_owners"]}
        if inter["type"] == MESSAGE_COMPONENT:
            meta["interacted_message_id"] = inter["message"]["id"]
        elif inter["type"] == MODAL_SUBMIT:
            opener = self.interactions[self._modal_openers[inter["id"]]]
            meta["triggering_interaction_metadata"] = self._interaction_metadata(opener)
        return meta

    def _new_loading_message(self, channel: dict, flags: int) -> dict:
        # "Bot is thinking...": an empty message Discord fills in with the first edit or followup.
        msg = {"id": snowflake(), "channel_id": channel["id"], "author": self.bot_user, "content": "",
               "embeds": [], "components": [], "attachments": [], "mentions": [], "mention_roles": [],
               "mention_everyone": False, "pinned": False, "tts": False, "timestamp": now_iso(),
               "edited_timestamp": None, "type": 20, "flags": flags, "_files": [],
               "_born": self.clock.now()}
        if channel.get("guild_id"):
            msg["guild_id"] = channel["guild_id"]
        self.messages[msg["id"]] = msg
        return msg

    def _webhook_target(self, inter: dict, which: str) -> dict:
        """The message an interaction's webhook route names: ``@original`` (the response's
        message, or the one a component's update acknowledged), or a message of this
        interaction's webhook (a followup, or the response's own message), nothing else."""
        record = self.interaction_responses.get(inter["id"])
        if which != "@original":
            msg = self.messages.get(which)
            ours = msg is not None and (msg.get("_followup_of") == inter["id"]
                                        or (record is not None and record["message_id"] == which))
            if not ours:
                raise unknown("Message", 10008)
            assert msg is not None
            return msg
        if record is None or record["message_id"] is None:
            raise unknown("Message", 10008)
        msg = self.messages.get(record["message_id"])
        if msg is None:
            raise unknown("Message", 10008)
        return msg

    async def _followup(self, req: _Request) -> tuple[int, Any]:
        inter = self._interaction_for(*req.params)
        record = self.interaction_responses.get(inter["id"])
        if record is None:  # followups only exist once the interaction was acknowledged
            raise unknown("Webhook", 10015)
        loading = self.messages.get(record["message_id"] or "")
        if record["type"] == 5 and loading is not None and loading["flags"] & LOADING:
            # The first followup after a "thinking" defer replaces the loading message and keeps
            # the defer's ephemeral flag; later followups are independent messages.
            msg = self._edit_message(loading, {k: v for k, v in req.body.items() if k != "flags"}, req.files)
            await self._announce("MESSAGE_UPDATE", msg)
        else:
            user = self._user_of(inter)
            msg = self._create_message(inter["channel_id"], req.body, req.files, webhook_id=self.app_id,
                                       _followup_of=inter["id"])
            if msg["flags"] & EPHEMERAL:
                msg["_visible_to"] = user["id"]
            await self._announce("MESSAGE_CREATE", msg)
        if req.query.get("wait", "").lower() not in ("true", "1"):
            return 204, None
        return 200, public(msg)

    async def _get_webhook_message(self, req: _Request) -> tuple[int, Any]:
        inter = self._interaction_for(req.params[0], req.params[1])
        return 200, public(self._webhook_target(inter, req.params[2]))

    async def _patch_webhook_message(self, req: _Request) -> tuple[int, Any]:
        inter = self._interaction_for(req.params[0], req.params[1])
        msg = self._webhook_target(inter, req.params[2])
        if (self.strict.old_edits and not msg["flags"] & EPHEMERAL
                and self.clock.now() - msg.get("_born", self.clock.now()) > OLD_MESSAGE):
            # as through the channel's route: an edit is an edit, whoever's token makes it
            raise DiscordError(400, 30046, "Maximum number of edits to messages older than 1 hour reached. "
                                           "Try again later")
        self._edit_message(msg, req.body, req.files)
        await self._announce("MESSAGE_UPDATE", msg)
        return 200, public(msg)

    async def _delete_webhook_message(self, req: _Request) -> tuple[int, Any]:
        inter = self._interaction_for(req.params[0], req.params[1])
        await self._delete(self._webhook_target(inter, req.params[2]))
        return 204, None
