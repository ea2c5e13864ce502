"""Sessions for the live-dictation benchmark: the shared recordings joined, per condition class.

Every set is a list of `Utterance`s (16 kHz float32 audio, reference text, condition) played with
a pause after each. Noisy speech mixes the real noise of ../shared/data/robustness/noise into the
clean English clips at a fixed SNR with a fixed seed; reverberant speech convolves them with a
synthetic room impulse response (exponentially decaying noise, RT60 0.5 s, seeded). Nothing mixed
is written to disk.

Held out: the clips in `HELD_OUT` are not looked at when the live policy is tuned (tuning uses
jfk, quilter, the `whisper_all` clip and sb_noise1); the benchmark reports them separately.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from earshot_bench_io import read_wav

RATE = 16000
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
SPEECH = SHARED / "speech"
SPEECH2 = SHARED / "speech2"
ROBUST = SHARED / "robustness"
SEED = 15  # fixed: every run mixes the same noise stretches and room responses
CLEAN_LEAD = ("en_jfk_inaugural", "en_librispeech_quilter", "en_ljspeech_LJ001-0001")
NOISY_CLIPS = ("en_librivox_sas_0870", "en_ljspeech_LJ001-0001", "en_timit_ldc93s1")
HELD_OUT = frozenset({"en_mfa_whisper_mfa", "en_mfa_cold_corpus3", "en_librivox_sas_0870",
                      "en_timit_ldc93s1", "sb_noise2", "sb_noise3", "sb_noise4", "sb_noise5"})


@dataclass(frozen=True)
class Utterance:
    """One played clip: `audio` float32 (n,) at 16 kHz; `condition` its class; `name` its clip."""

    name: str
    condition: str
    audio: np.ndarray
    reference: str


def _manifest(folder: Path) -> dict[str, dict[str, str]]:
    with (folder / "manifest.csv").open(encoding="utf-8") as handle:
        return {r["clip_id"]: r for r in csv.DictReader(handle)}


def clean(name: str) -> Utterance:
    row = _manifest(SPEECH)[name]
    return Utterance(name, "clean", read_wav(SPEECH / f"{name}.wav"), row["reference_text"])


def english_clean() -> list[Utterance]:
    return [clean(i) for i, r in _manifest(SPEECH).items() if r["language"] == "en"]


def english_speech2() -> list[Utterance]:
    """The English speech of ../shared/data/speech2 (13 clips, about 350 s: read, whispered, a
    speaker with a cold, 0 dB noise, reverberation, a 100 s room recording, 158 s of sonnets, three
    speakers), never looked at when the live policy was tuned."""
    return [Utterance(i, r["category"], read_wav(SPEECH2 / r["file"]), r["reference_text"])
            for i, r in _manifest(SPEECH2).items() if r["language"] == "en"]


def robust(name: str, condition: str) -> Utterance:
    row = _manifest(ROBUST)[name]
    return Utterance(name, condition, read_wav(ROBUST / f"{name}.wav"), row["reference_text"])


def mix_noise(speech: np.ndarray, noise: np.ndarray, snr_db: float, rng: np.random.Generator) -> np.ndarray:
    """`speech` + `noise` (a random stretch of it, looped if short) scaled to `snr_db`, where the
    speech power is measured over its active part (samples above 1 % of its peak envelope)."""
    reps = -(-speech.shape[0] // noise.shape[0]) + 1
    looped = np.tile(noise, reps)
    start = int(rng.integers(0, looped.shape[0] - speech.shape[0] + 1))
    part = looped[start : start + speech.shape[0]].astype(np.float64)
    active = speech[np.abs(speech) > 0.01 * np.abs(speech).max()].astype(np.float64)
    p_speech, p_noise = float(np.mean(active**2)), float(np.mean(part**2)) + 1e-12
    gain = np.sqrt(p_speech / (p_noise * 10 ** (snr_db / 10)))
    mixed = speech + gain * part
    peak = float(np.abs(mixed).max())
    scaled: np.ndarray = (mixed / max(1.0, peak / 0.99)).astype(np.float32)
    return scaled


def reverberate(speech: np.ndarray, rng: np.random.Generator, rt60_s: float = 0.5) -> np.ndarray:
    """Convolve with a synthetic room response: a direct path, then noise decaying 60 dB in `rt60_s`."""
    n = int(rt60_s * RATE)
    t = np.arange(n) / RATE
    rir = rng.standard_normal(n) * np.exp(-6.9 * t / rt60_s) * 0.35
    rir[0] = 1.0
    wet = np.convolve(speech.astype(np.float64), rir)[: speech.shape[0]]
    levelled: np.ndarray = (wet * (0.9 * np.abs(speech).max() / np.abs(wet).max())).astype(np.float32)
    return levelled


def noisy(snr_db: float) -> list[Utterance]:
    """The `NOISY_CLIPS` each with its own noise recording at `snr_db` (seeded)."""
    rng = np.random.default_rng(SEED + int(snr_db))
    out = []
    for i, name in enumerate(NOISY_CLIPS):
        noise_name = f"sb_noise{i % 5 + 1}"
        noise = read_wav(ROBUST / "noise" / f"{noise_name}.wav")
        base = clean(name)
        out.append(Utterance(f"{name}+{noise_name}", f"noise{snr_db:g}dB",
                             mix_noise(base.audio, noise, snr_db, rng), base.reference))
    return out


def reverberant() -> list[Utterance]:
    rng = np.random.default_rng(SEED)
    return [Utterance(c.name, "reverb", reverberate(c.audio, rng), c.reference)
            for c in (clean(n) for n in NOISY_CLIPS)]


def condition_classes() -> dict[str, list[Utterance]]:
    """Each robustness class: the utterances to play alone and after `session_lead()`."""
    classes = {
        "whispered": [robust("en_mfa_whisper_all", "whispered"), robust("en_mfa_whisper_mfa", "whispered")],
        "hoarse": [robust("en_mfa_cold_corpus3", "hoarse"), clean("en_mfa_acoustic_corpus")],
        "reverb": reverberant(),
    }
    for snr in (10, 5, 0):
        classes[f"noise{snr}dB"] = noisy(snr)
    return classes


def robustness_session() -> list[Utterance]:
    """Every condition class's utterances, one after another (whispered, hoarse, reverberant,
    noise at 10, 5 and 0 dB): the `robustness` set played as one session."""
    return [u for utterances in condition_classes().values() for u in utterances]


COUGH_S = (17.36, 18.12)  # cold_corpus3's "<vocnoise>" (17.56-17.92 s, forced alignment) +- 0.2 s


def non_speech() -> list[Utterance]:
    """Clips that must commit nothing (reference ""): the shared non-speech clips (digital
    silence, an empty room, music), the five real noise recordings, and the cough of the hoarse
    clip cut out by its forced alignment."""
    out = [Utterance(i, "non-speech", read_wav(SPEECH / f"{i}.wav"), "")
           for i, r in _manifest(SPEECH).items() if r["reference_status"] == "empty_expected"]
    out += [Utterance(f"sb_noise{i}", "noise", read_wav(ROBUST / "noise" / f"sb_noise{i}.wav"), "")
            for i in range(1, 6)]
    hoarse = read_wav(ROBUST / "en_mfa_cold_corpus3.wav")
    cough = hoarse[int(COUGH_S[0] * RATE) : int(COUGH_S[1] * RATE)]
    return [*out, Utterance("cold_corpus3 cough", "cough", cough, "")]


def session_lead() -> list[Utterance]:
    """The normal speech a session starts with before the hard clip (a few utterances)."""
    return [clean(n) for n in CLEAN_LEAD]


def join(utterances: list[Utterance], pause_s: float,
         lead_s: float = 1.0) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """Audio of the utterances with `pause_s` of silence after each (and `lead_s` before the
    first), and each utterance's (start, end) in seconds of that audio."""
    parts = [np.zeros(int(lead_s * RATE), dtype=np.float32)]
    spans, pos = [], lead_s
    pause = np.zeros(int(pause_s * RATE), dtype=np.float32)
    for u in utterances:
        parts += [u.audio, pause]
        spans.append((pos, pos + u.audio.shape[0] / RATE))
        pos += u.audio.shape[0] / RATE + pause_s
    return np.concatenate(parts), spans
