"""What tests read from the fake Discord: messages, DMs, files, pings, components, synced
commands, interaction responses, refused requests; and waiting until something happened."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from .fake_model import BUTTON, EPHEMERAL, LOADING, MENTION, Recorded, _id
from .fake_validation import walk_components


class ReadingMixin:
    """Reading what the bot did, and waiting for it (wait_until, wait_for_message, ...)."""

    def channel_messages(self, channel: dict | str, *, ephemeral: bool = False) -> list[dict]:
        """Live messages of a channel, oldest first; ephemeral ones only when asked for."""
        cid = _id(channel)
        return [m for m in self.messages.values()
                if m["channel_id"] == cid and (ephemeral or not m["flags"] & EPHEMERAL)]

    def last_message(self, channel: dict | str) -> dict | None:
        """The newest non-ephemeral live message of a channel, or None."""
        messages = self.channel_messages(channel)
        return messages[-1] if messages else None

    def dm_channel(self, user: dict | str) -> dict | None:
        """The DM channel between the bot and a user, if the bot opened one."""
        return self._dm_channel(user, create=False)

    def open_dm(self, user: dict | str) -> dict:
        """The DM channel between the bot and a user, created if needed (to run commands in DMs)."""
        channel = self._dm_channel(user, create=True)
        assert channel is not None
        return channel

    def dms_to(self, user: dict | str) -> list[dict]:
        """Messages the bot sent to a user by DM, oldest first."""
        channel = self.dm_channel(user)
        return self.channel_messages(channel) if channel else []

    def ephemeral_responses(self, user: dict | str) -> list[dict]:
        """Ephemeral messages (responses and followups) only this user can see, oldest first."""
        uid = _id(user)
        return [m for m in self.messages.values() if m["flags"] & EPHEMERAL and m.get("_visible_to") == uid]

    def files(self, message: dict | str) -> list[dict]:
        """Attached files of a message: dicts with id, filename, content_type and data (bytes)."""
        return list(self._any_message(message).get("_files", []))

    def pinged(self, message: dict | str) -> list[str]:
        """Ids of users a message pinged: mentioned in its content and allowed by its
        allowed_mentions when it was created. As on Discord, a mention added or allowed by
        a later edit (the filling of a deferred "thinking" reply included) notifies nobody."""
        return list(self._any_message(message).get("_pinged", []))

    def pinged_groups(self, message: dict | str) -> list[str]:
        """What a message pinged beyond single users when it was created: "everyone", "here",
        "role:<id>" (see fake_messages._group_pings)."""
        return list(self._any_message(message).get("_pinged_groups", []))

    @staticmethod
    def _pings(content: str, allowed: dict | None) -> list[str]:
        ids = list(dict.fromkeys(MENTION.findall(content)))
        if allowed is None or "users" in allowed.get("parse", []):
            return ids
        return [uid for uid in ids if uid in {str(u) for u in allowed.get("users", [])}]

    def components(self, message: dict | str) -> list[dict]:
        """Every component of a message, flattened (action rows and V2 layouts included)."""
        return [c for _, c in walk_components(self._any_message(message).get("components", []))]

    def find_component(self, message: dict | str, predicate: Callable[[dict], Any]) -> dict | None:
        """The first component of a message for which predicate(component) is true, or None."""
        return next((c for c in self.components(message) if predicate(c)), None)

    def button(self, message: dict | str, label: str) -> dict:
        """The button with this label (handy for DynamicItem custom_ids); LookupError if absent."""
        found = self.find_component(message, lambda c: c.get("type") == BUTTON and c.get("label") == label)
        if found is None:
            raise LookupError(f"no button labelled {label!r} on message {_id(message)}")
        return found

    def synced_commands(self, guild: dict | str | None = None) -> list[dict]:
        """Commands as last synced (global, or for one guild), with their localizations."""
        gid = None if guild is None else _id(guild)
        return [c for (g, _), c in self.commands.items() if g == gid]

    def command(self, name: str, guild: dict | str | None = None) -> dict:
        """One synced top-level command by default name."""
        gid = None if guild is None else _id(guild)
        try:
            return self.commands[(gid, name)]
        except KeyError:
            raise LookupError(f"/{name} was never synced") from None

    @staticmethod
    def _interaction_id(interaction: dict) -> str:
        # Accept the INTERACTION_CREATE payload or the response record wait_response returned.
        return interaction.get("interaction_id") or interaction["id"]

    def response_message(self, interaction: dict) -> dict | None:
        """The message an interaction response created or updated, if any (deleted ones too)."""
        record = self.interaction_responses.get(self._interaction_id(interaction))
        if record is None or record["message_id"] is None:
            return None
        mid = record["message_id"]
        return self.messages.get(mid) or self.deleted_messages.get(mid)

    def followups(self, interaction: dict) -> list[dict]:
        """Followup messages sent for an interaction, oldest first."""
        iid = self._interaction_id(interaction)
        return [m for m in self.messages.values() if m.get("_followup_of") == iid]

    def unfilled_placeholders(self) -> list[dict]:
        """Interactions answered with a deferral that shows a "thinking…" message (type 5)
        which no edit or followup has filled since and which is still there: on Discord the
        user would watch it think until it fails."""
        out = []
        for iid, record in self.interaction_responses.items():
            msg = self.messages.get(record["message_id"] or "") if record["type"] == 5 else None
            if msg is not None and msg["flags"] & LOADING:
                out.append(self.interactions[iid])
        return out

    def errors_with(self, code: int) -> list[Recorded]:
        """Requests the fake refused with this Discord error code (e.g. 50007, 10008)."""
        return [r for r in self.errors if r.code == code]

    @property
    def invalid_requests(self) -> list[Recorded]:
        """Requests refused as Invalid Form Body (50035): always a bug in the bot."""
        return self.errors_with(50035)

    # ------------------------------------------------------------------ waiting
    # How often a waiter looks again between changes: its predicate may read the bot's own
    # state, which changes after the fake answered. A benchmark whose predicates read only
    # the fake's world sets it longer, so fifty waiters do not spend the fake's processor.
    poll_every = 0.01

    def _changed(self) -> None:
        """Wake every waiter; they re-check their predicate."""
        self._change.set()
        self._change = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until predicate() is truthy; returns its value. TimeoutError after timeout seconds.

        The predicate is checked after every request and gateway message, and every
        ``poll_every`` seconds (10 ms) too, so it may also look at the bot's own state (which
        changes after the fake answered).
        """
        try:
            async with asyncio.timeout(timeout):
                while True:
                    result = predicate()
                    if result:
                        return result
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._change.wait(), self.poll_every)
        except TimeoutError:
            raise TimeoutError(f"fake discord: condition not met within {timeout}s") from None

    async def wait_for_message(self, channel: dict | str, predicate: Callable[[dict], Any] | None = None,
                               *, timeout: float = 5.0, ephemeral: bool = False) -> dict:
        """The newest message of a channel matching predicate (edits count), waiting for it."""
        check = predicate or (lambda _m: True)
        return await self.wait_until(
            lambda: next((m for m in reversed(self.channel_messages(channel, ephemeral=ephemeral)) if check(m)),
                         None), timeout)

    async def wait_for_dm(self, user: dict | str, predicate: Callable[[dict], Any] | None = None,
                          *, timeout: float = 5.0) -> dict:
        """The newest DM to a user matching predicate, waiting for it."""
        check = predicate or (lambda _m: True)
        return await self.wait_until(lambda: next((m for m in reversed(self.dms_to(user)) if check(m)), None),
                                     timeout)

    async def wait_response(self, interaction: dict, timeout: float = 5.0) -> dict:
        """Wait for the bot's callback to an interaction; returns its record.

        The record has "type" (4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete
        choices, 9 modal), "data" (the callback's data), "message_id" (message created or updated,
        else None), "interaction_id", "files" (uploaded file names) and "at" (perf_counter time).
        Raises AssertionError if the fake refused the callback (use wait_until if the bot retries).
        """
        iid = interaction["id"]

        def answered() -> dict | None:
            if iid in self.interaction_responses:
                return self.interaction_responses[iid]
            if iid in self.rejected_callbacks:
                raise AssertionError(f"the bot's response was refused: {self.rejected_callbacks[iid]}")
            return None

        return await self.wait_until(answered, timeout)

    async def wait_connected(self, timeout: float = 10.0) -> None:
        """Wait until a bot has identified and received READY and its guilds."""
        await self.wait_until(lambda: self.ready, timeout)
