"""Guerra de Mitos end to end through the fake Discord server: a two-player game from the
secret bid to a victory, and a three-player game with a bot seat, a player whose DMs are
closed, and a bot restart in the middle.

The players' choices are the built-in AI's (so each seeded game is the same every run and
ends soon), but every one of them is made the way a player makes it: the private panel
opened from the board (menus and buttons, one step of an ability at a time) or a /gdm
command typed with its autocomplete. Every /gdm command is used at least once.
"""

from __future__ import annotations

import json
import random
import re

from cogs.guerra_de_mitos import UI
from cogs.pictures.guerra_de_mitos import WIDTH
from rules.core import Action
from rules.guerra_de_mitos import matching as M
from rules.guerra_de_mitos.cards import cards
from rules.guerra_de_mitos.model import GdmState
from rules.registry import engine

from .checks import ChannelWatcher, dm_text, move_answered, replay_matches_store, text_of
from .driver import Driver, board_picture, hand_notice, seeded_table, start_game
from .fake_discord import EPHEMERAL
from .harness import DiscordLogCollector, FakeWorld
from .table import Table

E = engine("guerra_de_mitos")
MAX_MOVES = 400
# With these seeds the AI's choices end the two-player game by a reserve falling to 0 in
# about a hundred moves, and the three-player game on points in a few rounds.
SEED_2P = 3
SEED_3P = 0

# Which /gdm command makes each kind of move, and the name of its option.
COMMAND = {
    "bid": ("gdm bid", "amount"),
    "move": ("gdm transfer", "move"),
    "enter": ("gdm transfer", "move"),
    "drop": ("gdm transfer", "move"),
    "play": ("gdm play", "card"),
    "equip": ("gdm play", "card"),
    "use": ("gdm use", "ability"),
    "meditate": ("gdm use", "ability"),
    "assign": ("gdm assign", "character"),
    "target": ("gdm choose", "choice"),
    "choose": ("gdm choose", "choice"),
    "starter": ("gdm choose", "choice"),
    "challenge": ("gdm choose", "choice"),
    "pass": ("gdm pass", None),
}
NEVER_PUBLIC = re.compile(r"Your hand|Tu mano|Your secret bid|Tu puja secreta|tablero:act")


def names_of(card: str) -> set[str]:
    c = cards().get(card)
    return {c.name, c.name_en} if c is not None else set()


class Watcher(ChannelWatcher):
    """Checks every channel message, new or edited, for cards nobody has shown."""

    def __init__(self, t: Table, channel: dict) -> None:
        super().__init__(t, channel)
        self.public: set[str] = set()  # every card id the public view has ever shown

    def check(self, state: GdmState) -> None:
        """No private words, no card that was never public, no secret bid in the channel."""
        v = E.view(state, None)
        self.public |= {c.card for c in v.in_play}
        for sv in v.seats:
            self.public |= set(sv.discard) | {sv.pantheon} | {o.top for o in sv.oracles if o.top}
        hidden = set()
        for p in state.players:
            hidden |= {state.cards[u].card for u in p.hand + p.deck}
            for o in p.oracles:
                hidden |= {state.cards[u].card for u in (o.cards[1:] if o.up else o.cards)}
        secret = sorted(
            {n for c in hidden - self.public for n in names_of(c)}, key=len, reverse=True
        )
        bids = [] if state.phase != "bid" else [p.bid for p in state.players if p.bid is not None]
        for text in self.new_texts():
            assert not NEVER_PUBLIC.search(text), f"private words in the channel:\n{text}"
            shown = [n for n in secret if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)]
            assert not shown, f"hidden cards in the channel: {shown}\n{text}"
            for b in bids:
                assert not re.search(rf"(Bid|Pujar|bid|puja) {b}P", text), text


class Players(Driver):
    """The humans at the controls, moving as the AI would, by panel or by command."""

    def __init__(
        self, t: Table, gid: int, names: dict[int, str], locales: dict[int, str], seed: int
    ) -> None:
        super().__init__(t, gid, rng=random.Random(seed), names=names)
        self.locales = locales

    async def state(self) -> GdmState:
        """The game's state now."""
        state = await super().state()
        assert isinstance(state, GdmState)
        return state

    async def by_panel(self, seat: int, version: int, index: int) -> dict:
        """Make legal action ``index`` from the private panel; a step of an ability names
        the card, the step and its targets."""
        panel = await self.panel_for(seat, version, index)
        state = await self.state()
        if state.stack and state.stack[-1].seat == seat:
            step = M.ability_of(state.stack[-1]) if state.stack[-1].ability >= 0 else None
            content = panel["content"]
            assert content.count("🃏") == 1, content
            if step is not None and state.stack[-1].pos < len(step.steps):
                assert re.search(r"(Step|Paso) \d+ (of|de) \d+", content), content
            self.used("panel:ability step")
        await self.use(panel, version, seat, index)
        self.panels[seat] = panel["id"]
        return panel

    # -- the commands --------------------------------------------------------------------

    async def by_command(self, seat: int, action: Action) -> None:
        user = self.user(seat)
        command, option = COMMAND[action.kind]
        channel = self.t.world.channel
        if option is None:
            _, _, msg = await self.t.slash(command, user)
        else:
            g = await self.t.game(self.gid)
            label = UI.label(g, seat, action, self.locales[seat])
            choices = await self.fake.autocomplete(
                command, user, channel, focused=option, **{option: label}
            )
            want = action.model_dump(mode="json")
            chosen = [
                # a value is the action's JSON and the version it was offered at ("{...}@12")
                c for c in choices
                if c["value"].startswith("{") and json.loads(re.sub(r"@\d+$", "", c["value"])) == want
            ]
            assert chosen and chosen[0]["name"] == label, (label, choices)
            self.used("autocomplete")
            _, _, msg = await self.t.slash(command, user, **{option: chosen[0]["value"]})
        self.used(f"command:{command}")
        move_answered(msg)
        self.panels.pop(seat, None)

    async def play(self, seat: int, commands_share: float = 0.15) -> None:
        """``seat`` makes the AI's move, by command the first time a command fits, else mostly by panel."""
        state = await self.state()
        action = E.ai_action(state, seat)
        index = E.legal_actions(state, seat).index(action)
        command = COMMAND[action.kind][0]
        if f"command:{command}" not in self.ways or self.rng.random() < commands_share:
            await self.by_command(seat, action)
        else:
            await self.by_panel(seat, state.version, index)
        await self.moved_past(state.version)


