"""Earshot dictation package."""
