"""Earshot engine package."""