async def start(t: Table, host: dict, others: list[dict], *, ai: bool = False) -> int:
    """``host`` opens a Guerra de Mitos lobby, ``others`` join by its button, and it starts."""
    gid, _ = await start_game(t, host, "guerra_de_mitos", click=tuple(others), ai=ai)
    return gid


def picture_width(t: Table, board: dict) -> int:
    """The width of the board's picture."""
    return int.from_bytes(board_picture(t, board)[16:20], "big")


async def test_two_players_from_the_secret_bid_to_a_victory(fake, db) -> None:
    with DiscordLogCollector(("tablero",)) as errors:
        async with FakeWorld(
            users=["alice", "bob", "dave"], user_options={"bob": {"locale": "es-ES"}}, fake=fake
        ) as world:
            t = await seeded_table(world, db, SEED_2P)
            alice, bob, dave = world["alice"], world["bob"], world["dave"]
            gid = await start(t, alice, [bob])
            g = await t.game(gid)
            assert [g.seat_of(int(u["id"])) for u in (alice, bob)] == [0, 1]
            p = Players(t, gid, {0: "alice", 1: "bob"}, {0: "en", 1: "es"}, SEED_2P)
            watcher = Watcher(t, world.channel)
            board = await p.settled(0)
            assert picture_width(t, board) == WIDTH

            # each hand by DM, in the player's language, with what each card does
            state = await p.state()
            for seat, locale in ((0, "en"), (1, "es")):
                text = dm_text((await fake.wait_until(lambda s=seat: fake.dms_to(p.user(s))))[-1])
                for u in state.players[seat].hand:
                    c = cards()[state.cards[u].card]
                    assert c.display_name(locale) in text and (c.text(locale) or "")[:20] in text, (
                        text
                    )

            # looking a card up: privately, in the asker's language, found by either name
            some = next(c for c in cards().values() if c.name != c.name_en and c.text_es)
            hints = await fake.autocomplete(
                "gdm card", bob, world.channel, focused="name", name=some.name_en[:7]
            )
            assert some.id in [h["value"] for h in hints]
            _, _, msg = await t.slash("gdm card", bob, name=some.id)
            assert msg["flags"] & EPHEMERAL and msg["embeds"][0]["title"] == some.name
            assert msg["embeds"][0]["description"] == some.text_es
            _, _, msg = await t.slash("gdm card", dave, name=some.name)
            assert (
                msg["embeds"][0]["title"] == some.name_en
                and msg["embeds"][0]["description"] == some.text_en
            )

            _, _, msg = await t.slash("gdm decks", bob)
            assert msg["flags"] & EPHEMERAL and "Héroes del Olimpo" in text_of(msg)

            # bad input: told why, privately, in the player's language; nothing changes
            assert "I know no card" in await p.refused("gdm card", dave, name="nothing like it")
            near = next(c for c in cards().values() if len(c.name) >= 9 and c.name != c.name_en)
            said = await p.refused("gdm card", bob, name=near.name[:-1] + "q")
            assert said.startswith("No conozco ninguna carta") and f"¿Quizá {near.name}" in said
            assert "not playing" in await p.refused("gdm bid", dave, amount="2")
            said = await p.refused("gdm play", bob, card="un castillo volador")
            assert (
                "no se puede hacer ahora" in said
                and "Puja en secreto" in said
                and "Pujar" not in said
            )
            said = await p.refused("gdm bid", bob, amount="7")
            assert "no es una jugada posible" in said and "Pujar 4P" in said
            assert "no puedes pasar" in await p.refused("gdm pass", bob)

            # the secret bid: alice by command, bob from his panel; only the amounts' owners know
            choices = await fake.autocomplete(
                "gdm bid", alice, world.channel, focused="amount", amount=""
            )
            assert [c["name"] for c in choices] == ["Bid 1P", "Bid 2P", "Bid 3P", "Bid 4P"]
            await p.play(0)
            state = await p.state()
            assert state.phase == "bid" and state.players[0].bid is not None
            watcher.check(state)
            mine = await fake.wait_until(
                lambda: [m for m in fake.dms_to(alice) if "Your secret bid" in dm_text(m)]
            )
            assert f"Your secret bid: {state.players[0].bid}P" in dm_text(mine[-1])
            assert not any(
                "secret bid" in dm_text(m) or "puja secreta" in dm_text(m) for m in fake.dms_to(bob)
            )
            await p.play(1)
            assert p.ways["panel:open"] == 1

            moves = 0
            while (await t.game(gid)).status == "active":
                state = await p.state()
                watcher.check(state)
                (seat,) = E.pending(state)
                await p.play(seat)
                moves += 1
                assert moves < MAX_MOVES
                if moves % 25 == 0:
                    await p.settled((await p.state()).version)

            g = await t.game(gid)
            state = g.state
            assert isinstance(state, GdmState) and state.finished
            assert state.end_reason in ("olvido", "dios_de_dioses"), state.end_reason
            watcher.check(state)
            (winner,) = state.winners
            end = await fake.wait_for_message(world.channel, lambda m: "Game over" in m["content"])
            # the end names the winner (by name: the rules' reason says who won and why)
            assert f"**{p.user(winner)['username']}** wins." in end["content"]
            board = await p.settled(state.version)
            assert not fake.components(board) and picture_width(t, board) == WIDTH
            assert {
                "command:gdm bid",
                "command:gdm transfer",
                "command:gdm play",
                "command:gdm use",
                "command:gdm assign",
                "command:gdm choose",
                "command:gdm pass",
                "autocomplete",
                "panel:open",
                "panel:next step",
            } <= set(p.ways), p.ways
            assert watcher.checked > 50
            await replay_matches_store(E, db, gid, 2)
        assert not errors.messages(), errors.messages()


