"""Where a dictation's kept audio lives while its History entry exists (Qt-free).

With Settings > Dictation > "Keep dictation audio for playback" on, a session's audio (16 kHz
mono 16-bit PCM WAV) is written to `path_for(entry_id)`, 0600 in a 0700 folder beside the
History database, so the review view can play a clicked word; deleting the entry deletes it.
"""

from __future__ import annotations

import logging
from pathlib import Path

from app.private_files import private_dir

log = logging.getLogger(__name__)

FOLDER_NAME = "dictation-audio"


class EntryAudio:
    """The kept audio files of History entries, one WAV per entry id, in `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path_for(self, entry_id: int) -> Path | None:
        """The file a session writes its audio to (the folder is made private first); None when
        the folder cannot be made (the dictation then goes on without keeping its audio)."""
        try:
            private_dir(self.folder)
        except OSError:
            log.exception("The dictation audio folder %s cannot be made; the audio is not kept", self.folder)
            return None
        return self.folder / f"entry-{entry_id}.wav"

    def kept(self, entry_id: int) -> Path | None:
        """The entry's kept audio, or None when there is none."""
        path = self.folder / f"entry-{entry_id}.wav"
        return path if path.is_file() else None

    def delete(self, entry_id: int) -> None:
        """Remove the entry's audio (nothing to do when none was kept)."""
        try:
            (self.folder / f"entry-{entry_id}.wav").unlink(missing_ok=True)
        except OSError:
            log.exception("The kept audio of History entry %d could not be deleted", entry_id)
