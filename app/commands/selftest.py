"""`earshot --self-test`: is this installation whole? Runs headless, prints one line per check.

Checks, in order (Qt last: a Qt platform that cannot start aborts the process, and the lines
already printed still say what was fine):
- model: the bundled tiny.en loads at the `auto` precision. A frozen build must find the
  pre-converted graphs it ships (no conversion, no network); a source install may convert into
  the user cache on first use.
- transcribe: the shipped clip `resources/selftest.wav` is transcribed and matches
  `resources/selftest.txt` (Whisper-normalised word error rate at most 20 %, so one or two words
  read differently on another CPU still pass while a broken model does not).
- audio: sounddevice imports and PortAudio answers. A missing PortAudio fails (live dictation
  cannot work without it); no microphone right now is only reported, since one can be plugged
  in later and the app says so when dictation starts.
- vad: the Silero voice-activity model loads (when live dictation is part of the build).
- typing: with a display, the keyboard backend that types into other apps opens (X11: the
  XTEST helper process starts); a warning where only a fallback opens, or none.
- qt: a QApplication starts (offscreen when there is no display), fonts exist and the app icon
  renders through QtSvg.

Exit status 0 only when no check failed.
"""

from __future__ import annotations

import logging
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from app import __version__
from app.commands.common import one_line
from app.resource_files import RESOURCES_DIR

CLIP = RESOURCES_DIR / "selftest.wav"
CLIP_TEXT = RESOURCES_DIR / "selftest.txt"
APP_ICON = RESOURCES_DIR / "icons" / "earshot.svg"
MAX_WER_PERCENT = 20.0


log = logging.getLogger(__name__)


class CheckOutcome(Enum):
    """A self-test check passed, passed with a remark, or failed (values are the printed tags)."""

    OK = " ok "
    WARN = "warn"
    FAIL = "FAIL"


@dataclass
class CheckResult:
    """One self-test check: its outcome and a one-line detail."""

    outcome: CheckOutcome
    detail: str


def _ok(detail: str) -> CheckResult:
    return CheckResult(CheckOutcome.OK, detail)


def _fail(detail: str) -> CheckResult:
    return CheckResult(CheckOutcome.FAIL, detail)


class ModelCheck:
    """Loads the bundled model, then transcribes the shipped clip with it."""

    def __init__(self) -> None:
        self.engine: Any = None

    def load(self) -> CheckResult:
        from app.engine.models.loader import load_engine
        from app.engine.models.precisions import resolve_precision
        from app.engine.models.store import ModelStore
        from app.engine.types import Precision

        store = ModelStore()
        entry = store.resolve(None)
        precision = resolve_precision(Precision.AUTO, "cpu")
        shipped = store.prebuilt(entry, precision)
        if shipped is None and getattr(sys, "frozen", False):
            return _fail(
                f"the pre-converted {entry.name} {precision.value} model is missing from this installation "
                f"(looked in {store.prebuilt_dir})"
            )
        self.engine = load_engine(None, precision, "cpu", store=store)
        where = f"shipped pre-converted graphs in {shipped}" if shipped else f"conversion cache {store.cache_dir}"
        return _ok(f"{entry.name} {precision.value} from {where}, loaded in {self.engine.load_s:.2f} s")

    def transcribe(self) -> CheckResult:
        from app.audio.file_decoder import BACKEND, decode_audio
        from app.engine.types import DecodeOptions
        from app.engine.wer import word_error_rate

        if self.engine is None:
            return _fail("no model to transcribe with")
        expected = CLIP_TEXT.read_text(encoding="utf-8").strip()
        audio = decode_audio(CLIP)
        start = time.perf_counter()
        segments, _info = self.engine.transcribe(audio, DecodeOptions(beam_size=1))
        text = " ".join(s.text.strip() for s in segments).strip()
        seconds = time.perf_counter() - start
        audio_s = len(audio) / 16000
        wer = word_error_rate([expected], [text])
        detail = (
            f'heard "{text}" in {seconds:.2f} s for {audio_s:.1f} s of audio '
            f'({seconds / audio_s:.2f}x real time); expected "{expected}", WER {wer:.0f} %; '
            f"file audio decoded by {BACKEND}"
        )
        return _ok(detail) if wer <= MAX_WER_PERCENT else _fail(detail)


