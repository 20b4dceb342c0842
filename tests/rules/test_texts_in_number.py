"""The rules' texts read right in number and person, in Spanish and English: seeded random
games of every game, every player count, and every event, prompt and result they produce."""

from __future__ import annotations

import random
import re

import pytest

from rules.core import Text
from rules.registry import games

SEEDS = 2
MAX_STEPS = 3000

PAREN = re.compile(r"\w\((?:s|es|n)\)")  # "card(s)", "personalidad(es)"
NOUNS_EN = (
    "cards|tokens|points|cubes|demons|saints|minions|buildings|coins|rats|players|games|wins|"
    "counters|dice|turns|rounds|tiles|personalities|times|days|moves|oracles|characters|powers|"
    "areas|actions|keys|weapons|neutrals|shields|pieces|conflicts|steps"
)
NOUNS_ES = (
    "cartas|fichas|puntos|cubos|demonios|santos|secuaces|edificios|monedas|ratas|jugadores|"
    "partidas|victorias|contadores|dados|turnos|rondas|losetas|personalidades|veces|días|jugadas|"
    "oráculos|personajes|poderes|zonas|acciones|claves|armas|neutrales|escudos|piezas|conflictos|pasos"
)
# "1 cards", "1 rat tokens", "1 fichas" (but "Player 1 moves", "#1 Powers" name no number of things)
ONE = {
    "en": re.compile(
        rf"(?<![#\w.,/])(?<!Player )1 (?:(?:rat|god|design|white|unused|action|power) )?(?:{NOUNS_EN})\b",
        re.I,
    ),
    "es": re.compile(rf"(?<![#\w.,/])(?<!Jugador )1 (?:{NOUNS_ES})\b", re.I),
}
# words speaking to the reader
YOU = {
    "en": re.compile(r"\b(?:you|your|yours|yourself)\b", re.I),
    "es": re.compile(
        r"\b(?:tú|tu|tus|te|ti|contigo|tienes|puedes|debes|eliges|juegas|robas|ganas|pierdes|"
        r"tomas|pagas|recibes)\b",
        re.I,
    ),
}


def _in_title(text: str, m: re.Match[str]) -> bool:
    # "Move your Virtue", "Mueve tu Virtud": a card's name, not words to the reader
    before, after = text[: m.start()].split(), text[m.end():].split()
    return bool(before and after and before[-1][:1].isupper() and after[0][:1].isupper())


def problems(text: str, lang: str, several: bool) -> list[str]:
    """What reads wrong in ``text``: a "(s)", a placeholder left unfilled, one thing in the
    plural, or (``several``: it goes to more than one seat) words to a single reader."""
    out = []
    if PAREN.search(text):
        out.append("(s)")
    if "{" in text or "}" in text:
        out.append("{")
    out += [m.group(0) for m in ONE[lang].finditer(text)]
    if several:
        out += [m.group(0) for m in YOU[lang].finditer(text) if not _in_title(text, m)]
    return out


def test_the_checks_catch_what_they_look_for() -> None:
    assert problems("Player 2 draws 1 card(s).", "en", False) == ["(s)"]
    assert problems("Jugador 2 mira 3 personalidad(es).", "es", False) == ["(s)"]
    assert problems("Jugador 2 recibe 1 fichas de rata.", "es", False) == ["1 fichas"]
    assert problems("Player 2 gets 1 rat tokens.", "en", False) == ["1 rat tokens"]
    assert problems("Player 2 gets {n} cubes.", "en", False) == ["{"]
    assert problems("Player 1, you draw 2 cards.", "en", True) == ["you"]
    assert problems("Jugador 1, te toca.", "es", True) == ["te"]
    assert problems("Jugador 1, te toca.", "es", False) == []  # to one seat: fine
    assert problems("Player 1 moves a minion; Player 1 wins.", "en", True) == []
    assert problems("Player 1 exchanges #7 Move your Virtue for a white cube.", "en", True) == []
    assert problems("Jugador 1 roba 1 carta; Player 3 gets 11 cards.", "es", True) == []


def _check(found: list[tuple[str, str, str, str]], where: str, text: Text, several: bool) -> None:
    for lang in ("es", "en"):
        s = text.get(lang)
        for p in problems(s, lang, several):
            found.append((where, lang, p, s))


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_text_of_random_games_reads_right_in_number_and_person(game_id: str) -> None:
    eng = games()[game_id]
    found: list[tuple[str, str, str, str]] = []
    texts = ended = 0
    for n in range(eng.min_players, min(eng.max_players, 5) + 1):
        for seed in range(SEEDS):
            rnd = random.Random(f"{game_id}:{n}:{seed}")
            st = eng.setup(n, None, seed)
            for _ in range(MAX_STEPS):
                pending = eng.pending(st)
                if not pending:
                    break
                for prompt in pending.values():  # a prompt speaks to its own seat
                    _check(found, "prompt", prompt.text, False)
                seat = rnd.choice(sorted(pending))
                st, events = eng.apply(st, seat, rnd.choice(eng.legal_actions(st, seat)))
                for ev in events:
                    texts += 1
                    _check(found, "event", ev.text, ev.audience is None or len(ev.audience) > 1)
            outcome = eng.outcome(st)
            if outcome is not None:  # (a random multiplayer game may still be going)
                ended += 1
                _check(found, "outcome", outcome.reason, True)
    assert texts > 50 and ended >= 1  # results are read too
    assert not found, found[:20]
