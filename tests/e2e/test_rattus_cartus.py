"""Rattus Cartus end to end: three players (one with closed DMs) play a whole game through
the fake Discord server, with the menus, buttons and commands a player would use."""

from __future__ import annotations

import random
import re

from rules.rattus_cartus.cards import NUNS, TYPE, card_name, type_name
from rules.rattus_cartus.model import Pass, RcState, SupplyChoice
from rules.registry import engine

from .checks import (
    ChannelWatcher,
    dm_text,
    latest_private_view,
    move_answered,
    replay_matches_store,
    text_of,
)
from .driver import Driver, board_picture, hand_notice, seeded_table, start_game
from .fake_discord import EPHEMERAL
from .harness import FakeWorld
from .table import Table

E = engine("rattus_cartus")
MAX_MOVES = 600
SEED = 14  # with these buildings the game has Safe-conducts, duels and Hospital choices

# What the channel must never show, whatever the state: a population card's full name
# (its nuns are private: the public only ever sees its figure), the private events of
# the rules (cards drawn, played, discarded, nun cards seen), the private view itself.
NEVER_PUBLIC = [
    re.compile(r"\((?:Peasantry|Bourgeoisie|Church|Knighthood|Sorcery|Royalty), \d nuns\)"),
    re.compile(r"\((?:Campesinado|Burguesía|Iglesia|Caballería|Hechicería|Realeza), \d rel\.\)"),
    re.compile(r"Nun card #\d shows|La religiosa n\.º \d muestra"),
    re.compile(r"\(nun card #\d\)|\(religiosa n\.º \d\)"),
    re.compile(r"You draw|Robas:|You play face down|Juegas boca abajo|You discard|Descartas"),
    re.compile(r"Your hand|Tu mano|Only for you|Solo para ti|🐀 tokens|🐀 fichas"),
    re.compile(r'"value": "[pjefso]\d\d"'),  # a card id offered in a public menu
]


class Watcher(ChannelWatcher):
    """Checks every channel message, as it is now and after every edit, for hidden things."""

    def check(self, state: RcState) -> None:
        """Check new and edited messages against what is hidden in ``state`` now."""
        # every population card out of sight: in a hand, face down, in the nun row
        out_of_sight = [c for hand in state.hands for c in hand] + state.nuns + [
            c for s, played in enumerate(state.played) if state.where[s] < 0 or not state.revealed[state.where[s]]
            for c in played]
        secret_labels = [name for c in out_of_sight if c in NUNS
                         for name in (card_name(c).es, card_name(c).en)]
        if state.phase == "supply":
            # A secret supply choice, as its menu label, must not be shown before all have chosen.
            for seat, choice in enumerate(state.choices):
                if choice is not None:
                    act = SupplyChoice(card=choice[0], peek=None if choice[1] < 0 else choice[1])
                    secret_labels += [E.describe(state, seat, act).es, E.describe(state, seat, act).en]
        for text in self.new_texts():
            for pattern in NEVER_PUBLIC:
                assert not pattern.search(text), f"hidden information in the channel: {pattern.pattern}\n{text}"
            for label in secret_labels:
                assert label not in text, f"hidden information in the channel: {label}"


def hand_shown(text: str, hand: list[str], locale: str) -> bool:
    """Whether a private view lists exactly the kinds of cards in ``hand``."""
    counts: dict[str, int] = {}
    for c in hand:
        counts[TYPE[c]] = counts.get(TYPE[c], 0) + 1
    for kind, n in counts.items():
        name = type_name(kind).get(locale)
        if (f"{name} ×{n}" if n > 1 else name) not in text:
            return False
    return True


