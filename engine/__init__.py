"""Pure, deterministic rules engines (no Discord, database or image imports)."""
