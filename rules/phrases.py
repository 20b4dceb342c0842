"""A game's phrase book: how the rules write a text a player will read.

``msg = Phrases("rey_hierofante")`` at the top of a module, then ``msg("{who} places
{tile}.", who=..., tile=...)`` gives a Text whose English is that template and whose other
languages are in the game's catalogues (rules/catalogue.py). The wording must be a literal
string, so that ``python -m rules.catalogue update`` finds it in the code.
"""

from __future__ import annotations

from typing import Any

from rules.core import Text


class Phrases:
    """The texts of one catalogue (domain), usually one game."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def __call__(self, wording: str, /, **values: Any) -> Text:
        """The text ``wording`` (English, a str.format template) with ``values`` filled in."""
        return Text(d=self.domain, m=wording, a=values)

    def n(self, n: int, singular: str, plural: str, /, **values: Any) -> Text:
        """A text about ``n`` things ("{n} card" / "{n} cards"); each language picks its form."""
        return Text(d=self.domain, m=singular, p=plural, n=n, a=values)

    def c(self, context: str, wording: str, /, **values: Any) -> Text:
        """A text whose English wording has another meaning elsewhere in the game."""
        return Text(d=self.domain, c=context, m=wording, a=values)

    def nc(self, context: str, n: int, singular: str, plural: str, /, **values: Any) -> Text:
        """``n`` with a context (see ``c``)."""
        return Text(d=self.domain, c=context, m=singular, p=plural, n=n, a=values)

    def data(self, context: str, wording: str, /, **values: Any) -> Text:
        """A text read from the game's data files (card names and texts), not written in the
        code: the scan takes its wordings from the domain's data source (catalogue_scan)."""
        return Text(d=self.domain, c=context, m=wording, a=values)
