"""Ragami end to end: two players and a bot seat (one player with closed DMs) play a whole
game through the fake Discord server, across a restart of the bot, with the /rg commands,
the private step panel (which shows a resolution's running total) and the board."""

from __future__ import annotations

import random
import re
from typing import Any

from cogs.common.i18n import t as say
from cogs.ragami import UI
from rules.ragami.cards import KIND, card_name
from rules.ragami.model import Keep, Pick, Place, PlayCard, RgState, UseDie
from rules.registry import engine

from .checks import ChannelWatcher, dm_text, move_answered, replay_matches_store, text_of
from .driver import Driver, board_picture, hand_notice, seeded_table, start_game
from .fake_discord import EPHEMERAL
from .harness import DiscordLogCollector, FakeWorld
from .table import Table

E = engine("ragami")
SEED = 3
MAX_MOVES = 700
NAMES = ("alice", "carol")  # alice in English with DMs open; carol in Spanish, DMs closed
LOCALE = {"alice": "en", "carol": "es"}
# Every way a player moves; each is used at least once through the fake server, then the
# rest of the game goes through the session (the same service the commands call) so the
# test stays short.
WAYS = ("panel", "command")
COMMAND_OF = {
    "use_die": ("rg die", "choice"),
    "play_card": ("rg play", "card"),
    "cash_card": ("rg play", "card"),
    "discard": ("rg play", "card"),
    "keep": ("rg keep", "card"),
    "power": ("rg resolve", "step"),
    "power_card": ("rg resolve", "step"),
    "roll": ("rg resolve", "step"),
    "commit": ("rg resolve", "step"),
    "cancel": ("rg resolve", "step"),
}
# What the channel must never show: the private view's own words and private events.
NEVER_PUBLIC = re.compile(
    r"Your hand|Tu mano|You choose among|Eliges entre|You draw:|Robas:|You keep |Te quedas "
    r"|tablero:act"
)
# Every Ragami move is told with what was done (a hidden keep says that a card was kept):
# the channel never falls back to "made a choice only they know".
HIDDEN_MOVE = (say("log.hidden_move", "en"), say("log.hidden_move", "es"))
# The steps that used to be told that way: power added or played, a piece picked.
STEP_TOLD = re.compile(
    r"\*\*(?: \(\w+\))? (?:adds \d+ from|añade \d+ de|plays #\d+ .*\(power|juega n\.º \d+ .*\(poder"
    r"|chooses to move|elige mover|chooses to place|elige colocar)"
)
RUNNING = {
    "en": re.compile(r"Conflict on square (\d+): power \*\*(\d+)\*\* of \*\*(\d+)\*\*"),
    "es": re.compile(r"Conflicto de la casilla (\d+): poder \*\*(\d+)\*\* de \*\*(\d+)\*\*"),
}


class Watcher(ChannelWatcher):
    """Checks every channel message, as it is now and after every edit, for private things."""

    drawing_checked = 0  # sets of drawn cards looked for
    steps_told = 0  # record lines telling power added or a piece picked

    def check(self, state: RgState) -> None:
        """Check new and edited messages: no private words, no card being chosen from."""
        # each set of cards being chosen from, as listed in either language
        drawing = [
            [card_name(c).get(lang) for c in hand]
            for hand in state.drawn
            if len(hand) > 1
            for lang in ("es", "en")
        ]
        self.drawing_checked += len(drawing)
        for text in self.new_texts():
            assert not NEVER_PUBLIC.search(text), f"private words in the channel:\n{text}"
            assert not any(h in text for h in HIDDEN_MOVE), f"a move told as secret:\n{text}"
            self.steps_told += len(STEP_TOLD.findall(text))
            # cards being chosen from are named nowhere public (a copy of the same kind
            # may have been played openly, so only the whole set is looked for)
            for names in drawing:
                assert not all(n in text for n in names), f"drawn cards in the channel:\n{text}"


def running_total(text: str, locale: str) -> tuple[int, int, int] | None:
    """(square, power, cost) of the running total a panel or board shows."""
    m = RUNNING[locale].search(text)
    return (int(m[1]), int(m[2]), int(m[3])) if m else None


