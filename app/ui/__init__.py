"""Earshot ui package."""
