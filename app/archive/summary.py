"""The line an archive run ends with: what was done, skipped and failed, and how fast."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RunSummary:
    """Counts of inputs; `audio_s`: seconds of audio transcribed in this run; `wall_s`: the run's
    wall time in seconds (listing, hashing and model loading included)."""

    done: int = 0
    skipped: int = 0
    failed: int = 0
    audio_s: float = 0.0
    wall_s: float = 0.0

    @property
    def audio_hours_per_hour(self) -> float:
        """Hours of audio transcribed per hour of wall time (0 when nothing was timed)."""
        return self.audio_s / self.wall_s if self.wall_s > 0 else 0.0

    def line(self) -> str:
        return (
            f"earshot: {self.done} done, {self.skipped} skipped (already done), {self.failed} failed; "
            f"{self.audio_s / 3600:.3f} h of audio in {self.wall_s:.1f} s: "
            f"{self.audio_hours_per_hour:.1f} audio hours per wall hour"
        )