class Players(Driver):
    """The two human players at the controls."""

    def __init__(self, t: Table, gid: int) -> None:
        super().__init__(t, gid, rng=random.Random(SEED))
        self.totals: list[tuple[int, int, int]] = []  # running totals seen in panels
        self.total_locales: set[str] = set()  # the languages they were read in
        self.kinds: set[str] = set()  # "command/<kind>", "panel/<kind>": the ways each kind was made

    def wanted(self, state: RgState, seat: int) -> Any:
        """A move the built-in player seldom makes, made once so that its command is used:
        play a card, pick a Saint to move (by the Saint and Demon die), draw and keep."""
        legal = E.legal_actions(state, seat)
        if "command/play_card" not in self.kinds:
            found = next((a for a in legal if isinstance(a, PlayCard)), None)
            if found is not None:
                return found
        if "command/pick" not in self.kinds:
            found = next((a for a in legal if isinstance(a, Pick) and a.piece[0] != "C"), None)
            return found or next((a for a in legal if a == UseDie(slot=0)), None)
        if "turn:keep" not in self.kinds and state.phase == "turn":
            found = next((a for a in legal if isinstance(a, Keep)), None)
            if found is not None:
                self.kinds.add("turn:keep")
                return found
            return next((a for a in legal if a == UseDie(slot=1)), None)
        return None

    async def state(self) -> RgState:
        """The game's state now."""
        state = await super().state()
        assert isinstance(state, RgState)
        return state

    def name(self, seat: int) -> str:
        """The name of the player at ``seat``."""
        g = self.t.bot.session.cached(self.gid)
        assert g is not None
        return g.seat_row(seat).name

    def locale(self, seat: int) -> str:
        """The language of the player at ``seat``."""
        return LOCALE[self.name(seat)]

    def check_total(self, text: str, seat: int) -> None:
        """A panel shown while resolving says the power gathered and the cost, as they are."""
        g = self.t.bot.session.cached(self.gid)
        st = g.state.step if g is not None else None
        if st is None or st.res is None or g.state.turn != seat:
            return
        shown = running_total(text, self.locale(seat))
        assert shown == (st.res.square, st.res.total, st.res.cost), (shown, text)
        self.totals.append(shown)
        self.total_locales.add(self.locale(seat))

    # -- the private panel ------------------------------------------------------------------

    async def by_panel(self, seat: int, version: int, index: int) -> dict:
        """Make legal action ``index`` from the private panel (the open one if it shows
        this step, else a new one from the board's Play or My hand button), checking the
        running total it shows before and after."""
        panel = await self.panel_for(seat, version, index, hand=True)
        self.check_total(dm_text(panel), seat)
        await self.use(panel, version, seat, index)
        self.panels[seat] = panel["id"]  # edited in place: the next step shows there
        await self.moved_past(version)
        self.check_total(dm_text(self.fake.messages[panel["id"]]), seat)
        return panel

    # -- the commands -----------------------------------------------------------------------

    async def choose(self, command: str, seat: int, option: str, label: str, **others: str) -> str:
        """Type ``label`` into ``option`` and take the autocomplete choice named so."""
        choices = await self.fake.autocomplete(
            command, self.user(seat), self.channel, focused=option, **{option: label}, **others
        )
        chosen = [c for c in choices if c["name"] == label]
        assert chosen, (command, label, choices)
        return chosen[0]["value"]

    async def by_command(self, seat: int, state: RgState, action: Any) -> None:
        """Make ``action`` with the /rg command a player would type for it."""
        g = await self.t.game(self.gid)
        loc = self.locale(seat)
        label = UI.label(g, seat, action, loc)
        kind = action.kind
        if isinstance(action, Pick | Place) and not (
            isinstance(action, Pick) and action.piece[0] == "C"
        ):
            command = "rg piece"
            if isinstance(action, Pick):
                piece = await self.choose(command, seat, "piece", label)
                after, _ = E.apply(state, seat, action)
                nxt = E.ai_action(after, seat) if seat in E.pending(after) else None
                options: dict[str, str] = {"piece": piece}
                if isinstance(nxt, Place):
                    dest_label = E.describe(after, seat, nxt).get(loc)
                    options["destination"] = await self.choose(
                        command, seat, "destination", dest_label, piece=piece
                    )
                    # a destination out of the list is refused privately and changes nothing
                    _, _, msg = await self.t.slash(
                        command, self.user(seat), piece=piece, destination="la luna"
                    )
                    assert (
                        msg["flags"] & EPHEMERAL and (await self.state()).version == state.version
                    )
                    assert (
                        "no es un destino posible" if loc == "es" else "not a possible destination"
                    ) in msg["content"], msg["content"]
                    self.used("refused:destination")
            else:
                choices = await self.fake.autocomplete(
                    command, self.user(seat), self.channel, focused="piece", piece=""
                )
                assert [c["value"] for c in choices] == ["*"], choices
                options = {
                    "piece": "*",
                    "destination": await self.choose(
                        command, seat, "destination", label, piece="*"
                    ),
                }
        elif kind in ("end_turn", "done"):
            command, options = "rg pass", {}
        elif kind in COMMAND_OF:
            command, option = COMMAND_OF[kind]
            options = {option: await self.choose(command, seat, option, label)}
        else:
            command = "rg decide"
            options = {"choice": await self.choose(command, seat, "choice", label)}
        self.used(f"command:{command}")
        version = state.version
        inter, _, msg = await self.t.slash(command, self.user(seat), **options)
        move_answered(msg)
        await self.moved_past(version)
        self.panels.pop(seat, None)
        # the caller's next step comes privately after the public record
        g = await self.t.game(self.gid)
        if seat in g.pending() and g.status == "active":
            follow = await self.fake.wait_until(
                lambda: [m for m in self.fake.followups(inter) if m["flags"] & EPHEMERAL]
            )
            self.check_total(follow[-1]["content"], seat)

    async def directly(self, seat: int, action: Any) -> None:
        """Make ``action`` through the session and publish it, as the commands do."""
        result = await self.t.bot.session.move(self.gid, int(self.user(seat)["id"]), action)
        await self.t.bot.announcer.publish(result)
        self.used("session")


