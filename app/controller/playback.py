"""Playing a transcript's audio from a clicked word: a file job's media file (decoded) or a
dictation's kept audio (Settings > Dictation > "Keep dictation audio for playback")."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.history.store import EntryKind, HistoryEntry, HistoryStore

if TYPE_CHECKING:  # NumPy, PortAudio and the decoders load on the first click, not with the window
    import numpy as np
    from numpy.typing import NDArray

    from app.audio.playback import Player

log = logging.getLogger(__name__)

Decode = Callable[[Path], "NDArray[np.float32]"]


class PlaybackController:
    """Starts and stops playback; keeps the last decoded audio, as the user clicks word after
    word in the same transcript."""

    def __init__(self, history: HistoryStore, player: Player | None = None, decode: Decode | None = None) -> None:
        self.history = history
        self._player = player
        self._decode = decode
        self._cached: tuple[Path, float, NDArray[np.float32]] | None = None  # path, mtime, 16 kHz samples

    def audio_for(self, entry: HistoryEntry) -> Path | None:
        """The audio an entry's times refer to, when it is still there: a file's media file, a
        dictation's kept recording."""
        if entry.kind is EntryKind.DICTATION:
            return self.history.audio.kept(entry.id)
        path = Path(entry.source) if entry.source else None
        return path if path is not None and path.is_file() else None

    @property
    def player(self) -> Player:
        """The output stream's owner, made on first use."""
        if self._player is None:
            from app.audio.playback import Player

            self._player = Player()
        return self._player

    def play(self, audio: Path, start_s: float) -> int:
        """Play `audio` from `start_s` seconds; returns the start sample (16 kHz). Raises
        PlaybackError with a one-line message when the file cannot be read or played."""
        from app.audio.playback import PlaybackError, PlayRequest
        from app.engine.types import SAMPLE_RATE

        try:
            samples = self._samples(audio)
        except Exception as exc:  # AudioDecodeError, OSError: the file went away or is damaged
            log.exception("Decoding %s for playback failed", audio)
            raise PlaybackError(f"{audio.name} could not be read: {exc}") from exc
        return self.player.play(PlayRequest(samples, SAMPLE_RATE, max(0.0, start_s)))

    def stop(self) -> None:
        if self._player is not None:
            self._player.stop()

    @property
    def playing(self) -> bool:
        from app.audio.playback import PlaybackState

        return self._player is not None and self._player.state is PlaybackState.PLAYING

    def _samples(self, audio: Path) -> NDArray[np.float32]:
        mtime = audio.stat().st_mtime
        if self._cached is None or self._cached[:2] != (audio, mtime):
            if self._decode is None:
                from app.audio.file_decoder import decode_audio

                self._decode = decode_audio
            self._cached = (audio, mtime, self._decode(audio))
        return self._cached[2]
