"""The Earshot main window: record bar, live transcript, file jobs, history and status."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QGuiApplication, QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.controller.app_controller import AppController
from app.controller.ports import EngineDescription
from app.controller.states import ModelState, RecordState
from app.ui.closing import (
    JobsQuitQuestion,
    QuitQuestion,
    ask_quit_while_dictating,
    ask_quit_while_transcribing,
    say_where_earshot_went,
)
from app.ui.empty_states import FirstSteps
from app.ui.file_dialogs import ask_files_to_transcribe, ask_folder_to_transcribe, save_transcript
from app.ui.history_panel import HistoryPanel
from app.ui.icons import icon
from app.ui.jobs_panel import JobsPanel
from app.ui.keyboard import set_tab_order
from app.ui.live_edits import LiveEditSaver
from app.ui.menus import WindowCommands, build_menus, retint_icons
from app.ui.microphone_check import MicrophoneCheck
from app.ui.microphone_list import MicrophoneList
from app.ui.record_bar import RecordBar
from app.ui.recovery_bar import RecoveryBar
from app.ui.spoken_edits import show_spoken_edits
from app.ui.status_line import StatusLine
from app.ui.theme import apply_theme, follow_theme_setting
from app.ui.transcript_view import TranscriptView
from app.ui.tray import Tray
from app.ui.widgets import NoticeBar
from app.ui.window_fit import restore_geometry, save_geometry


class MainWindow(QMainWindow):
    """The main window: record bar, live transcript, history and file jobs; it renders what the
    controller says (`record_display`, dictation and model signals) and sends it the user's commands."""

    def __init__(self, controller: AppController, tray: Tray | None = None) -> None:
        super().__init__()
        self.controller = controller
        self.tray = tray
        self.confirm_quit: QuitQuestion = ask_quit_while_dictating
        self.confirm_quit_jobs: JobsQuitQuestion = ask_quit_while_transcribing
        self.quitting = False
        self.setWindowTitle("Earshot")
        self.setWindowIcon(icon("earshot"))
        self.setAcceptDrops(True)
        self.setMinimumSize(640, 420)
        self._build()
        commands = WindowCommands(
            self.open_files,
            self.open_folder,
            self.save_transcript_as,
            self.open_settings,
            self.quit,
            self.copy_all,
            self.clear_transcript,
            self.history_dock,
            self.transcript.undo_edit,
            self.transcript.redo_edit,
        )
        self.actions_ = build_menus(self, commands, controller)
        # Record, the microphone, the transcript and file jobs, the History, then the toolbar;
        # the window opens with Record focused.
        bar = self.record_bar
        set_tab_order(
            self,
            [bar.button, bar.devices, bar.test_button, self.notice.dismiss],
            [self.recovery, self.splitter, self.history_panel],
        )
        follow_theme_setting(controller)
        self.first_steps = FirstSteps(self.transcript, self.history_panel, controller)
        self._connect()
        restore_geometry(self)
        self.microphones = MicrophoneList(self, self.record_bar, controller)  # listed after the first paint
        if controller.startup_notice:
            self.notice.show_message(controller.startup_notice)
        self.recovery.offer_next()  # a dictation killed before all its audio was transcribed

    def _build(self) -> None:
        self.record_bar = RecordBar(self)
        self.record_bar.setObjectName("recordBar")
        self.notice = NoticeBar(self)
        self.recovery = RecoveryBar(self.controller, self.notice, self)
        self.transcript = TranscriptView(self)
        self.transcript.setObjectName("transcript")
        self.transcript.setAcceptDrops(False)  # drops go to the window: they are files
        self.jobs_panel = JobsPanel(self.controller, self)
        self.splitter = splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.transcript)
        splitter.addWidget(self.jobs_panel)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.record_bar)
        layout.addWidget(self.notice)
        layout.addWidget(self.recovery)
        layout.addWidget(splitter, 1)
        self.setCentralWidget(central)
        self.history_panel = HistoryPanel(self.controller.history, self)
        self.history_panel.playback = self.controller.playback
        self.history_dock = QDockWidget("History", self)
        self.history_dock.setObjectName("historyDock")
        self.history_dock.setWidget(self.history_panel)
        self.history_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable | QDockWidget.DockWidgetFeature.DockWidgetMovable
        )
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.history_dock)
        self.resizeDocks([self.history_dock], [300], Qt.Orientation.Horizontal)
        self.status_line = StatusLine(self, self.controller)

    def _connect(self) -> None:
        c = self.controller
        self.record_bar.record_clicked.connect(c.dictation.toggle)
        self.record_bar.device_chosen.connect(c.set_input_device)
        c.dictation.state_changed.connect(self._on_record_state)
        c.record_display.changed.connect(lambda shown: self.record_bar.set_state(shown.state, shown.detail))
        c.dictation.committed.connect(self.transcript.append_committed)
        show_spoken_edits(self.transcript, c.dictation, self.notice.show_message)
        self.live_edits = LiveEditSaver(self.transcript, c.dictation, c.history, self.history_panel.refresh, self)
        c.dictation.tentative.connect(self.transcript.set_tentative)
        self.transcript.undo_changed.connect(self._update_undo)
        self._update_undo()
        c.dictation.level.connect(self.record_bar.meter.set_level)
        self.microphone_check = MicrophoneCheck(self, self.record_bar, c.microphone_test)
        c.dictation.commit_latency.connect(self.status_line.show_latency)
        c.models.state_changed.connect(self._on_model_state)
        c.models.loaded.connect(self._on_model_loaded)
        c.models.failed.connect(self._on_model_failed)
        c.models.kept_previous.connect(self._on_model_kept)
        c.history_changed.connect(self.history_panel.refresh)
        c.notice.connect(self.notice.show_message)
        c.settings_changed.connect(lambda _s: self.microphones.refresh())
        self.jobs_panel.add_button.clicked.connect(self.open_files)
        self.jobs_panel.became_visible.connect(self._make_room_for_jobs)
        if self.tray is not None:
            self.tray.toggle_record.connect(c.dictation.toggle)
            self.tray.show_window.connect(self.bring_to_front)
            self.tray.quit_requested.connect(self.quit)
            c.dictation.state_changed.connect(self.tray.set_state)

    # --- reactions -------------------------------------------------------------------

    def _on_record_state(self, state: RecordState, reason: str) -> None:
        self.actions_["record"].setText("&Stop dictation" if state.is_active else "&Record")
        if state == RecordState.ERROR:  # a device was lost or missing: list what is there now
            self.microphones.refresh(rescan=True)

    def _on_model_state(self, state: ModelState) -> None:
        self.record_bar.set_model_loading(state == ModelState.LOADING)
        self.actions_["record"].setEnabled(state != ModelState.LOADING)
        if state == ModelState.LOADING:
            self.status_line.show_loading()

    def _on_model_loaded(self, description: EngineDescription) -> None:
        self.status_line.show_loaded(description)
        if description.note:
            self.notice.show_message(description.note)

    def _on_model_failed(self, message: str) -> None:
        self.status_line.show_failed()

    def _on_model_kept(self, message: str) -> None:
        self.notice.show_message(message)
        description = self.controller.models.description
        if description is not None:
            self._on_model_loaded(description)

    def _make_room_for_jobs(self) -> None:
        total = sum(self.splitter.sizes())
        self.splitter.setSizes([round(total * 0.58), round(total * 0.42)])

    def showEvent(self, event: QShowEvent) -> None:
        """The first show lists the input devices once the window has painted (`MicrophoneList`)."""
        super().showEvent(event)
        self.microphones.shown()

    def hideEvent(self, event: QHideEvent) -> None:
        """Hidden (in the tray), nobody looks at the microphone list: stop following it."""
        super().hideEvent(event)
        self.microphones.watcher.stop()

    # --- commands (menus, buttons, tray) ---------------------------------------------

    def open_files(self) -> None:
        self.queue_files(ask_files_to_transcribe(self))

    def open_folder(self) -> None:
        folder = ask_folder_to_transcribe(self)
        if folder is not None:
            self.queue_files([folder])

    def queue_files(self, paths: list[Path]) -> None:
        """Files as given, folders searched for media files recursively (`controller.add_files`)."""
        refused = [p.name or str(p) for p in paths if not self.controller.add_files([p])]
        if refused:  # a folder without audio or video files in it: said, not dropped silently
            self.statusBar().showMessage(f"No audio or video files in {', '.join(refused)}", 8000)

    def copy_all(self) -> None:
        QGuiApplication.clipboard().setText(self.transcript.committed_text)
        self.statusBar().showMessage("Transcript copied", 2500)

    def clear_transcript(self) -> None:
        had_text = bool(self.transcript.committed_text.strip())
        self.transcript.clear_all()
        if had_text:
            self.statusBar().showMessage("Transcript cleared (it stays in the History). Ctrl+Z brings it back.", 8000)

    def _update_undo(self) -> None:
        self.actions_["undo"].setEnabled(self.transcript.edits.can_undo)
        self.actions_["redo"].setEnabled(self.transcript.edits.can_redo)

    def save_transcript_as(self) -> None:
        """A file dialog in the documents folder, named after the last session's History entry."""
        save_transcript(self, self.transcript, self.controller.history)

    def open_settings(self) -> None:
        from app.ui.settings_dialog import SettingsDialog

        SettingsDialog(self.controller, self).exec()

    def bring_to_front(self) -> None:
        self.showNormal()
        self.raise_()
        self.activateWindow()

    def quit(self) -> None:
        self.quitting = True
        self.close()

    # --- Qt events -------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.queue_files(paths)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "actions_"):
            app = QApplication.instance()
            if isinstance(app, QApplication):
                apply_theme(app)
            retint_icons(self, self.actions_)

    def closeEvent(self, event: QCloseEvent) -> None:
        tray_ok = self.tray is not None and self.tray.available
        if not self.quitting and tray_ok and self.controller.settings.closes_to_tray():
            event.ignore()
            self.hide()
            say_where_earshot_went(self.tray)
            return
        if not self._may_quit():
            event.ignore()
            self.quitting = False
            return
        save_geometry(self)
        self.microphones.watcher.stop()
        self.controller.shutdown()
        event.accept()
        app = QGuiApplication.instance()
        if app is not None:
            app.quit()

    def _may_quit(self) -> bool:
        """Ask before stopping work: a running dictation, then files still being transcribed."""
        if self.controller.dictation.active and not self.confirm_quit(self):
            return False
        running = sum(not job.state.finished for job in self.controller.jobs.jobs.values())
        return not running or self.confirm_quit_jobs(self, running)
