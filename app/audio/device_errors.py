"""PortAudio's errors ("Illegal combination of I/O devices [PaErrorCode -9993]") as sentences a
user can act on; the original text goes to the log."""

from __future__ import annotations

import logging
import re

_CODE = re.compile(r"\[PaErrorCode (-?\d+)\]")
PORTAUDIO_SENTENCES: dict[int, str] = {
    -10000: "the sound system is not ready yet; try again in a moment.",
    -9999: "the sound system refused it (is PulseAudio or PipeWire running?).",
    -9998: "it has no input channel Earshot can use; choose another microphone in Settings.",
    -9997: "it does not offer a sample rate Earshot can record at; choose another microphone in Settings.",
    -9996: "it is not there any more (unplugged?); choose another microphone in Settings.",
    -9994: "it does not offer a sample format Earshot can record; choose another microphone in Settings.",
    -9993: "this device cannot record (it may be an output, like speakers); choose another microphone in Settings.",
    -9992: "there was not enough memory to open it.",
    -9987: "the sound system did not answer in time; try again.",
    -9985: "it is busy or unavailable (another app may be using it, or it was unplugged).",
}

log = logging.getLogger(__name__)


def portaudio_code(error: BaseException) -> int | None:
    """The PaErrorCode in a sounddevice.PortAudioError (its args or its text), or None."""
    args: tuple[object, ...] = tuple(getattr(error, "args", ()))
    code = args[1] if len(args) >= 2 else None
    if isinstance(code, int):
        return code
    match = _CODE.search(str(error))
    return int(match.group(1)) if match else None


def portaudio_sentence(error: BaseException) -> str:
    """What went wrong, without PortAudio's codes; the raw text is logged."""
    log.info("PortAudio error: %s", error)
    code = portaudio_code(error)
    if code in PORTAUDIO_SENTENCES:
        return PORTAUDIO_SENTENCES[code]
    text = _CODE.sub("", str(error)).strip().rstrip(".")
    return f"the sound system said “{text}”." if text else "the sound system refused it."
