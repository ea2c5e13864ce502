"""Words the settings and status bar show for engine values: precisions, providers, languages
and the accuracy/speed choice for files."""

from __future__ import annotations

# What each precision costs here, from bench/compare.py --models tiny.en (wall time, words wrong,
# peak memory; the figures are in docs/performance.md): the tips and labels quote them, so they
# change with them.
PRECISION_TIPS = {
    "auto": "int8 on a CPU, fp16 on a GPU: the fastest choice that keeps fp32's accuracy",
    "fp32": "Full precision: the reference words, but 1.5x int8's time and 410 MB (tiny.en)",
    "fp16": "Half precision: fast on GPUs; on a CPU it is emulated and slower than fp32",
    "int8": "8-bit weights: the same words as fp32 on 9 of 10 test clips (5.6 % wrong both), 0.67x its time",
    "int8-accurate": "8-bit weights, each word chosen on full-precision scores: 2 % slower than int8, 17 MB more",
    "int8-small": "int8 with a 4-bit vocabulary table: 10 MB smaller, more words wrong at beam 5 (3.2 % vs 2.8 %)",
    "int4": "4-bit weights: 8 % faster than int8 but more words wrong (7.3 % against 5.6 %)",
}
PRECISION_LABELS = {  # plain choices; the figures are in PRECISION_TIPS (tooltips)
    "auto": "Automatic (recommended)",
    "fp32": "Best quality",
    "fp16": "Best quality on a graphics card",
    "int8": "Balanced",
    "int8-accurate": "Balanced, closer to best quality",
    "int8-small": "Balanced, smaller",
    "int4": "Smallest",
}
PRECISION_NOTES = {  # one plain line under the menu
    "auto": "The fastest choice that keeps the best quality's words on this computer.",
    "fp32": "The most accurate words; the slowest and the largest.",
    "fp16": "Fast on a graphics card; slow on the processor.",
    "int8": "Nearly always the same words as Best quality, in two thirds of the time.",
    "int8-accurate": "Like Balanced, a little closer to Best quality and a little slower.",
    "int8-small": "Like Balanced, a little smaller, with a few more words wrong.",
    "int4": "The fastest and the smallest, with more words wrong.",
}
SLOW_DELAY_S = 5.0
"""A delay from which live text lags too far behind the voice to follow: said so beside it."""


def delay_text(ms: float) -> tuple[str, str]:
    """(status bar text, tooltip) for how long the last words took to appear after they were said."""
    seconds = ms / 1000
    shown = f"Delay {seconds:.1f} s" if seconds < 10 else f"Delay {seconds:.0f} s"
    if seconds >= SLOW_DELAY_S:
        shown += " (slow: try a smaller model or Smallest)"
    return shown, f"The last words appeared {ms:.0f} ms after you said them"


def precision_status(precision: str) -> tuple[str, str]:
    """(status bar text, tooltip) for the precision the loaded model runs at."""
    return (
        f"Quality: {PRECISION_LABELS.get(precision, precision)}",
        f"{precision}: {PRECISION_TIPS.get(precision, '')}".rstrip(": "),
    )


PROVIDER_LABELS = {"cpu": "CPU", "cuda": "CUDA (NVIDIA GPU)", "directml": "DirectML (GPU)", "coreml": "Core ML"}


def provider_label(name: str) -> str:
    """A short onnxruntime provider name ("cuda") as users know it."""
    return PROVIDER_LABELS.get(name, name)


# Whisper's languages as (code, English name), sorted by name.
LANGUAGES: tuple[tuple[str, str], ...] = (
    ("af", "Afrikaans"),
    ("sq", "Albanian"),
    ("am", "Amharic"),
    ("ar", "Arabic"),
    ("hy", "Armenian"),
    ("as", "Assamese"),
    ("az", "Azerbaijani"),
    ("ba", "Bashkir"),
    ("eu", "Basque"),
    ("be", "Belarusian"),
    ("bn", "Bengali"),
    ("bs", "Bosnian"),
    ("br", "Breton"),
    ("bg", "Bulgarian"),
    ("yue", "Cantonese"),
    ("ca", "Catalan"),
    ("zh", "Chinese"),
    ("hr", "Croatian"),
    ("cs", "Czech"),
    ("da", "Danish"),
    ("nl", "Dutch"),
    ("en", "English"),
    ("et", "Estonian"),
    ("fo", "Faroese"),
    ("fi", "Finnish"),
    ("fr", "French"),
    ("gl", "Galician"),
    ("ka", "Georgian"),
    ("de", "German"),
    ("el", "Greek"),
    ("gu", "Gujarati"),
    ("ht", "Haitian Creole"),
    ("ha", "Hausa"),
    ("haw", "Hawaiian"),
    ("he", "Hebrew"),
    ("hi", "Hindi"),
    ("hu", "Hungarian"),
    ("is", "Icelandic"),
    ("id", "Indonesian"),
    ("it", "Italian"),
    ("ja", "Japanese"),
    ("jw", "Javanese"),
    ("kn", "Kannada"),
    ("kk", "Kazakh"),
    ("km", "Khmer"),
    ("ko", "Korean"),
    ("lo", "Lao"),
    ("la", "Latin"),
    ("lv", "Latvian"),
    ("ln", "Lingala"),
    ("lt", "Lithuanian"),
    ("lb", "Luxembourgish"),
    ("mk", "Macedonian"),
    ("mg", "Malagasy"),
    ("ms", "Malay"),
    ("ml", "Malayalam"),
    ("mt", "Maltese"),
    ("mi", "Maori"),
    ("mr", "Marathi"),
    ("mn", "Mongolian"),
    ("my", "Myanmar"),
    ("ne", "Nepali"),
    ("no", "Norwegian"),
    ("nn", "Nynorsk"),
    ("oc", "Occitan"),
    ("ps", "Pashto"),
    ("fa", "Persian"),
    ("pl", "Polish"),
    ("pt", "Portuguese"),
    ("pa", "Punjabi"),
    ("ro", "Romanian"),
    ("ru", "Russian"),
    ("sa", "Sanskrit"),
    ("sr", "Serbian"),
    ("sn", "Shona"),
    ("sd", "Sindhi"),
    ("si", "Sinhala"),
    ("sk", "Slovak"),
    ("sl", "Slovenian"),
    ("so", "Somali"),
    ("es", "Spanish"),
    ("su", "Sundanese"),
    ("sw", "Swahili"),
    ("sv", "Swedish"),
    ("tl", "Tagalog"),
    ("tg", "Tajik"),
    ("ta", "Tamil"),
    ("tt", "Tatar"),
    ("te", "Telugu"),
    ("th", "Thai"),
    ("bo", "Tibetan"),
    ("tr", "Turkish"),
    ("tk", "Turkmen"),
    ("uk", "Ukrainian"),
    ("ur", "Urdu"),
    ("uz", "Uzbek"),
    ("vi", "Vietnamese"),
    ("cy", "Welsh"),
    ("yi", "Yiddish"),
    ("yo", "Yoruba"),
)
