"""Speakeasy (Vital Lacerda): the rules engine."""
