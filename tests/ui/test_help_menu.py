"""Help > Keyboard shortcuts and Help > Spoken commands list what the app really knows (its
menu shortcuts, the post-processor's commands); About links the log file and the licences."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import open_window
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QLabel, QMessageBox

from app.dictation.command_match import EDIT_PHRASES
from app.dictation.spoken_commands import SPOKEN_COMMANDS
from app.ui.help_dialogs import HelpTable


def _help_titles(window) -> list[str]:
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    return [a.text().replace("&", "") for a in help_menu.actions() if a.text()]


def test_keyboard_shortcuts_lists_the_menu_shortcuts(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    assert _help_titles(window) == ["Keyboard shortcuts", "Spoken commands", "About Earshot"]
    window.actions_["shortcuts"].trigger()
    dialog = window.findChild(HelpTable)
    assert dialog is not None and dialog.isVisible() and dialog.windowTitle() == "Keyboard shortcuts"
    rows = dict(dialog.rows())
    assert rows["Record"] == "Ctrl+R"
    assert rows["Settings"] == "Ctrl+,"
    assert rows["Copy all"] == "Ctrl+Shift+C"
    assert rows["Start or stop dictation from any app (global hotkey)"] == "ctrl+alt+space"
    assert rows["Move between controls"] == "Tab / Shift+Tab"
    dialog.close()


def test_spoken_commands_lists_every_command_the_post_processor_knows(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    window.actions_["spoken"].trigger()
    dialog = window.findChild(HelpTable)
    assert dialog is not None and dialog.windowTitle() == "Spoken commands"
    rows = dialog.rows()
    said = " ".join(say for say, _ in rows)
    for command in SPOKEN_COMMANDS:
        assert f"“{' '.join(command.words)}”" in said
    for phrase in EDIT_PHRASES:
        assert f"“{phrase.words}" in said
    assert ("“comma”", ",") in rows
    assert ("“new line” or “newline”", "a new line") in rows
    assert ("“scratch that” or “undo that”", "the last thing you said is taken back") in rows
    assert ("“delete last word”", "the last word is taken back") in rows
    assert ("“literal …”", "the words after it, as words (“literal comma”: comma)") in rows
    assert "Spoken commands are on" in dialog.note.text()


def test_about_links_the_log_and_the_licences(qtbot, parts) -> None:
    window = open_window(qtbot, parts, load=False)
    window.actions_["about"].trigger()
    box = window.findChild(QMessageBox, "aboutBox")
    assert box is not None and box.isVisible()
    assert "Whisper model weights are by OpenAI, MIT licensed" in box.text()
    start = box.text().index('href="', box.text().index("Third-party notices") - 200) + 6
    link = box.text()[start: box.text().index('"', start)]
    notices = Path(QUrl(link).toLocalFile())
    assert notices.name == "THIRD_PARTY_NOTICES.txt" and notices.is_file()
    text = notices.read_text(encoding="utf-8")
    for name in ("PySide6", "onnxruntime", "PortAudio", "FFmpeg", "Whisper model weights"):
        assert name in text
    label = next(lbl for lbl in box.findChildren(QLabel) if "Third-party notices" in lbl.text())
    assert label.openExternalLinks()
    box.close()
