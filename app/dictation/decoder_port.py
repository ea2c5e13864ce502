"""What live dictation needs from the engine: one window decoded at a time.

A module of its own, free of NumPy and the engine at run time, so that the controller's ports
(and with them the window) import without loading the inference stack; that loads with the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from app.engine.types import CancelToken, DecodeOptions, PhraseFit, WindowResult


class TextTokenizer(Protocol):
    def encode(self, text: str) -> list[int]: ...


class WindowDecoder(Protocol):
    """What the policy needs from the engine (`app.engine` WhisperEngine satisfies it)."""

    @property
    def tokenizer(self) -> TextTokenizer: ...

    def decode_window(
        self,
        audio: NDArray[np.float32],
        options: DecodeOptions,
        prompt_tokens: Sequence[int] = (),
        cancel: CancelToken | None = None,
    ) -> WindowResult:
        """`audio`: mono float32 at 16 kHz, at most 30 s (the engine pads it to 30 s)."""
        ...


@runtime_checkable
class PhraseScorer(Protocol):
    """A decoder that also scores given phrases against audio (`app.engine` WhisperEngine does)."""

    def score_phrases(self, audio: NDArray[np.float32], phrases: Sequence[str]) -> list[PhraseFit]:
        """How well each phrase fits `audio` (mono float32 16 kHz, at most 30 s)."""
        ...

    def words_after(self, audio: NDArray[np.float32], prefix: str) -> str:
        """The text the decoder writes for `audio` once made to start with `prefix`."""
        ...
