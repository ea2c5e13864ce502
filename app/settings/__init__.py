"""Earshot settings package."""
