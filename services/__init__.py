"""The platform without Discord: sessions, clock, tournaments, ratings (never imports discord)."""
