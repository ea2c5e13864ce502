"""Earshot controller package."""
