"""Playing a transcript's audio from a clicked word: a file job's media file (decoded) or a
dictation's kept audio (Settings > Dictation > "Keep dictation audio for playback")."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from app.audio.file_decoder import decode_audio
from app.audio.playback import PlaybackError, PlaybackState, Player, PlayRequest
from app.engine.types import SAMPLE_RATE
from app.history.store import EntryKind, HistoryEntry, HistoryStore

log = logging.getLogger(__name__)

Decode = Callable[[Path], NDArray[np.float32]]


class PlaybackController:
    """Starts and stops playback; keeps the last decoded audio, as the user clicks word after
    word in the same transcript."""

    def __init__(self, history: HistoryStore, player: Player | None = None,
                 decode: Decode = decode_audio) -> None:
        self.history = history
        self.player = player or Player()
        self._decode = decode
        self._cached: tuple[Path, float, NDArray[np.float32]] | None = None  # path, mtime, 16 kHz samples

    def audio_for(self, entry: HistoryEntry) -> Path | None:
        """The audio an entry's times refer to, when it is still there: a file's media file, a
        dictation's kept recording."""
        if entry.kind is EntryKind.DICTATION:
            return self.history.audio.kept(entry.id)
        path = Path(entry.source) if entry.source else None
        return path if path is not None and path.is_file() else None

    def play(self, audio: Path, start_s: float) -> int:
        """Play `audio` from `start_s` seconds; returns the start sample (16 kHz). Raises
        PlaybackError with a one-line message when the file cannot be read or played."""
        try:
            samples = self._samples(audio)
        except Exception as exc:  # AudioDecodeError, OSError: the file went away or is damaged
            log.exception("Decoding %s for playback failed", audio)
            raise PlaybackError(f"{audio.name} could not be read: {exc}") from exc
        return self.player.play(PlayRequest(samples, SAMPLE_RATE, max(0.0, start_s)))

    def stop(self) -> None:
        self.player.stop()

    @property
    def playing(self) -> bool:
        return self.player.state is PlaybackState.PLAYING

    def _samples(self, audio: Path) -> NDArray[np.float32]:
        mtime = audio.stat().st_mtime
        if self._cached is None or self._cached[:2] != (audio, mtime):
            self._cached = (audio, mtime, self._decode(audio))
        return self._cached[2]