async def test_three_players_with_a_bot_seat_closed_dms_and_a_restart(fake, db) -> None:
    with DiscordLogCollector(("tablero",)) as errors:
        async with FakeWorld(
            users=["alice", "bob"], user_options={"bob": {"dms_open": False}}, fake=fake
        ) as world:
            t = await seeded_table(world, db, SEED_3P)
            alice, bob = world["alice"], world["bob"]
            gid = await start(t, alice, [bob], ai=True)
            g = await t.game(gid)
            seats = {g.seat_of(int(u["id"])): n for u, n in ((alice, "alice"), (bob, "bob"))}
            bot_seat = ({0, 1, 2} - set(seats)).pop()
            assert g.seat_row(bot_seat).ai
            p = Players(t, gid, seats, {s: "en" for s in seats}, SEED_3P)
            watcher = Watcher(t, world.channel)
            board = await p.settled((await p.state()).version)
            assert picture_width(t, board) == WIDTH

            # alice's hand by DM; bob's DMs are closed: the channel says so, naming no card,
            # and he reads his hand privately
            bob_seat = next(s for s, n in seats.items() if n == "bob")
            await fake.wait_until(lambda: fake.dms_to(alice))
            await hand_notice(t, "bob")
            assert not fake.dms_to(bob)
            state = await p.state()
            _, _, msg = await t.slash("game hand", bob)
            assert msg["flags"] & EPHEMERAL
            for u in state.players[bob_seat].hand:
                assert cards()[state.cards[u].card].name_en in dm_text(msg)

            restarted = False
            moves = 0
            while (await t.game(gid)).status == "active":
                state = await p.state()
                watcher.check(state)
                pending = sorted(E.pending(state))
                humans = [s for s in pending if s != bot_seat]
                assert humans, pending  # the bot seat never keeps the game waiting
                seat = humans[0]
                if not restarted and state.round >= 2 and seat in p.panels:
                    # days pass: a new bot takes over from the database, and the open
                    # private panel still answers
                    action = E.ai_action(state, seat)
                    index = E.legal_actions(state, seat).index(action)
                    panel = fake.messages[p.panels[seat]]
                    if p.control(panel, state.version, seat, index) is not None:
                        await t.restart()
                        restarted = True
                        assert (await p.state()).version == state.version
                        await p.use(panel, state.version, seat, index)
                        p.used("panel after restart")
                        await p.moved_past(state.version)
                        moves += 1
                        continue
                await p.play(seat, commands_share=0.05)
                moves += 1
                assert moves < MAX_MOVES

            g = await t.game(gid)
            state = g.state
            assert isinstance(state, GdmState) and state.finished and restarted
            watcher.check(state)
            out = E.outcome(state)
            assert out is not None and len(out.ranking) >= 1
            end = await fake.wait_for_message(world.channel, lambda m: "Game over" in m["content"])
            assert (
                "victory points" in end["content"].lower()
                or "Most victory points" in end["content"]
            )
            assert "panel after restart" in p.ways and "panel:ability step" in p.ways, p.ways
            await replay_matches_store(E, db, gid, 3)
        assert not errors.messages(), errors.messages()