class Players(Driver):
    """The three players' hands on the controls."""

    def __init__(self, t: Table, gid: int, rng: random.Random) -> None:
        super().__init__(t, gid, rng=rng)
        self.moves = 0

    async def state(self) -> RcState:
        """The game's state now."""
        state = await super().state()
        assert isinstance(state, RcState)
        return state

    async def moved_on(self, before: int) -> None:
        """Wait until the game is past version ``before`` and the board shows it."""
        await self.moved_past(before)
        await self.settled(self.version())

    async def by_command(self, command: str, user: dict, option: str) -> None:
        """Type the command, taking one of the choices autocomplete offers."""
        choices = await self.fake.autocomplete(command, user, self.channel, focused=option, **{option: ""})
        assert choices and all(c["value"] != "-" for c in choices), choices
        _, _, msg = await self.t.slash(command, user, **{option: self.rng.choice(choices)["value"]})
        move_answered(msg)

    # -- the phases ----------------------------------------------------------------------

    async def supply(self, seat: int) -> None:
        user = self.user(seat)
        if self.rng.random() < 0.5:
            self.used("supply:command")
            await self.by_command("rc supply", user, "choice")
        else:
            self.used("supply:menu")
            await self.pick(await self.open_panel(seat), user)

    async def enter(self, seat: int) -> int:
        """Enter a building (or pass); returns how many cards went face down (-1: passed)."""
        user = self.user(seat)
        state = await self.state()
        legal = E.legal_actions(state, seat)
        can_pass = any(isinstance(a, Pass) for a in legal)
        roll = self.rng.random()
        if can_pass and roll < 0.3:
            if roll < 0.15:
                self.used("pass:command")
                _, _, msg = await self.t.slash("rc pass", user)
                move_answered(msg)
            else:
                self.used("pass:button")
                panel = await self.open_panel(seat)
                button = self.component(panel, "tablero:rc:pass:")
                assert button is not None
                inter, _ = await self.t.click(panel, button["custom_id"], user)
            return -1
        if roll < 0.6:
            self.used("enter:command")
            choices = await self.fake.autocomplete("rc enter", user, self.channel, focused="building", building="")
            assert len(choices) == len(state.row)
            _, _, panel = await self.t.slash("rc enter", user, building=self.rng.choice(choices)["value"])
        else:
            self.used("enter:menu")
            panel = await self.open_panel(seat)
            menu = self.component(panel, "tablero:rc:enter:")
            assert menu is not None, text_of(panel)
            if self.rng.random() < 0.2:  # look at one building, go back, choose again
                inter = await self.fake.select(panel, menu["custom_id"], user, [menu["options"][0]["value"]])
                await self.fake.wait_response(inter)
                back = self.component(panel := self.fake.messages[panel["id"]], "tablero:rc:back:")
                assert back is not None
                await self.t.click(panel, back["custom_id"], user)
                panel = self.fake.messages[panel["id"]]
                menu = self.component(panel, "tablero:rc:enter:")
                assert menu is not None
            inter = await self.fake.select(panel, menu["custom_id"], user, [self.rng.choice(menu["options"])["value"]])
            await self.fake.wait_response(inter)
            panel = self.fake.messages[panel["id"]]
        assert panel is not None and panel["flags"] & EPHEMERAL and panel["_visible_to"] == user["id"]
        cards = self.component(panel, "tablero:rc:cards:")
        k = self.rng.choice([0, 1, 1, 2, 2, 3]) if cards else 0
        k = min(k, len(cards["options"]) if cards else 0)
        if k == 0:
            none = self.component(panel, "tablero:rc:none:")
            assert none is not None
            await self.t.click(panel, none["custom_id"], user)
        else:
            values = [o["value"] for o in self.rng.sample(cards["options"], k)]
            inter = await self.fake.select(panel, cards["custom_id"], user, values)
            await self.fake.wait_response(inter)
        return k

    async def decide(self, seat: int) -> None:
        user = self.user(seat)
        if self.rng.random() < 0.4:
            self.used("decide:command")
            await self.by_command("rc decide", user, "choice")
        else:
            self.used("decide:menu")
            await self.pick(await self.open_panel(seat), user)


