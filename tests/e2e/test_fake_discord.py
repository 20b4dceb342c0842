"""Tests of the fake Discord server: each one drives a tiny discord.py bot defined in this file."""

from __future__ import annotations

import asyncio
import io
import struct
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from .fake_discord import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    EPHEMERAL,
    LOADING,
    MANAGE_CHANNELS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeDiscord,
)
from .harness import DiscordLogCollector, FakeWorld, start_bot, stop_bot


def png(width: int, height: int, tag: bytes = b"") -> bytes:
    """Just enough of a PNG for its size to be read (signature + IHDR)."""
    ihdr = struct.pack(">II", width, height) + b"\x08\x02\x00\x00\x00"
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + tag


class TinyBot(commands.Bot):
    """Registers the given commands and dynamic items in setup_hook, then syncs the tree."""

    def __init__(self, *cmds: app_commands.Command | app_commands.Group, dynamic_items: tuple = (),
                 translator: app_commands.Translator | None = None, intents: discord.Intents | None = None,
                 label: str = "bot", store: dict | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default())
        self._cmds, self._dynamic, self._translator = cmds, dynamic_items, translator
        self.label = label
        self.store: dict[str, Any] = {} if store is None else store  # stands in for the database

    async def setup_hook(self) -> None:
        if self._translator is not None:
            await self.tree.set_translator(self._translator)
        for cmd in self._cmds:
            self.tree.add_command(cmd)
        if self._dynamic:
            self.add_dynamic_items(*self._dynamic)
        await self.tree.sync()


def store_of(interaction: discord.Interaction) -> dict[str, Any]:
    return interaction.client.store  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- groups, translator
SPANISH = {
    "game": "partida", "new": "nueva", "status": "estado", "hand": "mano", "log": "registro",
    "abandon": "abandonar", "admin": "admin", "reset": "reiniciar", "variant": "variante",
    "players": "jugadores", "opponent": "rival", "table": "mesa", "ranked": "clasificada",
    "confirm": "confirmar", "rh": "rh", "place": "colocar", "effect": "efecto", "tile": "casilla",
    "rotation": "rotacion", "card": "carta", "target": "objetivo",
}


class SpanishTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        if locale is discord.Locale.spain_spanish:
            return SPANISH.get(string.message)
        return None


class BadTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        if locale is discord.Locale.spain_spanish and string.message == "new":
            return "Nueva Partida"  # Discord refuses uppercase and spaces in command names
        return None


game = app_commands.Group(name="game", description="Board games", guild_only=True)
game_admin = app_commands.Group(name="admin", description="Admin tools", parent=game)


@game.command(name="new", description="Start a new game")
@app_commands.choices(variant=[Choice(name="Tic-tac-toe", value="ttt"), Choice(name="Connect four", value="c4")])
async def game_new(interaction: discord.Interaction, variant: Choice[str], players: app_commands.Range[int, 2, 4],
                   opponent: discord.Member, table: discord.TextChannel, ranked: bool = False) -> None:
    await interaction.response.send_message(
        f"{variant.value} players={players} vs {opponent.mention} ({type(opponent).__name__}) "
        f"at {table.mention} ranked={ranked}")


@game.command(name="status", description="Show the game")
async def game_status(interaction: discord.Interaction) -> None:
    guild_locale = interaction.guild_locale.value if interaction.guild_locale else None
    await interaction.response.send_message(f"locale={interaction.locale.value} guild_locale={guild_locale}")


