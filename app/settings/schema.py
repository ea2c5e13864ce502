"""The user's settings as typed dataclasses (Qt-free, engine-free).

Values are plain strings/numbers so this package stays independent of the engine; the
controller turns them into engine types. `SETTINGS_VERSION` is bumped whenever the stored
shape changes; `app.settings.store.MIGRATIONS` upgrades older files.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SETTINGS_VERSION = 7  # 2: model.file_name, [downloads]; 3: window.theme; 4: window.watch_folders;
# 5: each watch folder a table with its transcript formats and output folder
# 6: dictation.keep_audio; 7: decode.vocabulary and decode.vocabulary_boost

DEFAULT_VOCABULARY_BOOST = 4.0
MAX_VOCABULARY_BOOST = 10.0
"""As the engine's `DEFAULT_VOCABULARY_BOOST` and `MAX_VOCABULARY_BOOST` (app.engine.types;
settings import no engine, tests/settings/test_vocabulary_settings.py checks they agree)."""
PRECISIONS: tuple[str, ...] = ("auto", "fp32", "fp16", "int8", "int8-accurate", "int8-small", "int4")
"""Precision choices offered to the user, in menu order."""
TASKS: tuple[str, ...] = ("transcribe", "translate")
THEMES: tuple[str, ...] = ("system", "light", "dark")
"""The window's colours: the desktop's, or always light / dark."""
DEFAULT_MODEL = "tiny.en"
WATCH_FORMATS: tuple[str, ...] = ("txt", "srt", "vtt", "json")
"""Transcript files a watch folder can write, in the order the settings list them (also the suffixes)."""


@dataclass
class ModelSettings:
    """Which Whisper model runs, and how.

    `name` is an installed model name (or a folder path) for live dictation; `file_name` the
    one for file jobs ("" = the same as `name`: fast live, accurate files when they differ);
    `provider` None means the best available onnxruntime execution provider;
    `unload_idle_min`: minutes without dictation after which the live model leaves memory
    (0 = never; Record loads it again).
    """

    name: str = DEFAULT_MODEL
    file_name: str = ""
    unload_idle_min: int = 10
    precision: str = "auto"
    provider: str | None = None


def split_vocabulary(text: str) -> tuple[str, ...]:
    """The entries of a typed list: commas or new lines separate them ("Okonkwo, New York");
    blanks and repeats are dropped, the order kept."""
    entries = (" ".join(part.split()) for part in text.replace("\n", ",").split(","))
    return tuple(dict.fromkeys(e for e in entries if e))


@dataclass
class DecodeSettings:
    """How text is decoded. `language` None = detect (multilingual models only).
    `initial_prompt`: text Whisper reads as if said before (spelling and style);
    `vocabulary`: the user's words and names, which the decoder favours by `vocabulary_boost`
    (logits added to their tokens, 0..10; 0 = off), for files and live."""

    language: str | None = None
    task: str = "transcribe"
    initial_prompt: str = ""
    file_beam_size: int = 5
    vocabulary: list[str] = field(default_factory=list)
    vocabulary_boost: float = DEFAULT_VOCABULARY_BOOST


@dataclass
class DictationSettings:
    """Live dictation. `vad_sensitivity` is 0..1 (higher hears quieter speech);
    `min_silence_s`: the pause (seconds) that ends an utterance, so its text is committed;
    `speech_pad_s`: audio (seconds) kept before detected speech, so soft first sounds survive;
    `close_sentences`: a period between utterances that end without one and when a session
    stops mid-sentence (app/dictation/sentence_shape.py);
    `keep_audio`: keep each dictation's audio (0600, private data folder) while its History entry
    exists, so the review view can play it; off by default, as the user's voice is private."""

    input_device: str | None = None
    vad_sensitivity: float = 0.5
    min_silence_s: float = 0.5
    speech_pad_s: float = 0.3
    close_sentences: bool = True
    keep_audio: bool = False


@dataclass
class WatchFolder:
    """A folder whose new or changed media files (recursively) are queued as file jobs once they
    stop growing. Each transcript goes to the History and to one file per format in `formats`
    (WATCH_FORMATS): in `output_dir`, mirroring the file's place inside `folder`, or beside the
    media file when `output_dir` is ""."""

    folder: str
    formats: list[str] = field(default_factory=lambda: ["txt"])
    output_dir: str = ""


@dataclass
class WindowSettings:
    """Desktop behaviour. Window geometry lives in QSettings, not here. `close_to_tray`: closing the
    window keeps Earshot running in the tray; None (the default) = on while a global hotkey is set
    (see `Settings.closes_to_tray`). `theme`: one of THEMES. `watch_folders`: see `WatchFolder`."""

    close_to_tray: bool | None = None
    export_dir: str = ""
    theme: str = "system"
    watch_folders: list[WatchFolder] = field(default_factory=list)


@dataclass
class DownloadSettings:
    """Model downloads. `mirror`: a hub endpoint such as https://hf-mirror.com ("" = $HF_ENDPOINT,
    else huggingface.co); `token`: a Hugging Face access token for gated repositories ("" = none
    beyond $HF_TOKEN); stored in the 0600 settings file."""

    mirror: str = ""
    token: str = ""


DEFAULT_HOTKEY = "ctrl+alt+space"
OUTPUT_MODES: tuple[str, ...] = ("window", "type", "paste")
HOTKEY_MODES: tuple[str, ...] = ("toggle", "hold")


@dataclass
class OutputSettings:
    """Dictating into other apps. `mode`: window (Earshot only), type or paste into the focused
    window. `hotkey` ("" = none), e.g. "ctrl+alt+space"; `hotkey_mode`: toggle or hold.
    Post-processing of committed text; `replacements`: one "spoken -> written" per line."""

    mode: str = "type"
    hotkey: str = DEFAULT_HOTKEY
    hotkey_mode: str = "toggle"
    show_indicator: bool = True
    spoken_punctuation: bool = True
    remove_fillers: bool = True
    capitalize_sentences: bool = True
    space_at_start: bool = False
    space_between_utterances: bool = True
    trailing_space: bool = False
    replacements: str = ""


@dataclass
class Settings:
    """Everything the user sets, one dataclass per `[section]` of settings.toml."""

    model: ModelSettings = field(default_factory=ModelSettings)
    decode: DecodeSettings = field(default_factory=DecodeSettings)
    dictation: DictationSettings = field(default_factory=DictationSettings)
    window: WindowSettings = field(default_factory=WindowSettings)
    output: OutputSettings = field(default_factory=OutputSettings)
    downloads: DownloadSettings = field(default_factory=DownloadSettings)

    def closes_to_tray(self) -> bool:
        """Whether closing the window keeps Earshot in the tray: as chosen, else while the global
        hotkey is on (a hotkey that starts dictation needs Earshot running)."""
        if self.window.close_to_tray is not None:
            return self.window.close_to_tray
        return bool(self.output.hotkey.strip())

    def engine_key(self) -> tuple[str, str, str | None]:
        """What the loaded engine depends on: a change here means reloading the model."""
        return (self.model.name, self.model.precision, self.model.provider)


class SettingsError(ValueError):
    """A settings file whose content does not fit the schema (message is user-facing)."""