async def test_three_players_one_with_closed_dms_play_to_the_final_scoring(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob", "carol"],
                         user_options={"bob": {"locale": "es-ES"}, "carol": {"dms_open": False}},
                         fake=fake) as world:
        t = await seeded_table(world, db, SEED)
        alice, bob, carol = world["alice"], world["bob"], world["carol"]
        hints = await fake.autocomplete("game new", alice, world.channel, focused="options",
                                        game="rattus_cartus", options="all")
        assert "all_eliminated=fewest_rats" in [c["value"] for c in hints]
        gid, lobby = await start_game(t, alice, "rattus_cartus", click=(bob,), command=(carol,),
                                      options="buildings=random_buildings all_eliminated=fewest_rats")
        assert "fewest rats wins" in text_of(lobby)
        p = Players(t, gid, random.Random(SEED))
        watcher = Watcher(t, world.channel)
        board = await p.settled(0)
        board_picture(t, board)
        g = await t.game(gid)
        seat_of = {name: g.seat_of(int(world[name]["id"])) for name in ("alice", "bob", "carol")}

        # Hands by DM: alice in English, bob in Spanish; carol's DMs are closed, so the
        # channel is told (without a card) and she reads her hand with /game hand.
        state = await p.state()
        for name, locale in (("alice", "en"), ("bob", "es")):
            hand = state.hands[seat_of[name]]
            dm = await fake.wait_until(lambda n=name: fake.dms_to(world[n]))
            assert hand_shown(dm_text(dm[-1]), hand, locale), dm_text(dm[-1])
        await hand_notice(t, "carol")
        assert not fake.dms_to(carol)
        _, _, msg = await t.slash("game hand", carol)
        assert msg["flags"] & EPHEMERAL and hand_shown(dm_text(msg), state.hands[seat_of["carol"]], "en")

        orders: set[tuple[int, ...]] = set()
        restarted = False
        while (await t.game(gid)).status == "active":
            state = await p.state()
            if state.round == 4 and not restarted:
                # days pass: the bot stops and a new one takes over from the database
                await t.restart()
                restarted = True
                assert (await p.state()).version == state.version
            watcher.check(state)
            pending = sorted(E.pending(state))
            if state.phase == "supply":
                # Everybody answers, in any order; the channel shows who is still to answer.
                order = list(pending)
                p.rng.shuffle(order)
                orders.add(tuple(order))
                for i, seat in enumerate(order):
                    before = (await p.state()).version
                    await p.supply(seat)
                    board = await p.settled(before + 1)
                    state = await p.state()
                    watcher.check(state)
                    if i < len(order) - 1:
                        waiting = order[i + 1:]
                        assert sorted(E.pending(state)) == sorted(waiting)
                        field = next(f["value"] for f in board["embeds"][0]["fields"] if f["name"] == "Supply")
                        assert "still to choose" in field
                        for s in range(3):
                            shown = f"<@{p.user(s)['id']}>" in field.split("still to choose")[1]
                            assert shown == (s in waiting)
                        # a step of a simultaneous choice folds into the card, which says who is left
                        told = board["embeds"][0]["description"]
                        assert all(f"<@{p.user(s)['id']}> to play" in told for s in waiting), told
            elif state.phase == "enter":
                seat = pending[0]
                before = state.version
                k = await p.enter(seat)
                await p.moved_on(before)
                # the count is told (by the turn's message, or on the card while the turn
                # goes on), never the cards
                card = t.board(gid)
                said = [m["content"] for m in fake.channel_messages(world.channel)][-3:]
                said.append(card["embeds"][0]["description"] if card else "")
                if k >= 0:
                    count = f"with {k} card{'s' if k != 1 else ''} face down"
                    assert any(count in s for s in said), said
            else:
                seat = pending[0]
                before = state.version
                await p.decide(seat)
                await p.moved_on(before)
            p.moves += 1
            assert p.moves < MAX_MOVES

            # the private views keep up: the latest (a DM, or the panel a player moved from)
            # shows the hand, the rats and the peeks
            state = await p.state()
            if state.phase == "supply" and not state.finished and all(c is None for c in state.choices):
                for name, locale in (("alice", "en"), ("bob", "es")):
                    seat = seat_of[name]
                    hand, rats = state.hands[seat], sum(state.rats[seat])
                    peeks = [(pos, NUNS[state.nuns[pos]]) for pos in state.peeks[seat]]

                    def current(n: str = name, loc: str = locale, h: list[str] = hand, r: int = rats,
                                pk: list[tuple[int, int]] = peeks) -> bool:
                        view = latest_private_view(fake, world[n])
                        text = dm_text(view) if view is not None else ""
                        rat_ok = f"= **{r}**" in text if r else ("no rats" in text or "ninguna rata" in text)
                        peek_ok = all((f"#{q + 1}: {v}" if loc == "en" else f"n.º {q + 1}: {v}") in text
                                      for q, v in pk)
                        return hand_shown(text, h, loc) and rat_ok and peek_ok
                    await fake.wait_until(current)
                _, _, msg = await t.slash("game hand", carol)
                assert hand_shown(dm_text(msg), state.hands[seat_of["carol"]], "en")

        g = await t.game(gid)
        state = g.state
        assert g.status == "finished" and state.finished and state.final is not None
        watcher.check(state)
        # the final scoring is announced in the channel and kept on the board
        said = " ".join(m["content"] for m in fake.channel_messages(world.channel)[-4:])
        assert "Final scoring." in said and "Game over" in said
        board = t.board(gid)
        fields = {f["name"]: f["value"] for f in board["embeds"][0]["fields"]}
        assert "Final scoring" in fields
        for f in state.final:
            assert f"**{f.total} VP**" in fields["Final scoring"]
        assert restarted and len(orders) > 1, "phase B was always answered in the same order"
        assert {"supply:command", "supply:menu", "enter:command", "enter:menu", "pass:command",
                "pass:button", "decide:command", "decide:menu"} <= set(p.ways), p.ways
        assert watcher.checked > 50
        # nobody may move any more
        _, _, msg = await t.slash("rc decide", alice, choice="x")
        assert msg["flags"] & EPHEMERAL
        await replay_matches_store(E, db, gid, 3)