@game.command(name="hand", description="Show your hand")
async def game_hand(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("your hand: 7 cards", ephemeral=True)


@game_admin.command(name="reset", description="Reset the game")
async def game_reset(interaction: discord.Interaction, confirm: bool) -> None:
    await interaction.response.send_message(f"reset confirm={confirm}")


TILES = ["a1", "a2", "b1", "b2", "c3"]
rh = app_commands.Group(name="rh", description="Rolling hills")


@rh.command(name="place", description="Place a tile")
@app_commands.choices(rotation=[Choice(name=str(d), value=d) for d in (0, 90, 180, 270)])
async def rh_place(interaction: discord.Interaction, tile: str, rotation: int = 0) -> None:
    await interaction.response.send_message(f"placed {tile} at {rotation}")


@rh_place.autocomplete("tile")
async def rh_place_tile(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    word = "Casilla" if interaction.locale is discord.Locale.spain_spanish else "Tile"
    rotation = interaction.namespace.rotation
    return [Choice(name=f"{word} {t.upper()} @{rotation}", value=t) for t in TILES if t.startswith(current.lower())]


@rh.command(name="effect", description="Play an effect card")
async def rh_effect(interaction: discord.Interaction, card: str, target: discord.Member | None = None) -> None:
    await interaction.response.send_message(f"{card} on {target}")


@rh_effect.autocomplete("card")
async def rh_effect_card(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    # Discord sends no resolved data with autocomplete, so the member is only an Object here.
    return [Choice(name=f"{current or 'any'} vs {type(interaction.namespace.target).__name__}", value="x")]


async def test_startup_handshake(world: FakeWorld) -> None:
    bot = TinyBot(game)
    await world.start(bot)
    fake = world.fake
    calls = [(r.method, r.path) for r in fake.requests]
    assert ("GET", "/users/@me") in calls
    assert ("PUT", f"/applications/{fake.app_id}/commands") in calls
    assert fake.identify_count == 1 and fake.connected and fake.ready
    assert bot.get_guild(int(world.guild["id"])) is not None
    assert bot.get_channel(int(world.channel["id"])).name == "games"


async def test_group_commands_and_localised_sync(world: FakeWorld) -> None:
    await world.start(TinyBot(game, rh, translator=SpanishTranslator()))
    fake, alice, bob = world.fake, world["alice"], world["bob"]

    synced = {c["name"]: c for c in fake.synced_commands()}
    assert synced["game"]["name_localizations"]["es-ES"] == "partida"
    new = next(o for o in synced["game"]["options"] if o["name"] == "new")
    assert new["type"] == 1 and new["name_localizations"] == {"es-ES": "nueva"}
    assert [o["name_localizations"]["es-ES"] for o in new["options"]][:2] == ["variante", "jugadores"]
    admin = next(o for o in synced["game"]["options"] if o["name"] == "admin")
    assert admin["type"] == 2 and admin["options"][0]["name"] == "reset"
    assert fake.command("rh")["options"][0]["name_localizations"]["es-ES"] == "colocar"

    games = world.channels["games"]
    inter = await fake.slash("game new", alice, games, variant="c4", players=3, opponent=bob,
                             table=world.channels["general"], ranked=True)
    sub = inter["data"]["options"][0]
    assert (sub["type"], sub["name"]) == (1, "new")
    assert {o["name"]: o["value"] for o in sub["options"]}["opponent"] == bob["id"]
    assert set(inter["data"]["resolved"]) == {"users", "members", "channels"}
    await fake.wait_response(inter)
    assert fake.response_message(inter)["content"] == (
        f"c4 players=3 vs <@{bob['id']}> (Member) at <#{world.channels['general']['id']}> ranked=True")

    # a subcommand inside a subcommand group (type 2 wrapping type 1), addressed by its Spanish names
    reset = await fake.slash("partida admin reiniciar", alice, games, confirmar=False)
    group = reset["data"]["options"][0]
    assert (group["type"], group["name"], group["options"][0]["name"]) == (2, "admin", "reset")
    await fake.wait_response(reset)
    assert fake.response_message(reset)["content"] == "reset confirm=False"


async def test_slash_is_as_strict_as_the_discord_client(world: FakeWorld) -> None:
    await world.start(TinyBot(game))
    fake, alice, bob, games = world.fake, world["alice"], world["bob"], world.channel
    ok = {"variant": "ttt", "players": 2, "opponent": bob, "table": games}
    with pytest.raises(LookupError, match="never synced"):
        await fake.slash("chess", alice, games)
    with pytest.raises(LookupError, match="is a group"):
        await fake.slash("game", alice, games)
    with pytest.raises(LookupError, match="no subcommand"):
        await fake.slash("game join", alice, games)
    with pytest.raises(TypeError, match="no option 'colour'"):
        await fake.slash("game new", alice, games, **ok, colour="red")
    with pytest.raises(ValueError, match="missing required options \\['table'\\]"):
        await fake.slash("game new", alice, games, variant="ttt", players=2, opponent=bob)
    with pytest.raises(ValueError, match="not one of the choices"):
        await fake.slash("game new", alice, games, **{**ok, "variant": "go"})
    with pytest.raises(ValueError, match="max_value"):
        await fake.slash("game new", alice, games, **{**ok, "players": 5})
    with pytest.raises(TypeError, match="boolean"):
        await fake.slash("game new", alice, games, **ok, ranked="yes")
    with pytest.raises(PermissionError, match="DMs"):  # guild_only group
        await fake.slash("game status", alice, fake.open_dm(alice))
    outsider = fake.add_user("outsider")
    with pytest.raises(LookupError, match="not a member"):
        await fake.slash("game status", outsider, games)
    assert not fake.interactions  # nothing reached the bot


async def test_invalid_translation_makes_sync_fail(fake: FakeDiscord) -> None:
    fake.add_guild("G", ["games"], [])
    with pytest.raises(discord.HTTPException) as info:
        await start_bot(fake, TinyBot(game, translator=BadTranslator()))
    assert info.value.status == 400 and info.value.code == 50035
    assert "name_localizations.es-ES" in str(info.value)
    fake.errors.clear()  # expected here; the fixture fails on any other refused payload


async def test_autocomplete_and_user_locale(fake: FakeDiscord) -> None:
    async with FakeWorld(fake=fake, users=["alice", "esteban"], user_options={"esteban": {"locale": "es-ES"}},
                         guild_locale="es-419") as world:
        await world.start(TinyBot(game, rh))
        alice, esteban = world["alice"], world["esteban"]
        choices = await fake.autocomplete("rh place", alice, world.channel, focused="tile", tile="b", rotation=90)
        assert choices == [{"name": "Tile B1 @90", "value": "b1"}, {"name": "Tile B2 @90", "value": "b2"}]
        choices = await fake.autocomplete("rh place", esteban, world.channel, focused="tile", rotation=0)
        assert [c["name"] for c in choices][:2] == ["Casilla A1 @0", "Casilla A2 @0"]
        inter = fake.interactions[max(fake.interactions)]
        assert inter["type"] == 4 and inter["locale"] == "es-ES" and "resolved" not in inter["data"]
        assert inter["data"]["options"][0]["options"][-1] == {"name": "tile", "type": 3, "value": "",
                                                              "focused": True}
        choices = await fake.autocomplete("rh effect", alice, world.channel, focused="card", card="fi",
                                          target=esteban)
        assert choices == [{"name": "fi vs Object", "value": "x"}]
        with pytest.raises(LookupError, match="no autocomplete option 'rotation'"):
            await fake.autocomplete("rh place", alice, world.channel, focused="rotation")

        status = await fake.slash("game status", esteban, world.channel)
        await fake.wait_response(status)
        assert fake.response_message(status)["content"] == "locale=es-ES guild_locale=es-419"


# --------------------------------------------------------------------------- components
class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="pick:colour", min_values=1, max_values=2, options=[
        discord.SelectOption(label="Red", value="red"), discord.SelectOption(label="Green", value="green"),
        discord.SelectOption(label="Blue", value="blue")])
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        select.disabled = True
        await interaction.response.edit_message(content="picked " + ",".join(select.values), view=self)

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="pick:player")
    async def player(self, interaction: discord.Interaction, select: discord.ui.UserSelect) -> None:
        chosen = select.values[0]
        await interaction.response.send_message(f"player {chosen.mention} {type(chosen).__name__}", ephemeral=True)

    @discord.ui.button(label="Done", custom_id="pick:done", disabled=True)
    async def done(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("done")


@app_commands.command(name="pick", description="Pick things")
async def pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pick a colour", view=PickView())


class MoveButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mv:(?P<game>\d+):(?P<cell>[a-c][1-3])"):
    def __init__(self, game_id: int, cell: str) -> None:
        super().__init__(discord.ui.Button(label=cell, custom_id=f"mv:{game_id}:{cell}"))
        self.game_id, self.cell = game_id, cell

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any) -> MoveButton:
        return cls(int(match["game"]), match["cell"])

    async def callback(self, interaction: discord.Interaction) -> None:
        label = interaction.client.label  # type: ignore[attr-defined]
        await interaction.response.edit_message(
            content=f"game {self.game_id}: {interaction.user.name} played {self.cell} ({label})")


@app_commands.command(name="board", description="Show a board")
async def board(interaction: discord.Interaction, game_id: int) -> None:
    view = discord.ui.View(timeout=None)
    for cell in ("a1", "b2", "c3"):
        view.add_item(MoveButton(game_id, cell))
    await interaction.response.send_message(f"board {game_id}", view=view)


async def test_select_menus(world: FakeWorld) -> None:
    await world.start(TinyBot(pick))
    fake, alice, bob = world.fake, world["alice"], world["bob"]
    msg = fake.response_message(await fake.wait_response(await fake.slash("pick", alice, world.channel)))
    assert fake.find_component(msg, lambda c: c.get("custom_id") == "pick:colour")["max_values"] == 2

    with pytest.raises(ValueError, match="not among its options"):
        await fake.select(msg, "pick:colour", alice, ["purple"])
    with pytest.raises(ValueError, match="takes 1..2 values"):
        await fake.select(msg, "pick:colour", alice, ["red", "green", "blue"])
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(msg, "pick:done", alice)
    with pytest.raises(TypeError, match="not a button"):
        await fake.click(msg, "pick:colour", alice)

    inter = await fake.select(msg, "pick:colour", alice, ["red", "blue"])
    assert (await fake.wait_response(inter))["type"] == 7
    assert msg["content"] == "picked red,blue"
    with pytest.raises(ValueError, match="disabled"):  # the bot disabled it in its edit
        await fake.select(msg, "pick:colour", alice, ["green"])

    chosen = await fake.wait_response(await fake.select(msg, "pick:player", alice, [bob]))
    assert chosen["data"]["content"] == f"player <@{bob['id']}> Member"
    assert [m["content"] for m in fake.ephemeral_responses(alice)] == [f"player <@{bob['id']}> Member"]
    assert fake.ephemeral_responses(bob) == []


async def test_buttons_with_dynamic_custom_ids(world: FakeWorld) -> None:
    await world.start(TinyBot(board, dynamic_items=(MoveButton,), label="first"))
    fake, alice = world.fake, world["alice"]
    inter = await fake.slash("board", alice, world.channel, game_id=42)
    await fake.wait_response(inter)
    msg = fake.response_message(inter)
    assert [c["label"] for c in fake.components(msg) if c["type"] == 2] == ["a1", "b2", "c3"]
    click = await fake.click(msg, fake.button(msg, "b2")["custom_id"], alice)
    assert click["data"] == {"custom_id": "mv:42:b2", "component_type": 2}
    assert (await fake.wait_response(click))["type"] == 7
    assert fake.last_message(world.channel)["content"] == "game 42: alice played b2 (first)"
    with pytest.raises(LookupError, match="no component"):
        await fake.click(msg, "mv:42:z9", alice)


class Scoreboard(discord.ui.LayoutView):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        row: discord.ui.ActionRow = discord.ui.ActionRow()
        refresh = discord.ui.Button(label="Refresh", custom_id="score:refresh")
        refresh.callback = self.refresh
        row.add_item(refresh)
        self.add_item(discord.ui.Container(discord.ui.TextDisplay("alice 3 - bob 1"), row))

    async def refresh(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("refreshed", ephemeral=True)


@app_commands.command(name="score", description="Show the scoreboard")
async def score(interaction: discord.Interaction) -> None:
    async with interaction.channel.typing():
        await interaction.response.send_message(view=Scoreboard())
    await (await interaction.original_response()).pin()


async def test_components_v2_typing_and_pins(world: FakeWorld) -> None:
    await world.start(TinyBot(score))
    fake, alice = world.fake, world["alice"]
    msg = fake.response_message(await fake.wait_response(await fake.slash("score", alice, world.channel)))
    assert msg["components"][0]["type"] == 17 and msg["flags"] == 1 << 15  # container, IS_COMPONENTS_V2
    assert fake.find_component(msg, lambda c: c["type"] == 10)["content"] == "alice 3 - bob 1"
    answer = await fake.wait_response(await fake.click(msg, "score:refresh", alice))
    assert answer["data"]["content"] == "refreshed"
    await fake.wait_until(lambda: msg["pinned"])
    assert fake.typing == [world.channel["id"]]


# --------------------------------------------------------------------------- files
@app_commands.command(name="picture", description="Board pictures")
async def picture(interaction: discord.Interaction) -> None:
    embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
    await interaction.response.send_message(embed=embed, file=discord.File(io.BytesIO(png(64, 32)), "board.png"))
    turn = await interaction.channel.send("turn 1", file=discord.File(io.BytesIO(png(8, 8, b"t1")), "turn.png"))
    log = await interaction.followup.send("log", file=discord.File(io.BytesIO(b"e4 e5"), "log.txt"), wait=True)
    turn = await turn.edit(attachments=[discord.File(io.BytesIO(png(16, 16, b"t2")), "turn.png")])  # replace
    await turn.edit(attachments=[turn.attachments[0], discord.File(io.BytesIO(b"notes"), "notes.txt")])  # keep + add
    await log.edit(attachments=[])  # drop
    await interaction.edit_original_response(attachments=[discord.File(io.BytesIO(png(128, 64)), "board.png")])
    store_of(interaction)["done"] = True


async def test_file_uploads_and_attachment_edits(world: FakeWorld) -> None:
    bot = TinyBot(picture)
    await world.start(bot)
    fake, channel = world.fake, world.channel
    inter = await fake.slash("picture", world["alice"], channel)
    await fake.wait_until(lambda: bot.store.get("done"))

    board_msg = fake.response_message(inter)
    assert board_msg["attachments"][0]["filename"] == "board.png"
    assert board_msg["attachments"][0]["content_type"] == "image/png"
    assert (board_msg["attachments"][0]["width"], board_msg["attachments"][0]["height"]) == (128, 64)
    assert fake.files(board_msg)[0]["data"] == png(128, 64)
    assert board_msg["embeds"][0]["image"]["url"] == "attachment://board.png"

    turn, log = [m for m in fake.channel_messages(channel) if m["id"] != board_msg["id"]]
    assert [a["filename"] for a in turn["attachments"]] == ["turn.png", "notes.txt"]
    assert [f["data"] for f in fake.files(turn)] == [png(16, 16, b"t2"), b"notes"]
    assert turn["edited_timestamp"] is not None
    assert log["content"] == "log" and log["attachments"] == [] and fake.followups(inter) == [log]


# --------------------------------------------------------------------------- DMs, deleted messages
@app_commands.command(name="deal", description="Deal a hand by DM")
async def deal(interaction: discord.Interaction, player: discord.Member) -> None:
    try:
        await player.send(f"{player.mention} your hand: 3 cards")
    except discord.Forbidden as exc:
        await interaction.response.send_message(f"cannot DM {player.name} ({exc.code}: {exc.text})", ephemeral=True)
    else:
        await interaction.response.send_message("dealt", ephemeral=True)


async def test_dms_open_and_closed(fake: FakeDiscord) -> None:
    async with FakeWorld(fake=fake, users=["alice", "dora"], user_options={"dora": {"dms_open": False}}) as world:
        await world.start(TinyBot(deal))
        alice, dora = world["alice"], world["dora"]
        await fake.wait_response(await fake.slash("deal", alice, world.channel, player=alice))
        assert (await fake.wait_for_dm(alice))["content"] == f"<@{alice['id']}> your hand: 3 cards"
        answer = await fake.wait_response(await fake.slash("deal", alice, world.channel, player=dora))
        assert answer["data"]["content"] == "cannot DM dora (50007: Cannot send messages to this user)"
        assert answer["data"]["flags"] & EPHEMERAL
        assert fake.dms_to(dora) == [] and len(fake.errors_with(50007)) == 1


@app_commands.command(name="post", description="Post the board, or update the one already posted")
async def post(interaction: discord.Interaction) -> None:
    store = store_of(interaction)
    if "board" in store:
        try:
            msg = await interaction.channel.fetch_message(store["board"])
        except discord.NotFound as exc:
            store["lost"] = exc.code
        else:
            await msg.edit(content="board v2")
            await interaction.response.send_message("edited", ephemeral=True)
            return
    store["board"] = (await interaction.channel.send("board v1")).id
    await interaction.response.send_message("posted", ephemeral=True)


@app_commands.command(name="cleanup", description="Delete the board")
async def cleanup(interaction: discord.Interaction) -> None:
    store = store_of(interaction)
    try:
        await interaction.channel.get_partial_message(store["board"]).edit(content="ghost")
    except discord.NotFound as exc:
        store["edit_error"] = exc.code
        await interaction.response.send_message("already gone", ephemeral=True)
        return
    await interaction.channel.get_partial_message(store["board"]).delete()
    await interaction.response.send_message("deleted", ephemeral=True)


async def test_deleted_messages(world: FakeWorld) -> None:
    bot = TinyBot(post, cleanup)
    await world.start(bot)
    fake, alice, channel = world.fake, world["alice"], world.channel

    async def run(name: str) -> str:
        return (await fake.wait_response(await fake.slash(name, alice, channel)))["data"]["content"]

    assert await run("post") == "posted"
    first = fake.last_message(channel)
    assert await run("post") == "edited" and first["content"] == "board v2"

    await fake.delete_message(channel, first)  # a moderator deletes the board
    assert await run("post") == "posted" and bot.store["lost"] == 10008
    second = fake.last_message(channel)
    assert second["id"] != first["id"] and second["content"] == "board v1"

    assert await run("cleanup") == "deleted"  # DELETE by the bot itself
    assert second["id"] in fake.deleted_messages and fake.last_message(channel) is None
    assert await run("cleanup") == "already gone" and bot.store["edit_error"] == 10008
    with pytest.raises(LookupError, match="deleted"):
        await fake.click(second, "anything", alice)


# --------------------------------------------------------------------------- threads, permissions
@app_commands.command(name="table", description="Open table threads")
async def table(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("table open")
    original = await interaction.original_response()
    public_thread = await original.create_thread(name="table-public")
    private_thread = await interaction.channel.create_thread(name="table-private",
                                                             type=discord.ChannelType.private_thread)
    await private_thread.add_user(interaction.user)
    await public_thread.send(f"welcome {interaction.user.mention}")
    store_of(interaction)["threads"] = (public_thread.id, private_thread.id)


@app_commands.command(name="where", description="Where am I")
async def where(interaction: discord.Interaction) -> None:
    channel = interaction.channel
    cached = interaction.client.get_channel(channel.id) is not None
    await interaction.response.send_message(
        f"{type(channel).__name__} {getattr(channel, 'name', None)} parent={getattr(channel, 'parent_id', None)} "
        f"cached={cached}")


@app_commands.command(name="close", description="Close this table")
async def close(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("closing")
    await interaction.channel.edit(archived=True, locked=True)


async def test_threads(world: FakeWorld) -> None:
    bot = TinyBot(table, where, close)
    await world.start(bot)
    fake, alice, channel = world.fake, world["alice"], world.channel
    inter = await fake.slash("table", alice, channel)
    public_id, private_id = await fake.wait_until(lambda: bot.store.get("threads"))
    public_thread, private_thread = fake.channels[str(public_id)], fake.channels[str(private_id)]
    assert public_thread["id"] == fake.response_message(inter)["id"]  # Discord reuses the message id
    assert (public_thread["type"], private_thread["type"]) == (PUBLIC_THREAD, PRIVATE_THREAD)
    assert public_thread["parent_id"] == channel["id"] and fake.response_message(inter)["thread"]["name"] == (
        "table-public")
    assert fake.thread_members[private_thread["id"]] == [fake.bot_user["id"], alice["id"]]
    assert fake.last_message(public_thread)["content"] == f"welcome <@{alice['id']}>"
    assert isinstance(bot.get_channel(public_id), discord.Thread)  # cached through THREAD_CREATE

    answer = await fake.wait_response(await fake.slash("where", alice, public_thread))
    assert answer["data"]["content"] == f"Thread table-public parent={channel['id']} cached=True"
    answer = await fake.wait_response(await fake.slash("where", alice, fake.open_dm(alice)))
    assert answer["data"]["content"] == "DMChannel None parent=None cached=False"

    await fake.wait_response(await fake.slash("close", alice, public_thread))
    await fake.wait_until(lambda: public_thread["thread_metadata"]["locked"])
    assert public_thread["thread_metadata"]["archived"]
    await fake.wait_until(lambda: bot.get_channel(public_id) is None)  # archived threads leave the cache


@app_commands.command(name="perms", description="Show my permissions")
async def perms(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(
        f"interaction={interaction.permissions.manage_channels} "
        f"member={interaction.user.guild_permissions.manage_channels} "
        f"app={interaction.app_permissions.manage_channels}")


@app_commands.command(name="room", description="Create a game room")
@app_commands.default_permissions(manage_channels=True)
async def room(interaction: discord.Interaction, name: str) -> None:
    created = await interaction.guild.create_text_channel(name)
    await interaction.response.send_message(f"created {created.mention}")


@app_commands.command(name="kick", description="Kick a player (checked by the bot)")
@app_commands.checks.has_permissions(manage_channels=True)
async def kick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("kicked")


@kick.error
async def kick_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    assert isinstance(error, app_commands.MissingPermissions)
    await interaction.response.send_message(f"missing {error.missing_permissions}", ephemeral=True)


async def test_member_permissions(fake: FakeDiscord) -> None:
    async with FakeWorld(fake=fake, users=["alice", "carol", "olga"], owner="olga",
                         user_options={"carol": {"manage_channels": True}}) as world:
        bot = TinyBot(perms, room, kick)
        await world.start(bot)
        alice, carol, olga = world["alice"], world["carol"], world["olga"]
        assert fake.member_permissions(world.guild, carol) & MANAGE_CHANNELS

        async def run(user: dict, command: str, **options: Any) -> str:
            inter = await fake.slash(command, user, world.channel, **options)
            return (await fake.wait_response(inter))["data"]["content"]

        assert await run(alice, "perms") == "interaction=False member=False app=True"
        assert await run(carol, "perms") == "interaction=True member=True app=True"
        assert await run(olga, "perms") == "interaction=True member=True app=True"
        assert await run(alice, "kick") == "missing ['manage_channels']"
        assert await run(carol, "kick") == "kicked"

        with pytest.raises(PermissionError, match="hidden"):  # default_permissions hides it from alice
            await fake.slash("room", alice, world.channel, name="x")
        answer = await run(carol, "room", name="chess-1")
        created = fake.channel_named(world.guild, "chess-1")
        assert answer == f"created <#{created['id']}>"
        assert isinstance(bot.get_channel(int(created["id"])), discord.TextChannel)  # CHANNEL_CREATE


# --------------------------------------------------------------------------- mentions, modals, deferral
@app_commands.command(name="nudge", description="Tell a player it is their turn")
async def nudge(interaction: discord.Interaction, player: discord.Member, loud: bool = True) -> None:
    allowed = discord.AllowedMentions(users=[player]) if loud else discord.AllowedMentions.none()
    await interaction.channel.send(f"{player.mention}, your turn", allowed_mentions=allowed)
    await interaction.response.send_message("nudged", ephemeral=True)


async def test_mentions(world: FakeWorld) -> None:
    await world.start(TinyBot(nudge))
    fake, alice, bob = world.fake, world["alice"], world["bob"]
    await fake.wait_response(await fake.slash("nudge", alice, world.channel, player=bob))
    loud = fake.last_message(world.channel)
    assert loud["content"] == f"<@{bob['id']}>, your turn" and loud["mentions"][0]["id"] == bob["id"]
    assert fake.pinged(loud) == [bob["id"]]
    await fake.wait_response(await fake.slash("nudge", alice, world.channel, player=bob, loud=False))
    assert fake.pinged(fake.last_message(world.channel)) == []


@app_commands.command(name="nudge_late", description="Say it is someone's turn, slowly")
async def nudge_late(interaction: discord.Interaction, player: discord.Member) -> None:
    await interaction.response.defer(thinking=True)
    # The mention arrives in the edit that fills the deferred reply: Discord notifies nobody.
    await interaction.edit_original_response(content=f"{player.mention}, your turn",
                                             allowed_mentions=discord.AllowedMentions(users=[player]))
    message = await interaction.channel.send("quiet")
    await message.edit(content=f"{player.mention}, quiet", allowed_mentions=discord.AllowedMentions(users=[player]))


async def test_mentions_added_by_an_edit_ping_nobody(world: FakeWorld) -> None:
    await world.start(TinyBot(nudge_late))
    fake, alice, bob = world.fake, world["alice"], world["bob"]
    interaction = await fake.slash("nudge_late", alice, world.channel, player=bob)
    await fake.wait_until(lambda: (fake.last_message(world.channel) or {}).get("content", "").endswith(", quiet"))
    answer = fake.response_message(interaction)
    assert answer["content"] == f"<@{bob['id']}>, your turn"
    assert fake.pinged(answer) == []
    edited = fake.last_message(world.channel)
    assert edited["content"] == f"<@{bob['id']}>, quiet" and fake.pinged(edited) == []


class RenameModal(discord.ui.Modal, title="Rename the table"):
    new_name: discord.ui.TextInput = discord.ui.TextInput(label="New name", custom_id="rename:name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.new_name.value}")


@app_commands.command(name="rename", description="Rename the table")
async def rename(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(RenameModal())


async def test_modal(world: FakeWorld) -> None:
    await world.start(TinyBot(rename))
    fake, alice = world.fake, world["alice"]
    inter = await fake.slash("rename", alice, world.channel)
    modal = await fake.wait_response(inter)
    assert modal["type"] == 9 and modal["data"]["title"] == "Rename the table"
    with pytest.raises(ValueError, match="length"):
        await fake.submit_modal(inter, {"rename:name": "x" * 21})
    submitted = await fake.submit_modal(inter, {"rename:name": "Catan night"})
    assert (await fake.wait_response(submitted))["data"]["content"] == "renamed to Catan night"


@app_commands.command(name="slow", description="A slow command")
async def slow(interaction: discord.Interaction, defer: bool) -> None:
    if defer:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await asyncio.sleep(0.1)
        await interaction.followup.send("done")  # replaces the "thinking..." message
        await interaction.followup.send("and more")
    else:
        await asyncio.sleep(0.1)
        await interaction.response.send_message("too late")


async def test_deferral_and_response_deadline(world: FakeWorld, discord_errors: DiscordLogCollector) -> None:
    await world.start(TinyBot(slow))
    fake, alice = world.fake, world["alice"]
    inter = await fake.slash("slow", alice, world.channel, defer=True)
    record = await fake.wait_response(inter)
    assert record["type"] == 5 and fake.response_message(inter)["flags"] & LOADING
    await fake.wait_until(lambda: len(fake.followups(inter)) == 1)
    original = fake.response_message(inter)
    assert original["content"] == "done" and original["flags"] == EPHEMERAL
    assert fake.ephemeral_responses(alice) == [original]
    assert fake.followups(inter)[0]["content"] == "and more"

    fake.response_deadline = 0.05  # instead of Discord's 3 s; the command answers after 0.1 s
    late = await fake.slash("slow", alice, world.channel, defer=False)
    with pytest.raises(AssertionError, match="10062"):
        await fake.wait_response(late)
    await discord_errors.wait_for("Unknown interaction")
    discord_errors.clear()  # expected: the command failed on Discord's side too


@app_commands.command(name="essay", description="Too long for Discord")
async def essay(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.send_message("x" * 2001)
    except discord.HTTPException as exc:
        await interaction.response.send_message(f"refused {exc.code}")


async def test_double_acknowledgement_and_invalid_payloads(world: FakeWorld) -> None:
    await world.start(TinyBot(game, essay))
    fake, alice = world.fake, world["alice"]
    inter = await fake.slash("game hand", alice, world.channel)
    await fake.wait_response(inter)
    # A second answer to the same interaction (as a second bot process would send) is refused.
    url = f"{fake.http_base}/interactions/{inter['id']}/{inter['token']}/callback"
    async with aiohttp.ClientSession() as session, session.post(url, json={"type": 4, "data": {
            "content": "again"}}) as resp:
        assert resp.status == 400 and (await resp.json())["code"] == 40060

    inter = await fake.slash("essay", alice, world.channel)
    answer = await fake.wait_until(lambda: fake.interaction_responses.get(inter["id"]))
    assert answer["data"]["content"] == "refused 50035"
    assert [r.path for r in fake.invalid_requests] == [f"/interactions/{inter['id']}/{inter['token']}/callback"]
    fake.errors.clear()  # expected here; the fixture fails on any other refused payload


@app_commands.command(name="react", description="Vote with a reaction")
async def react(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("vote!")
    try:
        await (await interaction.original_response()).add_reaction("\N{THUMBS UP SIGN}")
    except discord.NotFound:
        store_of(interaction)["reaction"] = "not implemented"


async def test_unimplemented_routes_are_recorded(world: FakeWorld) -> None:
    bot = TinyBot(react)
    await world.start(bot)
    await world.fake.slash("react", world["alice"], world.channel)
    await world.fake.wait_until(lambda: bot.store.get("reaction"))
    assert [r.method for r in world.fake.unhandled] == ["PUT"]
    assert "/reactions/" in world.fake.unhandled[0].path
    world.fake.unhandled.clear()  # expected here; the fixture fails the test otherwise


# --------------------------------------------------------------------------- restarts and lifecycle
async def test_bot_restart_keeps_the_world(world: FakeWorld) -> None:
    store: dict[str, Any] = {}  # what the bot keeps in its database across restarts
    fake, alice, channel = world.fake, world["alice"], world.channel
    first = TinyBot(board, post, dynamic_items=(MoveButton,), label="first", store=store)
    await world.start(first)
    inter = await fake.slash("board", alice, channel, game_id=7)
    await fake.wait_response(inter)
    board_msg = fake.response_message(inter)
    await fake.wait_response(await fake.slash("post", alice, channel))

    second = TinyBot(board, post, dynamic_items=(MoveButton,), label="second", store=store)
    await world.restart(second)
    assert first.is_closed() and second.is_ready()
    assert fake.identify_count == 2
    assert [r.method for r in fake.requests if r.path.endswith("/commands")] == ["PUT", "PUT"]

    click = await fake.click(board_msg, "mv:7:c3", alice)  # a message from before the restart
    await fake.wait_response(click)
    assert board_msg["content"] == "game 7: alice played c3 (second)"
    answer = await fake.wait_response(await fake.slash("post", alice, channel))
    assert answer["data"]["content"] == "edited"  # GET + PATCH of the old message by the new bot
    assert fake.channel_messages(channel)[-1]["content"] == "board v2"


async def test_members_intent_chunking(world: FakeWorld) -> None:
    intents = discord.Intents.default()
    intents.members = True
    bot = TinyBot(intents=intents)
    await world.start(bot)
    assert 8 in [p["op"] for p in world.fake.gateway_log]
    names = {m.name for m in bot.get_guild(int(world.guild["id"])).members}
    assert names == {"Tablero", "alice", "bob"}


async def test_fake_world_on_its_own(discord_errors: DiscordLogCollector) -> None:
    import discord.http

    before = discord.http.Route.BASE
    async with FakeWorld(users=["ann"], channels=["lobby"]) as world:
        assert discord.http.Route.BASE == world.fake.http_base
        task = await world.start(TinyBot(game))
        inter = await world.fake.slash("game hand", world["ann"], world.channels["lobby"])
        assert (await world.fake.wait_response(inter))["data"]["flags"] == EPHEMERAL
    assert task.done() and world.fake.port and discord.http.Route.BASE == before


async def test_start_and_stop_bot_helpers(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    channel = fake.add_guild("G", ["games"], [alice])["channels"][0]
    bot = TinyBot(game)
    task = await start_bot(fake, bot)
    assert fake.connected
    inter = await fake.slash("game hand", alice, channel)
    await fake.wait_response(inter)
    await stop_bot(bot, task)
    assert task.done() and bot.is_closed()
    await fake.wait_until(lambda: not fake.connected)
    with pytest.raises(RuntimeError, match="no bot is connected"):
        await fake.slash("game hand", alice, channel)


# --------------------------------------------------------------------------- Discord's limits
def channel_of(bot: discord.Client, channel: dict) -> discord.PartialMessageable:
    return bot.get_partial_messageable(int(channel["id"]), guild_id=int(channel["guild_id"]))


async def raw(fake: FakeDiscord, method: str, path: str, body: dict | None = None) -> tuple[int, dict, Any]:
    """One request straight to the fake: (status, headers, JSON body)."""
    async with aiohttp.ClientSession() as session, session.request(
            method, fake.http_base + path, json=body, headers={"Authorization": "Bot fake-token"}) as resp:
        data = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, dict(resp.headers), data


async def test_route_buckets_send_their_headers_and_429_when_spent(world: FakeWorld) -> None:
    fake, games = world.fake, world.channel
    path = f"/channels/{games['id']}/messages"
    fake.strict.window_scale = 1.0  # Discord's own 5 s window: nothing resets during the test
    answers = [await raw(fake, "POST", path, {"content": f"m{i}"}) for i in range(6)]
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    first = answers[0][1]
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Remaining"] == "4"
    assert 4.5 < float(first["X-RateLimit-Reset-After"]) <= 5.0 and first["X-RateLimit-Bucket"]
    assert float(first["X-RateLimit-Reset"]) > 1e9  # epoch seconds
    status, headers, body = answers[5]
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 0 < body["retry_after"] <= 5.0 and int(headers["Retry-After"]) >= body["retry_after"]
    assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Remaining"] == "0"
    assert headers["Via"]  # discord.py takes a 429 without it for a Cloudflare ban
    # another channel has a bucket of its own; time moving on refills this one
    assert (await raw(fake, "POST", f"/channels/{world.channels['general']['id']}/messages",
                      {"content": "x"}))[0] == 200
    fake.clock.advance(5.0)
    assert (await raw(fake, "POST", path, {"content": "later"}))[0] == 200
    assert len(fake.rate_limited) == 1
    fake.errors.clear()

    # discord.py waits out the bucket (from the headers, or a 429's retry_after): nothing is lost
    fake.strict.window_scale = 0.02
    fake.limiter.buckets.clear()
    bot = TinyBot()
    await world.start(bot)
    await asyncio.gather(*(channel_of(bot, world.channels["general"]).send(f"burst {i}") for i in range(12)))
    sent = [m["content"] for m in fake.channel_messages(world.channels["general"])]
    assert sorted(c for c in sent if c.startswith("burst")) == sorted(f"burst {i}" for i in range(12))


async def test_the_global_limit_spares_interaction_endpoints(world: FakeWorld) -> None:
    fake = world.fake
    await world.start(TinyBot(game))
    fake.strict.window_scale = 1.0
    fake.limiter.global_bucket = None
    fake.clock.freeze()  # the 51 requests fall in one second however loaded the machine is
    answers = await asyncio.gather(*(raw(fake, "GET", "/users/@me") for _ in range(51)))
    assert sorted(status for status, _, _ in answers) == [200] * 50 + [429]
    _, headers, body = next(a for a in answers if a[0] == 429)
    assert body["global"] is True and body["retry_after"] > 0
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    # interaction responses are not bound by it: a slash command is still answered
    inter = await fake.slash("game hand", world["alice"], world.channel)
    assert (await fake.wait_response(inter))["data"]["content"] == "your hand: 7 cards"
    fake.clock.advance(1.0)
    assert (await raw(fake, "GET", "/users/@me"))[0] == 200
    fake.clock.thaw()
    fake.errors.clear()


async def test_the_global_limit_holds_in_any_second_not_only_from_its_first_request(world: FakeWorld) -> None:
    fake = world.fake
    await world.start(TinyBot(game))
    fake.strict.window_scale = 1.0
    fake.limiter.global_bucket = None
    fake.clock.freeze()

    async def burst(n: int) -> list[int]:
        return [status for status, _, _ in await asyncio.gather(*(raw(fake, "GET", "/users/@me") for _ in range(n)))]

    assert await burst(30) == [200] * 30
    fake.clock.advance(0.9)
    assert await burst(20) == [200] * 20
    fake.clock.advance(0.2)  # a second after the first 30: only their places came back
    assert sorted(await burst(31)) == [200] * 30 + [429]
    fake.clock.thaw()
    fake.strict.window_scale = 0.02
    fake.limiter.global_bucket = None
    fake.errors.clear()


async def test_three_edits_per_six_seconds_per_channel(world: FakeWorld) -> None:
    fake = world.fake
    bot = TinyBot()
    await world.start(bot)
    message = await channel_of(bot, world.channel).send("v0")
    path = f"/channels/{world.channel['id']}/messages/{message.id}"
    fake.strict.window_scale = 1.0
    statuses = [(await raw(fake, "PATCH", path, {"content": f"raw {i}"}))[0] for i in range(4)]
    assert statuses == [200, 200, 200, 429]
    fake.strict.edit_limit = False
    assert (await raw(fake, "PATCH", path, {"content": "unlimited"}))[0] == 200
    fake.strict.edit_limit, fake.strict.window_scale = True, 0.02
    fake.limiter.buckets.clear()
    fake.errors.clear()
    # discord.py holds back the fourth edit until the window passes: the last edit wins
    for i in range(1, 8):
        await message.edit(content=f"v{i}")
    assert fake.messages[str(message.id)]["content"] == "v7"


async def test_edits_of_messages_older_than_an_hour_are_refused(world: FakeWorld) -> None:
    fake = world.fake
    bot = TinyBot()
    await world.start(bot)
    message = await channel_of(bot, world.channel).send("fresh")
    await message.edit(content="still fresh")
    fake.clock.advance(3601)
    with pytest.raises(discord.HTTPException) as info:
        await message.edit(content="too late")
    assert info.value.code == 30046 and fake.messages[str(message.id)]["content"] == "still fresh"
    fake.strict.old_edits = False
    await message.edit(content="allowed when the rule is off")
    fake.errors.clear()


@app_commands.command(name="wait", description="Answers when the test says so")
async def wait_cmd(interaction: discord.Interaction, defer: bool) -> None:
    store = store_of(interaction)
    if defer:
        await interaction.response.defer(thinking=True)
    await store["go"].wait()
    try:
        if defer:
            await interaction.followup.send("late followup")
        else:
            await interaction.response.send_message("late answer")
    except discord.HTTPException as exc:
        store["refused"] = (exc.status, exc.code)


async def test_interaction_tokens_expire_and_first_answers_are_due_in_three_seconds(world: FakeWorld) -> None:
    fake = world.fake
    bot = TinyBot(wait_cmd)
    await world.start(bot)
    bot.store["go"] = asyncio.Event()
    inter = await fake.slash("wait", world["alice"], world.channel, defer=True)
    await fake.wait_response(inter)
    fake.clock.advance(16 * 60)  # the token lived 15 minutes
    bot.store["go"].set()
    assert await fake.wait_until(lambda: bot.store.get("refused")) == (401, 50027)
    assert fake.errors_with(50027)[0].path.startswith(f"/webhooks/{fake.app_id}/")

    bot.store.clear()
    bot.store["go"] = asyncio.Event()
    inter = await fake.slash("wait", world["alice"], world.channel, defer=False)
    await fake.wait_until(lambda: inter["id"] in fake.interactions)
    fake.clock.advance(3.5)  # measured from the moment the event left the gateway
    bot.store["go"].set()
    assert await fake.wait_until(lambda: bot.store.get("refused")) == (404, 10062)
    assert inter["id"] not in fake.interaction_responses
    fake.errors.clear()


@app_commands.command(name="perms", description="What the bot may do here")
async def perms_cmd(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"app_permissions={interaction.app_permissions.value}",
                                            ephemeral=True)


async def test_the_bots_channel_permissions(world: FakeWorld) -> None:
    fake, games, general = world.fake, world.channel, world.channels["general"]
    bot = TinyBot(perms_cmd)
    await world.start(bot)
    here = channel_of(bot, games)
    assert fake.channel_permissions(games) & SEND_MESSAGES

    await fake.deny_bot(games, SEND_MESSAGES)
    with pytest.raises(discord.Forbidden) as info:
        await here.send("hello")
    assert (info.value.status, info.value.code) == (403, 50013)
    await channel_of(bot, general).send("elsewhere is fine")
    # interaction responses are webhooks: they still work, and say what the bot may do
    inter = await fake.slash("perms", world["alice"], games)
    shown = int((await fake.wait_response(inter))["data"]["content"].split("=")[1])
    assert shown == fake.channel_permissions(games) and not shown & SEND_MESSAGES

    await fake.deny_bot(games, EMBED_LINKS)  # replaces the bot's overwrite in #games
    await here.send("text only")
    with pytest.raises(discord.Forbidden):
        await here.send(embed=discord.Embed(title="board"))
    await fake.deny_bot(games, ATTACH_FILES)
    with pytest.raises(discord.Forbidden):
        await here.send(file=discord.File(io.BytesIO(png(2, 2)), filename="b.png"))
    await fake.deny_bot(games, READ_MESSAGE_HISTORY)
    posted = await here.send("can't read back")
    with pytest.raises(discord.Forbidden):
        await here.fetch_message(posted.id)
    assert [m async for m in here.history(limit=5)] == []
    await fake.deny_bot(games, VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as info:
        await posted.edit(content="unseen")
    assert info.value.code == 50001

    # threads: their parent's overwrites, and Send Messages in Threads instead of Send Messages
    text_channel = bot.get_channel(int(general["id"]))
    await fake.set_overwrite(general, world.guild["id"], deny=SEND_MESSAGES)  # @everyone
    thread = await text_channel.create_thread(name="t", type=discord.ChannelType.public_thread)
    await thread.send("threads still work")
    await fake.set_overwrite(general, world.guild["id"], deny=SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden):
        await thread.send("not now")
    await fake.set_overwrite(general, world.guild["id"], deny=CREATE_PUBLIC_THREADS)
    with pytest.raises(discord.Forbidden):
        await text_channel.create_thread(name="u", type=discord.ChannelType.public_thread)
    # a member overwrite beats a role overwrite; the bot's own role decides the rest
    await fake.deny_bot(general, 0)
    await fake.set_overwrite(general, fake._bot_roles[world.guild["id"]], deny=SEND_MESSAGES)
    with pytest.raises(discord.Forbidden):
        await channel_of(bot, general).send("role says no")
    await fake.set_overwrite(general, fake.bot_user["id"], allow=SEND_MESSAGES, member=True)
    await channel_of(bot, general).send("member says yes")
    await fake.set_bot_role_permissions(world.guild, 0)
    await fake.set_overwrite(games, world.guild["id"], deny=EMBED_LINKS)  # @everyone, in #games
    await fake.deny_bot(games, 0)
    assert not fake.channel_permissions(games) & EMBED_LINKS and fake.channel_permissions(general) & EMBED_LINKS
    fake.strict.permissions = False
    await here.send("no permission checks")
    fake.errors.clear()


async def test_allowed_mentions_that_discord_refuses(world: FakeWorld) -> None:
    fake, games = world.fake, world.channel
    bob = world["bob"]
    path = f"/channels/{games['id']}/messages"
    body = {"content": f"<@{bob['id']}>", "allowed_mentions": {"parse": ["users"], "users": [bob["id"]]}}
    status, _, answer = await raw(fake, "POST", path, body)
    assert (status, answer["code"]) == (400, 50035)
    body["allowed_mentions"] = {"parse": [], "users": [bob["id"]]}
    assert (await raw(fake, "POST", path, body))[0] == 200
    assert fake.pinged(fake.last_message(games)) == [bob["id"]]
    fake.errors.clear()
