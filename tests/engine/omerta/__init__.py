"""Rule tests of Omerta (seed 002 and the project decisions)."""
