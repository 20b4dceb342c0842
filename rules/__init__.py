"""Pure game rules: no Discord, no I/O."""
