"""Tests of the pure rules engines."""
