"""Earshot controller: Qt signals in, engine and dictation calls out, on worker threads."""
