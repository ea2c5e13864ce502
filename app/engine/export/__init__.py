"""Transcripts written out: plain text in paragraphs, SRT, WebVTT and JSON."""