async def test_wrong_moves_are_refused_privately_and_change_nothing(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob", "dave"], user_options={"bob": {"locale": "es-ES"}},
                         fake=fake) as world:
        t = await seeded_table(world, db, SEED)
        alice, bob, dave = world["alice"], world["bob"], world["dave"]
        gid, _ = await start_game(t, alice, "rattus_cartus", click=(bob,))
        p = Players(t, gid, random.Random(3))
        await p.settled(0)

        refused = p.refused
        # someone not seated, nonsense, and a move of another phase: each told why, privately,
        # in their own language
        assert "not playing" in await refused("rc supply", dave, choice="Farm")
        assert "no es una jugada posible" in await refused("rc supply", bob, choice="un castillo volador")
        assert "not your turn to enter a building" in await refused("rc enter", alice, building="1")
        assert "not possible now" in await refused("rc pass", alice)
        for seat in sorted(E.pending(await p.state())):
            before = (await p.state()).version
            await p.supply(seat)
            await p.settled(before + 1)
        state = await p.state()
        assert state.phase == "enter"
        seat = state.queue[0]
        user, other = p.user(seat), p.user(1 - seat)
        es = user is bob
        text = await refused("rc enter", user, building="Granero")
        assert ("no es un edificio" if es else "is not one of this round's buildings") in text
        text = await refused("rc enter", other, building="1")
        assert ("no te toca decidir nada" if other is bob else "nothing to decide") in text
        # a panel opened before the game moved on is refused as stale
        panel = await p.open_panel(seat)
        menu = p.component(panel, "tablero:rc:enter:")
        assert menu is not None
        before = state.version
        await p.enter(seat)
        await p.moved_past(before)
        after = p.version()
        inter = await fake.select(panel, menu["custom_id"], user, [menu["options"][0]["value"]])
        await fake.wait_response(inter)
        stale = fake.response_message(inter)
        assert stale["flags"] & EPHEMERAL
        assert ("Ahora no te toca" if es else "You have nothing to decide") in stale["content"]
        assert p.version() == after
