"""Mundodisco: Ankh-Morpork end to end: three players play a whole game through the fake
Discord server, with the private step panel, the slash commands and the reaction DMs; an
assassination is stopped by Gaspode, and the bot is restarted while the reaction is open.

The players' choices are the built-in AI's (so the seeded game is the same every run and
ends soon), but every one of them is made the way a player makes it: buttons and menus of
the panel or of a DM, or a slash command.
"""

from __future__ import annotations

import random
import re
from typing import Any

from cogs.ankh_morpork import UI
from rules.ankh_morpork.cards import CARDS
from rules.ankh_morpork.model import AmState, Interrupt, Play, Power, Skip
from rules.ankh_morpork.personalities import PERSONALITIES
from rules.registry import engine

from .checks import ChannelWatcher, dm_text, move_answered, replay_matches_store, text_of
from .driver import Driver, board_picture, seeded_table, start_game
from .fake_discord import EPHEMERAL
from .harness import DiscordLogCollector, FakeWorld
from .table import Table

E = engine("ankh_morpork")
MAX_MOVES = 400
# With this seed and the AI's choices, Alice's Inigo Skimmer goes for one of Carol's
# minions and Carol answers with Gaspode; later Carol saves another with the Fresh Start
# Club and puts it back elsewhere; the game ends by a personality's win in under 100 moves.
SEED = 13
NAMES = ("alice", "bob", "carol")
LOCALES = ("en", "es", "en")

# What the channel must never show: the private view's own words.
NEVER_PUBLIC = re.compile(
    r"Your hand|Tu mano|Only for you|Solo para ti|personality \(secret\)|personalidad \(secreta\)"
    r"|tablero:act")
PERSONALITY_NAMES = sorted({n for p in PERSONALITIES.values() for n in (p.name.es, p.name.en)}, key=len, reverse=True)
CARD_NAMES = {c.id: (c.name.es, c.name.en) for c in CARDS.values()}
ALL_CARD_NAMES = sorted({n for pair in CARD_NAMES.values() for n in pair}, key=len, reverse=True)


def names_shown(text: str, names: list[str]) -> list[str]:
    """Which of ``names`` appear in ``text`` as a whole name (not inside a longer card
    name: "Dwarves" is not shown by "Deep Dwarves")."""
    found = []
    for name in names:
        rest = text
        for longer in ALL_CARD_NAMES:
            if len(longer) > len(name) and name in longer:
                rest = rest.replace(longer, "")
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", rest):
            found.append(name)
    return found


class Watcher(ChannelWatcher):
    """Checks every channel message, as it is now and after every edit, for hidden things."""

    def check(self, state: AmState) -> None:
        """Check new and edited messages against what is hidden in ``state`` now."""
        held = [n for hand in state.hands for c in hand for n in CARD_NAMES[c]]
        secret = held + ([] if state.finished else PERSONALITY_NAMES)
        for text in self.new_texts():
            assert not NEVER_PUBLIC.search(text), f"private words in the channel:\n{text}"
            shown = names_shown(text, secret)
            assert not shown, f"hidden information in the channel: {shown}\n{text}"


class Players(Driver):
    """The three players at the controls."""

    def __init__(self, t: Table, gid: int) -> None:
        super().__init__(t, gid, rng=random.Random(SEED), names=dict(enumerate(NAMES)))
        self.mover: int | None = None

    async def state(self) -> AmState:
        """The game's state now."""
        state = await super().state()
        assert isinstance(state, AmState)
        return state

    async def by_command(self, seat: int, action: Any, label: str) -> None:
        user = self.user(seat)
        if isinstance(action, Skip) and self.rng.random() < 0.5:
            self.used("command:pass")
            _, _, msg = await self.t.slash("am pass", user)
        else:
            command, option = ("am play", "card") if isinstance(action, Play) else (
                ("am power", "area") if isinstance(action, Power) else ("am decide", "choice"))
            choices = await self.fake.autocomplete(command, user, self.channel, focused=option, **{option: label})
            chosen = [c for c in choices if c["name"] == label]
            assert chosen, (label, choices)
            self.used(f"command:{command}")
            _, _, msg = await self.t.slash(command, user, **{option: chosen[0]["value"]})
        move_answered(msg)
        # the caller's next step comes privately after the public record
        self.panels.pop(seat, None)

    async def reacting(self, seat: int, version: int, index: int) -> dict:
        """Answer a reaction from the DM that asked it; returns that DM."""
        user = self.user(seat)
        dm = await self.fake.wait_for_dm(user, lambda m: self.control(m, version, seat, index) is not None)
        assert user["id"] in self.fake.pinged(dm)
        self.used("dm:reaction")
        await self.use(dm, version, seat, index)
        return dm


