"""How each live decode searches: beam search with the committed text as prompt where the machine
has the headroom, greedy where the CPU forces it.

Files are decoded with a beam and conditioned on the text before (whisper_streaming decodes its
live windows that way too); live decoding re-decodes its window every `step_s`, so a beam costs
that much more on every step. The switch measures what decodes cost: while the last greedy decode
times the measured beam/greedy cost ratio fits in `compute_share` of a step, decodes use the
beam (and the prompt); once a beam decode does not fit, they go back to greedy. Without a real-time
clock (fast replay: the audio waits for the decoder) there is always headroom.

A prompt can be copied instead of heard (app/engine/transcribe/prompt_copy.py); a decode that
repeats a run of its prompt is decoded again without it (`PromptedDecoder.decode`, prompted_decode.py).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class DecodeMode(enum.Enum):
    GREEDY = "greedy"
    BEAM = "beam"


# beam 5 against greedy on tiny.en windows before a beam decode has been measured
_BEAM_COST_GUESS = 2.5
# a greedy session switches to the beam only with this much of the budget to spare, so a
# decode time near the budget does not flip the mode at every step
_SWITCH_MARGIN = 0.8
_SMOOTHING = 0.3  # weight of the newest decode in the moving averages


@dataclass
class QualitySwitch:
    """`beam_size` > 1 enables the beam; `realtime` False: no clock, always the beam.
    `budget_s`: the decode time one step may take (`compute_share` * `step_s`)."""

    beam_size: int
    budget_s: float
    realtime: bool = True
    mode: DecodeMode = DecodeMode.GREEDY
    _cost_s: dict[DecodeMode, float] = field(default_factory=dict)
    _ratio: float = _BEAM_COST_GUESS

    def choose(self) -> DecodeMode:
        """The mode of the next decode (and remembered as `mode`)."""
        if self.beam_size <= 1:
            self.mode = DecodeMode.GREEDY
        elif not self.realtime:
            self.mode = DecodeMode.BEAM
        elif self.mode is DecodeMode.BEAM:
            if self._cost_s.get(DecodeMode.BEAM, 0.0) > self.budget_s:
                self.mode = DecodeMode.GREEDY
        elif DecodeMode.GREEDY in self._cost_s:
            beam_s = self._cost_s[DecodeMode.GREEDY] * self._ratio
            if beam_s <= _SWITCH_MARGIN * self.budget_s:
                self.mode = DecodeMode.BEAM
        return self.mode

    def observe(self, mode: DecodeMode, decode_s: float) -> None:
        """A decode in `mode` took `decode_s` seconds."""
        old = self._cost_s.get(mode)
        self._cost_s[mode] = decode_s if old is None else (1 - _SMOOTHING) * old + _SMOOTHING * decode_s
        greedy, beam = self._cost_s.get(DecodeMode.GREEDY), self._cost_s.get(DecodeMode.BEAM)
        if greedy and beam:
            self._ratio = max(1.0, beam / greedy)
