"""User-written text in public messages: shown as written, never a link, a ping or Markdown."""

from __future__ import annotations

import re

from cogs.common.usertext import plain


def test_a_masked_link_in_a_name_is_shown_as_text() -> None:
    out = plain("[Free Nitro](https://evil.example/x)")
    assert not re.search(r"(?<!\\)\[[^\]]*\]\(https?://", out)  # no masked link
    assert "https://" not in out  # nor a bare one
    assert "Free Nitro" in out and "evil.example/x" in out


def test_mentions_of_any_form_do_not_ping() -> None:
    for text in ("<@123> Cup", "<@!123456789012345678>", "<@&42> fans", "@everyone", "@here now"):
        out = plain(text)
        assert not re.search(r"<@[!&]?\d+>|@everyone|@here", out), out


def test_markdown_is_escaped_and_plain_names_unchanged() -> None:
    assert plain("**Ana** _b_") == r"\*\*Ana\*\* \_b\_"
    assert plain("Ana María") == "Ana María"


def test_a_small_number_is_read_only_from_ascii_digits_within_bounds() -> None:
    from cogs.common.usertext import small_number

    assert small_number("0", 4) == 0 and small_number(" 3 ", 4) == 3
    for junk in ("²", "٣", "4", "-1", "+1", "1 2", "", "9" * 5000, "0x1", "1.0"):
        assert small_number(junk, 4) is None, junk