async def test_three_players_play_to_the_end_with_an_interrupt_and_a_restart(fake, db) -> None:
    with DiscordLogCollector(("tablero",)) as errors:
        async with FakeWorld(users=list(NAMES), user_options={"bob": {"locale": "es-ES"}}, fake=fake) as world:
            t = await seeded_table(world, db, SEED)
            alice, bob, carol = (world[n] for n in NAMES)
            gid, _ = await start_game(t, alice, "ankh_morpork", click=(bob,), command=(carol,))
            p = Players(t, gid)
            watcher = Watcher(t, world.channel)
            board = await p.settled(0)
            board_picture(t, board)
            assert [(await t.game(gid)).seat_of(int(world[n]["id"])) for n in NAMES] == [0, 1, 2]

            # Each player's personality and hand by DM, in their language.
            state = await p.state()
            for seat, locale in ((0, "en"), (1, "es"), (2, "en")):
                dm = await fake.wait_for_dm(p.user(seat))
                text = dm_text(dm)
                who = PERSONALITIES[state.personality[seat]]
                assert who.name.get(locale) in text
                assert all(CARD_NAMES[c][0 if locale == "es" else 1] in text for c in state.hands[seat]), text
                assert not fake.components(dm)  # nothing to answer yet

            restarted = stopped = rescued = False
            moves = last_posted = 0
            while (await t.game(gid)).status == "active":
                state = await p.state()
                watcher.check(state)
                (seat,) = E.pending(state)
                action = E.ai_action(state, seat)
                index = E.legal_actions(state, seat).index(action)
                version = state.version
                # what the last move posted in the channel (a step of one's own turn: nothing)
                newest = fake.channel_messages(world.channel)[last_posted:]
                last_posted = len(fake.channel_messages(world.channel))
                if UI.reaction(await t.game(gid), seat) and p.mover != seat:
                    # Asked privately: the channel says the game waits, pings nobody, names no card.
                    board = await p.settled(version)
                    assert f"Waiting to see whether **{NAMES[seat]}** answers" in board["embeds"][0]["description"]
                    assert all(p.user(seat)["id"] not in fake.pinged(m) for m in newest), [(m["content"], fake.pinged(m)) for m in newest]
                    for other in {0, 1, 2} - {seat}:
                        assert not any(p.control(m, version, other, 0) for m in fake.dms_to(p.user(other)))
                    if not restarted:
                        # days pass with the question open: a new bot takes over from the database,
                        # and the DM's buttons still answer
                        await t.restart()
                        restarted = True
                        assert (await p.state()).version == version
                    area = state.stack[-2].area
                    minions = state.minions[area][seat]
                    dm = await p.reacting(seat, version, index)
                    await p.moved_past(version)
                    after = await p.state()
                    if isinstance(action, Interrupt) and action.card == "gaspode":
                        assert state.stack[-2].kind == "assassinate"
                        assert after.minions[area][seat] == minions  # Gaspode stopped the assassination
                        said = await fake.wait_for_message(world.channel, lambda m: "plays Gaspode" in m["content"])
                        assert f"**{NAMES[seat]}** keeps their minion in" in said["content"], said["content"]
                        stopped = True
                    elif isinstance(action, Interrupt) and action.card in ("fresh_start_club", "igor"):
                        # the minion goes, and its owner puts it back elsewhere from the same DM
                        assert after.minions[area][seat] == minions - 1
                        assert set(E.pending(after)) == {seat} and after.stack[-1].kind == "minion"
                        again = await fake.wait_until(lambda mid=dm["id"]: "Done: Play" in fake.messages[mid]["content"]
                                                      and fake.messages[mid])
                        back = E.ai_action(after, seat)
                        await p.use(again, after.version, seat, E.legal_actions(after, seat).index(back))
                        p.used("dm:next step")
                        await p.moved_past(after.version)
                        rescued = True
                elif p.rng.random() < 0.3 and not UI.reaction(await t.game(gid), seat):
                    await p.by_command(seat, action, UI.label(await t.game(gid), seat, action, LOCALES[seat]))
                    await p.moved_past(version)
                else:
                    await p.by_panel(seat, version, index)
                    await p.moved_past(version)
                # the one who moved sees the next step where they moved: no DM for their own reaction
                p.mover = seat
                after = await p.state()
                if not after.finished:
                    await p.settled(after.version)
                moves += 1
                assert moves < MAX_MOVES

                # the hands keep up: at the start of a turn the newest DM to each player shows
                # their hand as it is
                if after.stack and after.stack[-1].kind == "turn" and not after.finished and moves % 5 == 0:
                    for s, locale in enumerate(LOCALES):
                        await fake.wait_until(lambda s=s, h=after.hands[s], loc=locale: all(
                            CARD_NAMES[c][loc == "en"] in dm_text(fake.dms_to(p.user(s))[-1]) for c in h))

            g = await t.game(gid)
            state = g.state
            assert g.status == "finished" and state.finished
            watcher.check(state)
            assert stopped and rescued and restarted, (stopped, rescued, restarted)
            # the end is told, with the personalities now revealed
            end = await fake.wait_for_message(world.channel, lambda m: "Game over" in m["content"])
            said = end["content"]
            assert all(PERSONALITIES[state.personality[s]].name.en in said for s in range(3)), (said, state.personality)
            board = await p.settled(state.version)
            fields = {f["name"]: f["value"] for f in board["embeds"][0]["fields"]}
            assert all(f"**{state.scores[s]} points**" in fields["Players"] for s in range(3)), fields
            assert not fake.components(board)  # nothing left to press
            assert {"panel:open", "panel:next step", "dm:reaction", "dm:next step", "command:am play",
                    "command:am decide"} <= set(p.ways), p.ways
            # (every version of the channel's messages was read: the turns' messages and the
            # card's edits, one a part of a turn rather than one a step)
            assert watcher.checked > 60
            # every player heard from the bot by DM, and their hand DM was brought up to date
            # in place rather than sent again each time it changed
            assert all(fake.dms_to(p.user(s)) for s in range(3))
            assert any(m["edited_timestamp"] for s in range(3) for m in fake.dms_to(p.user(s)))
            # nobody may move any more
            _, _, msg = await t.slash("am pass", alice)
            assert msg["flags"] & EPHEMERAL
            await replay_matches_store(E, db, gid, 3)
        assert not errors.messages(), errors.messages()


