"""Word timestamps from the alignment heads' cross-attention, and times kept inside the audio."""
