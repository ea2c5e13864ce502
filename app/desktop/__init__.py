"""Desktop integration without Qt: global hotkeys and typing or pasting into the focused application."""