async def test_wrong_moves_are_refused_privately_and_change_nothing(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob", "dave"], user_options={"bob": {"locale": "es-ES"}},
                         fake=fake) as world:
        t = await seeded_table(world, db, SEED)
        alice, bob, dave = world["alice"], world["bob"], world["dave"]
        gid, _ = await start_game(t, alice, "ankh_morpork", click=(bob,), ai=True)
        p = Players(t, gid)
        await fake.wait_until(lambda: t.board(gid) is not None)
        # the bot plays its seat by itself: wait for a human's turn
        await fake.wait_until(lambda: set(E.pending(t.bot.session.cached(gid).state)) & {0, 1})
        state = await p.state()
        await p.settled(state.version)
        (seat,) = E.pending(state)
        user, other = (alice, bob) if seat == 0 else (bob, alice)

        refused = p.refused
        # someone not seated, a move out of turn, nonsense, nothing to skip: each told why,
        # privately, in their own language
        assert "not playing" in await refused("am play", dave, card="Gaspode")
        said = await refused("am play", other, card="Gaspode")
        assert ("no te toca decidir nada" if other is bob else "nothing to decide") in said
        said = await refused("am play", user, card="un castillo volador")
        assert ("no es una jugada posible" if user is bob else "is not a possible move now") in said
        said = await refused("am pass", user)
        assert ("no hay nada que saltar" if user is bob else "nothing to skip") in said
        assert "I know no card" in await refused("am card", dave, card="nothing like it")

        # looking things up: privately, and nothing moves
        _, _, msg = await t.slash("am card", bob, card="death")
        assert msg["flags"] & EPHEMERAL and msg["embeds"][0]["title"] == "La Muerte"
        _, _, msg = await t.slash("am areas", alice)
        assert msg["flags"] & EPHEMERAL and "12 · Nap Hill" in text_of(msg) and "neighbours" in text_of(msg)
        _, _, msg = await t.slash("am personality", bob)
        assert msg["flags"] & EPHEMERAL
        assert PERSONALITIES[state.personality[1]].name.es in msg["content"] and "Tu personalidad" in msg["content"]
        _, _, msg = await t.slash("game hand", user)
        assert msg["flags"] & EPHEMERAL and p.control(msg, state.version, seat, 0) is not None
        assert all(CARD_NAMES[c][user is alice] in text_of(msg) for c in state.hands[seat])
        hand = next(c["custom_id"] for c in fake.components(t.board(gid))
                    if c.get("custom_id", "").startswith("tablero:hand:"))
        inter, _ = await t.click(t.board(gid), hand, other)
        mine = fake.response_message(inter)
        assert mine["flags"] & EPHEMERAL and not fake.components(mine)  # not their turn: no menu

        # an old panel is refused once the game has moved on
        panel = await p.open_panel(seat)
        action = E.ai_action(state, seat)
        await p.by_panel(seat, state.version, E.legal_actions(state, seat).index(action))
        await p.moved_past(state.version)
        old = p.control(panel, state.version, seat, 0)
        assert old is not None
        how, control = old
        if how == "click":
            inter = await fake.click(panel, control["custom_id"], p.user(seat))
        else:
            inter = await fake.select(panel, control["custom_id"], p.user(seat), [control["options"][0]["value"]])
        await fake.wait_response(inter)
        stale = fake.followups(inter)[-1] if fake.followups(inter) else fake.response_message(inter)
        assert stale["flags"] & EPHEMERAL
        assert ("ha cambiado" if user is bob else "has moved on") in stale["content"], stale["content"]


