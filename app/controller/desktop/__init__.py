"""The controller's desktop integration: the global hotkey, typing and pasting into other apps, the control socket."""
