"""A hand the private panel shows as a step leaves it is not sent by DM as well while the
mover's part of the turn goes on: the DM follows once that part ends, showing the hand as it
is then, and a restart in between keeps it owed (Mundodisco: Ankh-Morpork, whose card plays
take several steps)."""

from __future__ import annotations

import random

from rules.ankh_morpork.model import Play

from .checks import dm_text
from .driver import Driver, seeded_table, start_game
from .harness import FakeWorld, handled
from .test_ankh_morpork import CARD_NAMES
from .test_ankh_morpork import UI as AM_UI

SEED = 13
NAMES = ("alice", "bob")
PARTS_WANTED = 3  # parts of a turn ended after a held hand, one of them across a restart


def dm_writes(fake, user: dict) -> int:  # type: ignore[no-untyped-def]
    """How many messages the bot sent or edited in its DMs with ``user`` so far."""
    channel = fake.dm_channel(user)
    if channel is None:
        return 0
    prefix = f"/channels/{channel['id']}/messages"
    return sum(1 for r in fake.requests if r.method in ("POST", "PATCH") and r.path.startswith(prefix))


def shows_hand(fake, user: dict, hand: list[str]) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``user``'s newest DM shows every card of ``hand`` (by its English name)."""
    dms = [m for m in fake.dms_to(user) if m["embeds"]]
    newest = max(dms, key=lambda m: m.get("edited_timestamp") or m["timestamp"], default=None)
    return newest is not None and all(CARD_NAMES[c][1] in dm_text(newest) for c in hand)


async def two_players(world: FakeWorld, db: str) -> Driver:
    """A seeded Ankh-Morpork game of alice and bob, started and its card shown; its driver."""
    t = await seeded_table(world, db, SEED)
    gid, _ = await start_game(t, world["alice"], "ankh_morpork", click=(world["bob"],))
    d = Driver(t, gid, names=dict(enumerate(NAMES)))
    await d.settled(0)
    await handled(t.fake)
    return d


async def test_a_hand_the_panel_shows_is_sent_by_dm_once_the_part_ends(fake, db) -> None:
    async with FakeWorld(users=list(NAMES), fake=fake) as world:
        d = await two_players(world, db)
        t, gid = d.t, d.gid
        rng = random.Random(4)
        held: dict[int, int] = {}  # seat -> its DM writes when its first hand was held
        ended = 0
        restarted = False
        for _ in range(200):
            g = await t.game(gid)
            if g.status != "active" or ended >= PARTS_WANTED:
                break
            seat = sorted(g.pending())[0]
            user = d.user(seat)
            version, hand = g.version, list(g.state.hands[seat])
            writes = dm_writes(fake, user)
            actions = g.legal_actions(seat)
            plays = [i for i, a in enumerate(actions) if isinstance(a, Play)]
            index = rng.choice(plays or range(len(actions)))
            if AM_UI.reaction(g, seat):
                dm = await fake.wait_for_dm(user, lambda m, v=version, s=seat, i=index:
                                            d.control(m, v, s, i) is not None)
                await d.use(dm, version, seat, index)
            else:
                await d.by_panel(seat, version, index)
            await d.moved_past(version)
            await handled(fake)
            g = await t.game(gid)
            now = list(g.state.hands[seat])
            if seat in g.pending() and now != hand and not AM_UI.reaction(g, seat):
                # The panel shows the hand as the step left it: no DM while the part goes on.
                assert dm_writes(fake, user) == writes, "a hand DM went out in the middle of a part"
                held.setdefault(seat, writes)
                if not restarted:
                    await t.restart()
                    restarted = True
                    d.panels.clear()  # the new bot answers a panel opened anew
                    # the new bot knows the hand is held (the store kept it)
                    assert seat in await t.bot.announcer.held_hands(await t.game(gid))
            elif seat in held and seat not in g.pending():
                # The part ended: one DM brings the hand up to date.
                await fake.wait_until(lambda u=user, h=now: shows_hand(fake, u, h), timeout=5)
                assert dm_writes(fake, user) - held.pop(seat) == 1
                ended += 1
        assert restarted and ended >= PARTS_WANTED, (restarted, ended)
