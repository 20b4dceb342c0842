"""Whatever a user types into a command changes nothing, crashes nothing, and gets an answer."""

from __future__ import annotations

import random

import pytest

from .fake_discord import EPHEMERAL
from .harness import DiscordLogCollector, FakeWorld
from .table import Table

NASTY = [
    "", " ", "-", "#", "#0", "#-1@0", "#99999999999999999999@0", "#0@-5", "a0", "g9", "{}", "[]",
    '{"kind":"place","tile":"rey","square":99}', '{"kind":"decline"', "null", "\x00", "\u202e",
    "🎲" * 40, "x" * 100, "B4", "Z9", "c3 ", " a1", "rey", "ciudadano; DROP TABLE games",
    "{{tile}}", "%s%s%s", "../../etc/passwd", "<@123>", "@everyone",
]


def junk(rng: random.Random) -> str:
    """A random string: printable, unicode, or a near miss of a real choice."""
    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice(NASTY)
    if kind == 1:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 30)))
    if kind == 2:
        return rng.choice(["A", "B", "C", "D", "a", "z"]) + str(rng.randrange(-2, 12))
    return f'{{"kind":"{rng.choice(["place", "target", "move", "line", "recover", "x"])}",' \
           f'"square":{rng.randrange(-3, 12)},"tile":"{rng.choice(["rey", "dragon", "?"])}"}}'


@pytest.mark.parametrize("variant", ["original", "aleatorio_oculto"])
async def test_random_input_to_every_move_command_changes_nothing(fake, tmp_path, variant) -> None:
    rng = random.Random(variant)
    async with FakeWorld(users=["alice", "bob", "carol"], fake=fake) as world:
        with DiscordLogCollector(("tablero",)) as errors:
            t = Table(world, str(tmp_path / "t.db"))
            await t.start()
            alice, bob, carol = world["alice"], world["bob"], world["carol"]
            gid, lobby = await t.new_game(alice, variant=variant)
            b = t.lobby_buttons(lobby)
            await t.click(lobby, b["join"], bob)
            await t.click(lobby, b["start"], alice)
            for _ in range(3):
                g = await t.game(gid)
                before = (g.version, g.engine.dump_state(g.state))
                for _ in range(12):
                    user = rng.choice([alice, bob, carol])
                    command = rng.choice(["rh place", "rh effect", "rh starter", "rh draft", "game move"])
                    if command == "rh place":
                        opts = {"tile": junk(rng), "square": junk(rng)}
                    elif command == "rh draft":
                        opts = {"tile": junk(rng)}
                    else:
                        opts = {"choice": junk(rng)}
                    _, _, msg = await t.slash(command, user, **opts)
                    assert msg is not None and msg["flags"] & EPHEMERAL and msg["content"], (command, opts)
                g = await t.game(gid)
                assert (g.version, g.engine.dump_state(g.state)) == before
                await t.move_by_menu(gid)  # the game still goes on normally
                assert (await t.game(gid)).version == before[0] + 1
            assert not errors.messages(), errors.messages()


async def test_a_seat_typed_in_other_digits_or_too_long_is_refused_in_the_lobby(fake, tmp_path) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, str(tmp_path / "t.db"), random.Random(3))
        await t.start()
        alice = world["alice"]
        gid, lobby = await t.new_game(alice)
        await t.click(lobby, t.lobby_buttons(lobby)["join"], world["bob"])
        seats = len((await t.game(gid)).seats)
        for typed in ("²", "١", "9" * 5000, "-0", str(seats)):
            _, _, answer = await t.slash("game remove", alice, seat=typed)
            assert answer is not None and answer["flags"] & EPHEMERAL, typed
            assert "went wrong" not in answer["content"], typed
        assert len((await t.game(gid)).seats) == seats  # nothing changed


async def test_a_lobby_whose_message_fails_leaves_no_game_holding_the_channel(
    fake, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import discord

    async with FakeWorld(users=["alice"], fake=fake) as world:
        t = Table(world, str(tmp_path / "t.db"), random.Random(4))
        await t.start()
        real = discord.InteractionResponse.send_message
        failed: list[bool] = []

        async def failing(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            if not failed and kwargs.get("embed") is not None:
                failed.append(True)  # the lobby's reply: Discord refuses it once
                raise discord.HTTPException(_Response(500), "Discord was unavailable")
            return await real(self, *args, **kwargs)

        monkeypatch.setattr(discord.InteractionResponse, "send_message", failing)
        inter = await fake.slash("game new", world["alice"], world.channel, game="rey_hierofante", thread=False)
        await fake.wait_until(lambda: failed and t.bot.session.store is not None)
        await fake.wait_until(lambda: fake.response_message(inter) is not None or None, timeout=5)
        assert await t.bot.session.in_channel(int(world.channel["id"])) is None  # nothing holds it
        gid, lobby = await t.new_game(world["alice"])  # the next /game new opens a lobby
        assert lobby["embeds"] and gid > 1


class _Response:
    """The least of an aiohttp response that discord.HTTPException reads."""

    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "error"
