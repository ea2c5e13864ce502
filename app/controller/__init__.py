"""Earshot controller: Qt signals in, engine and dictation calls out, on worker threads."""

from app.controller.qt_compat import guard_none_refcount

guard_none_refcount()