async def start(t: Table, world: FakeWorld) -> int:
    """alice opens a Ragami lobby, carol joins, a bot seat is added, alice starts."""
    gid, _ = await start_game(t, world["alice"], "ragami", command=(world["carol"],), ai=True)
    return gid


async def test_two_players_and_a_bot_play_to_the_final_scoring_across_a_restart(fake, db) -> None:
    with DiscordLogCollector(("tablero",)) as errors:
        async with FakeWorld(
            users=list(NAMES),
            user_options={"carol": {"locale": "es-ES", "dms_open": False}},
            fake=fake,
        ) as world:
            t = await seeded_table(world, db, SEED)
            gid = await start(t, world)
            p = Players(t, gid)
            watcher = Watcher(t, world.channel)
            board = await p.settled((await p.state()).version)
            board_picture(t, board)
            g = await t.game(gid)
            seats = {g.seat_row(s).name: s for s in range(3) if not g.seat_row(s).ai}
            ai_seat = next(s for s in range(3) if g.seat_row(s).ai)
            assert set(seats) == set(NAMES)

            # The three cards to choose the first from, privately: alice by DM, carol (DMs
            # closed) with /game hand after the channel says so without naming a card.
            state = await p.state()
            drawn = state.drawn[seats["alice"]]
            dm = await fake.wait_for_dm(world["alice"])
            assert all(card_name(c).en in dm_text(dm) for c in drawn), dm_text(dm)
            await hand_notice(t, "carol")
            assert not fake.dms_to(world["carol"])
            _, _, msg = await t.slash("game hand", world["carol"])
            assert msg["flags"] & EPHEMERAL and "Eliges entre" in dm_text(msg)
            assert all(card_name(c).es in dm_text(msg) for c in state.drawn[seats["carol"]])

            restarted = False
            moves = board_totals = 0
            while (await t.game(gid)).status == "active":
                state = await p.state()
                watcher.check(state)
                human = sorted(s for s in E.pending(state) if s != ai_seat)
                assert human, "only the bot seat is pending, yet the bot did not move"
                seat = human[0]
                action = p.wanted(state, seat) or E.ai_action(state, seat)
                index = E.legal_actions(state, seat).index(action)
                version = state.version
                kind = action.kind
                resolving = state.step is not None and state.step.res is not None
                if resolving and board_totals < 5:
                    # the public board shows the resolution under way with its running total
                    r = state.step.res
                    fields = {
                        f["name"]: f["value"]
                        for f in (await p.settled(version))["embeds"][0]["fields"]
                    }
                    assert (
                        f"Conflict on square {r.square}: power **{r.total}** of **{r.cost}**"
                        in fields["Resolving"]
                    )
                    board_totals += 1
                if state.round == 3 and not restarted:
                    # A panel is open when days pass: the bot stops, a new one takes over
                    # from the database, and the panel's controls still answer.
                    await p.settled(version)
                    p.panels[seat] = (await p.open_panel(seat, hand=True))["id"]
                    await t.restart()
                    restarted = True
                    assert (await p.state()).version == version
                    opened = p.ways.get("panel:open", 0)
                    await p.by_panel(seat, version, index)
                    assert p.ways.get("panel:open", 0) == opened  # the old panel was used
                # Every kind of move once by command and once by panel, the first steps of
                # resolutions by panel (their running total is checked), a few more by panel,
                # the rest through the session as the commands and panels do.
                elif f"command/{kind}" not in p.kinds:
                    p.kinds.add(f"command/{kind}")
                    await p.by_command(seat, state, action)
                elif (
                    f"panel/{kind}" not in p.kinds
                    or (resolving and len(p.totals) < 12)
                    or p.rng.random() < 0.05
                ):
                    p.kinds.add(f"panel/{kind}")
                    await p.by_panel(seat, version, index)
                else:
                    await p.directly(seat, action)
                moves += 1
                assert moves < MAX_MOVES

            g = await t.game(gid)
            state = g.state
            assert g.status == "finished" and state.finished and state.final is not None
            watcher.check(state)
            assert restarted
            # the end is told in the channel, and the board keeps the final scoring
            await fake.wait_for_message(world.channel, lambda m: "Game over" in m["content"])
            board = await p.settled(state.version)
            fields = {f["name"]: f["value"] for f in board["embeds"][0]["fields"]}
            for f in state.final:
                assert f"**{f.total} VP**" in fields["Final scoring"], fields
            assert not fake.components(board)  # nothing left to press
            # every command of a move was used, and resolutions were followed step by step
            commands = {w.split(":", 1)[1] for w in p.ways if w.startswith("command:")}
            assert {
                "rg die",
                "rg piece",
                "rg play",
                "rg keep",
                "rg resolve",
                "rg pass",
            } <= commands, sorted(p.ways.items())
            assert {"panel:open", "panel:next step", "session", "refused:destination"} <= set(
                p.ways
            ), p.ways
            assert board_totals == 5
            assert len(p.totals) >= 3 and p.total_locales == {"en", "es"}, (
                p.totals,
                p.total_locales,
            )
            assert watcher.checked > 50 and watcher.drawing_checked > 4
            assert watcher.steps_told > 5, watcher.steps_told
            # nobody may move any more
            _, _, msg = await t.slash("rg pass", world["alice"])
            assert msg["flags"] & EPHEMERAL
            await replay_matches_store(E, db, gid, 3)
        assert not errors.messages(), errors.messages()


