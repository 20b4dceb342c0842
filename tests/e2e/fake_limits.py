"""Discord's limits as the fake applies them: which are on, its clock, rate-limit buckets.

Counts are Discord's. Windows are Discord's times multiplied by ``Strictness.window_scale``
(0.02 by default: a 6-second window lasts 0.12 s) so a test that meets a limit waits
milliseconds, not seconds; the headers report the scaled times, so a client waits exactly
as long as the fake expects. Set ``window_scale = 1.0`` for Discord's own windows.
"""

from __future__ import annotations

import collections
import math
import time
from dataclasses import dataclass, field

# Discord's numbers (https://discord.com/developers/docs/topics/rate-limits and the
# interactions docs): requests per second per bot, a token's life, the first answer.
GLOBAL_LIMIT = 50
GLOBAL_WINDOW = 1.0
TOKEN_LIFETIME = 15 * 60.0
OLD_MESSAGE = 60 * 60.0
# Per-route buckets (per channel): Discord does not document them, it sends them in headers;
# these are the values it commonly answers with, and the message-edit limit of the issue.
ROUTE_BUCKETS: dict[str, tuple[int, float]] = {
    "message-create": (5, 5.0),
    "message-edit": (3, 6.0),
    "message-delete": (5, 1.0),
    "thread-create": (5, 5.0),
}


@dataclass
class Strictness:
    """Which of Discord's rules the fake enforces; every one is on unless a test switches it off."""

    rate_limits: bool = True  # per-route buckets, the global limit, 429 answers
    edit_limit: bool = True  # 3 edits per 6 seconds per channel
    old_edits: bool = True  # 30046 on edits of messages older than an hour
    token_expiry: bool = (
        True  # interaction webhooks refuse tokens older than 15 minutes (401/50027)
    )
    response_deadline: bool = True  # the first answer within 3 s of the event leaving (404/10062)
    permissions: bool = True  # the bot's roles and the channel's overwrites (403/50013, 50001)
    global_limit: int = (
        GLOBAL_LIMIT  # requests per (scaled) second; tests may lower it to force 429s
    )
    window_scale: float = 0.02  # rate-limit windows are Discord's times this


class FakeClock:
    """Monotonic seconds, moved forward on demand (``advance``) to age tokens and messages,
    and held still (``freeze``) where a test needs a burst to fall in one window however
    slowly a loaded machine runs it."""

    def __init__(self) -> None:
        self.offset = 0.0
        self.frozen: float | None = None  # the monotonic reading time stands still at

    def _monotonic(self) -> float:
        return time.monotonic() if self.frozen is None else self.frozen

    def now(self) -> float:
        """The fake's present, in seconds."""
        return self._monotonic() + self.offset

    def wall(self) -> float:
        """Epoch seconds as the fake's present (for X-RateLimit-Reset)."""
        return time.time() - time.monotonic() + self._monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds`` (tokens expire, messages age, buckets reset)."""
        self.offset += seconds

    def freeze(self) -> None:
        """Stop the fake's time where it is (``advance`` still moves it)."""
        self.frozen = time.monotonic()

    def thaw(self) -> None:
        """Let the fake's time run again from where it stood."""
        if self.frozen is not None:
            self.offset -= time.monotonic() - self.frozen
            self.frozen = None


@dataclass
class Bucket:
    """A fixed window of ``limit`` requests, as Discord's buckets work."""

    name: str
    limit: int
    window: float  # real seconds (already scaled)
    remaining: int = 0
    reset_at: float = 0.0

    def take(self, now: float) -> bool:
        """Count one request; False when the bucket is exhausted."""
        if now >= self.reset_at:
            self.remaining, self.reset_at = self.limit, now + self.window
        if self.remaining <= 0:
            return False
        self.remaining -= 1
        return True

    def headers(self, now: float, wall: float) -> dict[str, str]:
        """The X-RateLimit-* headers of an answer on this bucket."""
        after = max(self.reset_at - now, 0.0)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(self.remaining, 0)),
            "X-RateLimit-Reset": f"{wall + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self.name,
        }


@dataclass
class SlidingLimit:
    """At most ``limit`` requests in ANY ``window`` seconds: the strictest reading of
    Discord's "50 requests per second" (its docs do not say where a second starts; a window
    fixed from its first request would let through twice the limit across its edge)."""

    limit: int
    window: float  # real seconds (already scaled)
    counted: collections.deque[float] = field(default_factory=collections.deque)

    def take(self, now: float) -> float | None:
        """Count one request; the seconds to wait when over the limit, else None."""
        while self.counted and now - self.counted[0] >= self.window:
            self.counted.popleft()
        if len(self.counted) >= self.limit:
            return max(self.counted[0] + self.window - now, 0.001)
        self.counted.append(now)
        return None


@dataclass
class RateLimiter:
    """The global bucket and the per-route, per-channel buckets of one bot."""

    clock: FakeClock
    strict: Strictness
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    global_bucket: SlidingLimit | None = None

    def route_bucket(self, kind: str, resource: str) -> Bucket:
        """The bucket of ``kind`` for one top-level resource (a channel)."""
        key = (kind, resource)
        if key not in self.buckets:
            limit, window = ROUTE_BUCKETS[kind]
            self.buckets[key] = Bucket(f"{kind}-bucket", limit, window * self.strict.window_scale)
        return self.buckets[key]

    def take_global(self) -> float | None:
        """Count one request against 50/s; the seconds to wait when over it, else None."""
        now = self.clock.now()
        if self.global_bucket is None:
            self.global_bucket = SlidingLimit(
                self.strict.global_limit, GLOBAL_WINDOW * self.strict.window_scale
            )
        return self.global_bucket.take(now)


def too_many(
    retry_after: float, *, is_global: bool, headers: dict[str, str] | None = None
) -> tuple[dict, dict]:
    """A 429's JSON body and headers, shaped as Discord sends them (with Cloudflare's Via)."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
    }
    out = dict(headers or {})
    out.update({"Retry-After": str(max(1, math.ceil(retry_after))), "Via": "1.1 google"})
    if is_global:
        out.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
    else:
        out["X-RateLimit-Scope"] = "user"
    return body, out
