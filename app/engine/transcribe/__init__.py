"""Whole files and live windows: `WhisperEngine`, the sequential and batched window algorithms, speech maps."""
