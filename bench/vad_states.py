"""VAD states: speech seconds the live segmenter gives each clip of the dictation sessions.

    python bench/vad_states.py

Each session (bench/dictation_sets.py, 1.5 s pauses) is fed to `SpeechSegmenter` twice: with the
state reset at each utterance end only, and with the never-reset second state as well
(`VadOptions.keep_continuing_state`). Per clip: the seconds inside utterances of at least
`min_speech_s` (what the worker decodes). No Whisper decoding: seconds per run.
"""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import dictation_sets as sets  # noqa: E402  (bench/ is on sys.path)
from earshot_bench_io import read_wav  # noqa: E402

from app.audio.vad import SileroVadModel, SpeechSegmenter, VadEventKind, VadOptions  # noqa: E402


def heard(played: list[sets.Utterance], opts: VadOptions) -> list[float]:
    audio, spans = sets.join(played, 1.5)
    seg = SpeechSegmenter(SileroVadModel(), opts)
    evs: list[tuple[float, float]] = []
    start = 0.0
    for i in range(0, len(audio), 8000):
        for e in seg.feed(audio[i:i+8000]):
            if e.kind is VadEventKind.START:
                start = e.raw_index / 16000
            elif e.raw_index / 16000 - start >= opts.min_speech_s:
                evs.append((start, e.raw_index / 16000))
    out = []
    for lo, hi in spans:
        out.append(round(sum(max(0, min(b, hi) - max(a, lo)) for a, b in evs), 2))
    return out


def main() -> None:
    lead = sets.session_lead()
    cc = sets.condition_classes()
    ns = [sets.Utterance(n, "ns", read_wav(sets.SPEECH / f"{n}.wav"), "")
          for n in ("ns_noise_pv_empty", "ns_music_vibe_ace")]
    sessions = {"pauses": sets.english_clean(), "whispered": lead + cc["whispered"], "hoarse": lead + cc["hoarse"],
                "noise5dB": lead + cc["noise5dB"], "nonspeech": lead + ns, "nonspeech alone": ns}
    for name, played in sessions.items():
        a = heard(played, VadOptions(keep_continuing_state=False))
        b = heard(played, VadOptions(keep_continuing_state=True))
        print(name)
        for u, x, y in zip(played, a, b, strict=True):
            print(f"   {u.name:32s} {len(u.audio)/16000:6.2f}s  reset-only {x:6.2f}  dual {y:6.2f}")


if __name__ == "__main__":
    main()
