"""Checks shared by the end-to-end games: what a message shows, what the channel must not
show, and that the stored log replays to the stored state."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from storage import Store

from .fake_discord import EPHEMERAL
from .table import Table


def text_of(message: dict) -> str:
    """Everything a message shows: content, embeds, components (labels and values)."""
    return json.dumps([message["content"], message["embeds"], message.get("components", [])], ensure_ascii=False)


def dm_text(message: dict) -> str:
    """A DM's content and embeds."""
    return message["content"] + json.dumps(message["embeds"], ensure_ascii=False)


def latest_private_view(fake: Any, user: dict) -> dict | None:
    """The private view ``user`` saw last: their newest hand DM, or the private panel a move
    of theirs turned into their next step with their hand as the move left it (which then
    owes them no DM), whichever was sent or edited last."""
    views = [*fake.dms_to(user), *(m for m in fake.ephemeral_responses(user) if m["embeds"])]
    return max(views, key=lambda m: m.get("edited_timestamp") or m["timestamp"], default=None)


class ChannelWatcher:
    """Goes through every channel message, as it is now and after every edit (deleted ones
    too), once per version; a game's watcher checks each for hidden things."""

    def __init__(self, t: Table, channel: dict) -> None:
        self.t, self.channel = t, channel
        self.seen: dict[str, str] = {}
        self.checked = 0

    def messages(self) -> list[dict]:
        fake = self.t.fake
        cid = self.channel["id"]
        live = fake.channel_messages(self.channel)
        gone = [m for m in fake.deleted_messages.values()
                if m["channel_id"] == cid and not m["flags"] & EPHEMERAL]
        return live + gone

    def new_texts(self) -> Iterator[str]:
        """The text of each message new or edited since the last look."""
        for m in self.messages():
            text = text_of(m)
            if self.seen.get(m["id"]) == text:
                continue
            self.seen[m["id"]] = text
            self.checked += 1
            yield text


async def replay_matches_store(engine: Any, db: str, game: int, seats: int) -> None:
    """The stored log, replayed from the stored seed, gives the stored state."""
    store = await Store.open(db)
    try:
        row = await store.get_game(game)
        assert row is not None and row.seed is not None
        state = engine.setup(seats, row.options, row.seed)
        for a in await store.actions(game):
            state, _ = engine.apply(state, a.seat, engine.parse_action(a.action))
        assert engine.dump_state(state) == row.state
        assert state.version == row.version
    finally:
        await store.close()


def move_answered(message: dict | None) -> None:
    """A move typed as a command is answered: publicly by the message of a turn that passes
    (it pings who acts now), or privately ("Done.") when its step folds into the card."""
    assert message is not None
    if message["flags"] & EPHEMERAL:
        assert message["content"] in ("Done.", "Hecho."), message["content"]
    else:
        assert message["content"], message
