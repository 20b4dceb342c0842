"""Cards being posted anew: marked before the post, cleared when the new card is stored
(set_board_message), so that a start after a crash between the two finds the copy left."""

from __future__ import annotations

from .dialect import game_locks
from .stamps import touch


class CardPostQueries:
    """The store's card-posting marks (mixed into Store, which provides _update_game, _write
    and _fetchall)."""

    async def note_card_posting(self, game: int, at: float) -> None:
        """Mark that ``game``'s card is about to be posted anew at ``at`` (Unix time)."""
        await self._update_game(game, "card_posting_at = ?", (at,))  # type: ignore[attr-defined]

    async def clear_card_posting(self, game: int, at: float) -> None:
        """Clear ``game``'s mark of ``at`` (looked at after a restart), unless it was marked
        again since."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            await touch(db, game, "card_posting_at = NULL", guard=" AND card_posting_at = ?",
                        guard_params=(at,))

    async def cards_being_posted(self) -> list[tuple[int, float]]:
        """(game, when) of each game whose card was being posted anew and never stored:
        a crash came in between (or the post failed)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id, card_posting_at FROM games WHERE card_posting_at IS NOT NULL ORDER BY id"
        )
        return [(int(r[0]), float(r[1])) for r in rows]
