"""Earshot audio package."""