async def test_card_help_autocomplete_and_wrong_input_refused_privately(fake, db) -> None:
    async with FakeWorld(
        users=[*NAMES, "dave"],
        user_options={"carol": {"locale": "es-ES", "dms_open": False}},
        fake=fake,
    ) as world:
        t = await seeded_table(world, db, SEED)
        gid = await start(t, world)
        p = Players(t, gid)
        await p.settled((await p.state()).version)
        alice, carol, dave = world["alice"], world["carol"], world["dave"]

        # /rg card explains any action card in the caller's language, privately
        hints = await fake.autocomplete("rg card", carol, world.channel, focused="card", card="pod")
        assert hints and all("Poder" in c["name"] for c in hints), hints
        _, _, msg = await t.slash("rg card", carol, card=hints[0]["value"])
        kind = KIND[hints[0]["value"]]
        assert msg["flags"] & EPHEMERAL and kind.text.es in text_of(msg)
        _, _, msg = await t.slash("rg card", alice, card="7")
        assert msg["flags"] & EPHEMERAL and "#7 Resolve" in text_of(msg)

        refused = p.refused
        assert "not a Ragami action card" in await refused("rg card", alice, card="Dragon")
        assert "not playing" in await refused("rg keep", dave, card="1")
        # the game opens with each player keeping one of three cards: the other commands
        # say what is asked instead, in the caller's language
        state = await p.state()
        assert state.phase == "keep"
        assert "You cannot use an Action die now" in await refused("rg die", alice, choice="1")
        assert "No estás resolviendo un conflicto" in await refused("rg resolve", carol, step="x")
        assert "no es una jugada posible" in await refused(
            "rg keep", carol, card="un castillo volador"
        )
        # autocomplete offers exactly the cards to keep, nothing else
        seat = (await t.game(gid)).seat_of(int(alice["id"]))
        choices = await fake.autocomplete("rg keep", alice, world.channel, focused="card", card="")
        assert len(choices) == 3 and {c["name"] for c in choices} == {
            f"Keep: {card_name(c).en}" for c in state.drawn[seat]
        }
        hint = await fake.autocomplete("rg die", alice, world.channel, focused="choice", choice="")
        assert (
            len(hint) == 1
            and hint[0]["value"] == "-"
            and "Choose the action card" in hint[0]["name"]
        )
        assert "Ahora no hay pieza que mover" in await refused("rg piece", carol, piece="dragón")