def check_audio() -> CheckResult:
    try:
        import sounddevice as sd
    except OSError as exc:  # sounddevice raises OSError("PortAudio library not found")
        return _fail(f"{one_line(exc)}: live dictation cannot work (install PortAudio, e.g. libportaudio2)")
    devices = sd.query_devices()
    inputs = [d for d in devices if d["max_input_channels"] > 0]
    apis = ", ".join(api["name"] for api in sd.query_hostapis())
    portaudio = sd.get_portaudio_version()[1].split(",")[0]  # drop the long revision hash
    detail = f"sounddevice {sd.__version__}, {portaudio}, host APIs: {apis or 'none'}; {len(inputs)} input device(s)"
    if not inputs:
        detail += " (no microphone right now: dictation will say so when it starts)"
    return _ok(detail)


def check_vad() -> CheckResult | None:
    try:
        from app.audio.vad import FRAME, SileroVadModel
    except ModuleNotFoundError as exc:
        if exc.name == "app.audio.vad":
            return None  # live dictation is not part of this build
        raise
    import numpy as np

    probability = SileroVadModel()(np.zeros(FRAME, dtype=np.float32))
    if probability >= 0.5:
        return _fail(f"Silero VAD hears speech in silence (p = {probability:.2f})")
    return _ok(f"Silero VAD loaded, silence p = {probability:.3f}")


def check_typing() -> CheckResult | None:
    """Typing into other apps: the first keyboard backend for this desktop opens (on X11 that
    starts the XTEST helper process, spawned as a frozen build spawns it). None without a
    display. A backend that fails before another opens is a warning: typing works, but not as
    this desktop prefers."""
    from app.desktop.typing.select import try_keyboards

    opening = try_keyboards()
    failures = "; ".join(reason.splitlines()[0] for reason in opening.passed_over)
    if opening.keyboard is not None:
        opening.keyboard.close()
        if failures:
            return CheckResult(CheckOutcome.WARN, f"{opening.name} opens; before it {failures}")
        return _ok(f"{opening.name} opens")
    if failures:
        return CheckResult(CheckOutcome.WARN, f"cannot type into other windows: {failures}")
    return None


def check_qt() -> CheckResult:
    headless = sys.platform.startswith("linux") and not any(
        os.environ.get(v) for v in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")
    )
    if headless:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # with no platform at all Qt would abort
    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import QByteArray, qVersion
    from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer
    from PySide6.QtWidgets import QApplication

    _app = QApplication.instance() or QApplication([sys.argv[0]])
    detail = f"PySide6 {pyside_version}, Qt {qVersion()}, platform {QGuiApplication.platformName()}"
    if headless:
        detail += " (no display: checked offscreen)"
    if not APP_ICON.is_file():
        return _fail(f"{detail}; the app icon {APP_ICON} is missing")
    renderer = QSvgRenderer(QByteArray(APP_ICON.read_bytes()))
    image = QImage(32, 32, QImage.Format.Format_ARGB32)
    image.fill(QColor(0, 0, 0, 0))
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    if not renderer.isValid() or image.pixelColor(16, 16).alpha() == 0:
        return _fail(f"{detail}; the app icon does not render (QtSvg)")
    families = QFontDatabase.families()
    if not families:
        return CheckResult(CheckOutcome.WARN, f"{detail}; no fonts found: text will show as boxes (install fonts)")
    return _ok(f"{detail}, {len(families)} font families, icon renders")


def _run(name: str, check: Callable[[], CheckResult | None]) -> CheckResult | None:
    start = time.perf_counter()
    try:
        result = check()
    except Exception as exc:  # a self-test reports every failure as a line, whatever raised it
        log.exception("self-test check %s failed", name)
        result = _fail(f"{type(exc).__name__}: {one_line(exc)}")
    if result is not None:
        print(f"[{result.outcome.value}] {name:<10} {result.detail} ({time.perf_counter() - start:.2f} s)", flush=True)
    return result


def run_self_test() -> int:
    """Run every check; 0 when none failed, 1 otherwise."""
    start = time.perf_counter()
    frozen = ", frozen" if getattr(sys, "frozen", False) else ""
    print(
        f"earshot {__version__} self-test: {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}{frozen}",
        flush=True,
    )
    model = ModelCheck()
    checks: list[tuple[str, Callable[[], CheckResult | None]]] = [
        ("model", model.load),
        ("transcribe", model.transcribe),
        ("audio", check_audio),
        ("vad", check_vad),
        ("typing", check_typing),
        ("qt", check_qt),
    ]
    results = [r for name, check in checks if (r := _run(name, check)) is not None]
    failed = sum(r.outcome is CheckOutcome.FAIL for r in results)
    verdict = f"{failed} check(s) failed" if failed else "all is well"
    print(f"self-test: {verdict} ({time.perf_counter() - start:.2f} s)", flush=True)
    return 1 if failed else 0
