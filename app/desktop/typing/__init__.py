"""Putting committed text into whatever window has the focus (Qt-free).

`open_keyboard()` picks a `KeyboardBackend` for this desktop (XTEST or xdotool on X11, wtype or
ydotool on Wayland, SendInput on Windows, CGEvent on macOS); `OutputWorker` runs it off the GUI
thread; `paste_target()` says which key pastes into the focused window. The clipboard side of
paste mode needs Qt and lives in app.controller.
"""

from app.desktop.typing.base import KeyboardBackend, OutputError, OutputMode
from app.desktop.typing.select import candidate_backends, open_keyboard
from app.desktop.typing.targets import PasteTarget, focused_window_class, focused_window_id, paste_target
from app.desktop.typing.typed_record import TakeBack, TakeBackRefusal, TypedRecord
from app.desktop.typing.typing_worker import OutputWorker

__all__ = [
    "KeyboardBackend",
    "OutputError",
    "OutputMode",
    "OutputWorker",
    "PasteTarget",
    "TakeBack",
    "TakeBackRefusal",
    "TypedRecord",
    "candidate_backends",
    "focused_window_class",
    "focused_window_id",
    "open_keyboard",
    "paste_target",
]