JUNK = [
    "",
    " ",
    "-",
    "*",
    "#",
    "#0",
    "#0@-5",
    "#99999999999999999999@0",
    "{}",
    "[]",
    "null",
    '{"kind":"place","at":"99"}',
    '{"kind":"power","source":"cubes","amount":30}',
    '{"kind":"use_die","slot":7}',
    '{"kind":"commit"',
    "\x00",
    "\u202e",
    "🎲" * 40,
    "x" * 100,
    "R9",
    "S7",
    "D0",
    "C31",
    "0",
    "31",
    "-1",
    "Z",
    "la luna",
    "<@123>",
    "@everyone",
    "%s%s",
    "Dado: Resolver conflicto; DROP TABLE games",
    "{{card}}",
]
OPTIONS = {
    "rg die": ("choice",),
    "rg piece": ("piece", "destination"),
    "rg play": ("card",),
    "rg keep": ("card",),
    "rg resolve": ("step",),
    "rg decide": ("choice",),
    "rg card": ("card",),
}


async def test_random_input_to_every_rg_command_changes_nothing(fake, db) -> None:
    rng = random.Random(11)
    with DiscordLogCollector(("tablero",)) as errors:
        async with FakeWorld(
            users=[*NAMES, "dave"], user_options={"carol": {"locale": "es-ES"}}, fake=fake
        ) as world:
            t = await seeded_table(world, db, SEED)
            gid = await start(t, world)
            p = Players(t, gid)
            users = [world[n] for n in (*NAMES, "dave")]
            for _ in range(4):
                g = await t.game(gid)
                before = (g.version, g.engine.dump_state(g.state))
                for _ in range(10):
                    command = rng.choice(sorted(OPTIONS))
                    opts = {o: rng.choice(JUNK) for o in OPTIONS[command]}
                    _, _, msg = await t.slash(command, rng.choice(users), **opts)
                    assert (
                        msg is not None
                        and msg["flags"] & EPHEMERAL
                        and (msg["content"] or msg["embeds"])
                    ), (command, opts, msg)
                g = await t.game(gid)
                assert (g.version, g.engine.dump_state(g.state)) == before
                # the game goes on normally, a good way into it
                for _ in range(rng.randrange(3, 15)):
                    state = await p.state()
                    human = sorted(s for s in E.pending(state) if not g.seat_row(s).ai)
                    await p.directly(human[0], E.ai_action(state, human[0]))
            assert not errors.messages(), errors.messages()