NASTY = [
    "", " ", "-", "#", "#0", "#-1@0", "#99999999999999999999@0", "#0@-5", "a0", "g9", "{}", "[]",
    '{"kind":"play","card":"nope"}', '{"kind":"area","area":99}', '{"kind":"piece"', "null", "\x00",
    "\u202e", "🎲" * 40, "x" * 100, "Gaspod", "la muerte; DROP TABLE games", "{{card}}", "%s%s%s",
    "<@123>", "@everyone", "Player 4", "Jugador 9",
]


def junk(rng: random.Random) -> str:
    """A random string: printable, unicode, or a near miss of a real choice."""
    kind = rng.randrange(3)
    if kind == 0:
        return rng.choice(NASTY)
    if kind == 1:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 30)))
    return f'{{"kind":"{rng.choice(["play", "power", "area", "piece", "player", "card", "x"])}",' \
           f'"area":{rng.randrange(-3, 20)},"card":"{rng.choice(["gaspode", "?", ""])}"}}'


async def test_random_input_to_every_am_command_changes_nothing(fake, db) -> None:
    rng = random.Random(4)
    async with FakeWorld(users=list(NAMES), fake=fake) as world:
        with DiscordLogCollector(("tablero",)) as errors:
            t = await seeded_table(world, db, SEED)
            alice, bob = world["alice"], world["bob"]
            gid, _ = await start_game(t, alice, "ankh_morpork", click=(bob,))
            p = Players(t, gid)
            for _ in range(3):
                state = await p.state()
                await p.settled(state.version)
                before = (state.version, E.dump_state(state))
                for _ in range(12):
                    user = world[rng.choice(NAMES)]
                    command = rng.choice(["am play", "am power", "am decide", "am card", "game move"])
                    option = {"am play": "card", "am power": "area", "am card": "card"}.get(command, "choice")
                    _, _, msg = await t.slash(command, user, **{option: junk(rng)})
                    assert msg is not None and msg["flags"] & EPHEMERAL and (msg["content"] or msg["embeds"])
                state = await p.state()
                assert (state.version, E.dump_state(state)) == before
                # the game still goes on normally
                (seat,) = E.pending(state)
                action = E.ai_action(state, seat)
                await p.by_panel(seat, state.version, E.legal_actions(state, seat).index(action))
                await p.moved_past(state.version)
            assert not errors.messages(), errors.messages()
