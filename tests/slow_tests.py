"""Which tests are slow: the list `tests/conftest.py` marks with `slow` (see `SLOW`)."""

from __future__ import annotations

# The developers' quick loop is `pytest -m "not slow"` (under 3 minutes on 2 cores); CI runs
# everything. The long tests are named here, in one place, each with why: a folder (ending in
# "/"), a module, or a test (all its parameters, or one `name[param]`). A test can also carry
# `@pytest.mark.slow` where it is written. What the quick loop keeps: the unit tests, the scripted
# policy and worker, code quality and the import graph, and a few real-model transcriptions (the
# CLI on jfk, word times on the espeak clip, greedy parity on one clip, `earshot dictate` replaying
# a clip, stop and cancel of a live session).
SLOW: dict[str, str] = {
    # Builds and copies of real wheels.
    "tests/packaging/": "builds the installers, compiles stubs, copies and slims real wheels",
    # Other models and precisions: each converts a model first.
    "tests/engine/test_multilingual.py": "joins, converts and runs the multilingual base",
    "tests/engine/test_cli_bad_input.py::test_unknown_language_on_a_multilingual_model_is_one_line_before_any_file":
        "converts the multilingual base",
    "tests/models/test_download.py": "downloads, imports and converts tiny.en and the multilingual base",
    "tests/models/test_models_page.py": "downloads and converts the multilingual base through the window",
    "tests/engine/test_precisions.py": "converts the model to every precision",
    "tests/engine/test_int8_small.py": "converts int8-small",
    "tests/engine/test_vocab_mixed.py": "converts candidate vocabulary tables",
    "tests/engine/test_vocab_asymmetric.py": "converts candidate vocabulary tables",
    "tests/engine/test_hf_reader.py": "writes tiny.en in the Hugging Face layout and converts it",
    "tests/engine/test_encoder_stem.py": "builds fp32 graphs with the int8 stem",
    "tests/engine/test_model_integrity.py": "CLI processes that convert the model in their own caches",
    "tests/engine/test_model_store.py": "conversions into fresh caches, two processes at once",
    "tests/ui/test_settings_dialog.py::test_precision_change_is_saved_and_reloads_the_model": "converts int8",
    "tests/engine/test_vocabulary.py::test_listed_words_not_said_change_nothing": "every espeak clip twice, beam 5",
    "tests/engine/test_vocabulary.py::test_the_command_line_takes_a_vocabulary": "two CLI processes load the model",
    # Long audio, many windows.
    "tests/engine/test_long_audio.py": "a recording of more than 5 minutes",
    "tests/engine/test_long_files.py": "long files: memory over the length, batched against sequential",
    "tests/engine/test_joined_clips.py": "the shared clips alone and joined into 3-minute files, beam 5",
    "tests/engine/test_native_heap.py": "many windows to see the heap stay flat",
    "tests/engine/test_batched.py": "long files decoded batched and one window at a time",
    "tests/engine/test_transcribe_cli.py::test_batch_size_transcribes_a_long_file_with_timed_segments": "a long file",
    "tests/engine/test_word_timestamps.py::test_long_audio_gets_words_in_every_window": "long audio, twice",
    "tests/engine/test_word_timestamps.py::test_text_and_tokens_with_words_equal_those_without":
        "every clip twice, at two beam sizes",
    "tests/engine/test_parity.py::test_tokens_identical_on_at_least_9_of_10_shared_english_clips":
        "the shared clips through both engines",
    "tests/models/test_machine_check.py": "times a whole 30 s window",
    # The same speech in every format, transcribed: the quick loop keeps the decoded samples'
    # checks (test_file_decoder.py, test_ffmpeg_decoder.py's samples test).
    "tests/audio/test_transcribe_formats.py": "every container and codec transcribed",
    "tests/audio/test_vad_batch.py::test_the_transcript_of_a_real_recording_is_the_same":
        "a 100 s recording transcribed twice, beam 5",
    "tests/audio/test_ffmpeg_decoder.py::test_every_format_gives_the_same_text": "every format transcribed",
    "tests/audio/test_ffmpeg_decoder.py::test_without_pyav_the_app_chooses_ffmpeg_and_transcribes": "a CLI process",
    # Greedy parity with faster-whisper: the quick loop keeps one espeak clip.
    **{f"tests/engine/test_parity.py::test_tokens_identical_on_espeak_clips[espeak_{name}.wav]": "one clip is kept"
       for name in ("callback", "laptop", "meeting", "morning", "team")},
    # Dictation sessions: real time, or every clip through the live path.
    "tests/dictation/test_streaming_replay.py": "every espeak and shared clip through the live path and offline",
    "tests/dictation/test_conditions.py": "sessions of several utterances through the real live path",
    "tests/dictation/test_voice_commands_replay.py": "spoken command clips through the real live path",
    "tests/dictation/test_sentence_shape.py": "two recordings through the live path",
    "tests/dictation/test_dictate_cli.py::test_committed_words_carry_times_near_the_spoken_word_edges":
        "shared clips replayed with word times",
    "tests/dictation/test_session_control.py::test_real_time_decoding_keeps_to_its_compute_share": "real time",
    "tests/dictation/test_session_control.py::test_session_recording_keeps_all_audio": "real time",
    "tests/dictation/test_audio_journal.py::test_a_cleanly_ended_session_leaves_no_journal_and_a_tiny_leftover_is_dropped":
        "a whole session",
    "tests/dictation/test_audio_journal.py::test_a_full_disk_stops_the_journal_never_the_dictation_and_keeps_what_was_written":
        "a whole session on a full tmpfs",
    # Processes: the CLI and the app started for real, Ray, sound servers, X servers, strace.
    "tests/archive/test_ray_cluster.py": "starts a local Ray cluster with a tiny.en engine per actor",
    "tests/archive/test_folder_runs.py": "CLI processes over folder trees and a long joined file",
    "tests/engine/test_cli_output.py": "a CLI process per case",
    "tests/archive/test_long_file_names.py": "a CLI process per case (two for the folder run)",
    "tests/engine/test_word_subtitles.py::test_cli_writes_word_timed_json_and_srt": "a CLI process",
    "tests/engine/test_times_within_audio.py::test_cli_srt_ends_with_the_audio": "a CLI process",
    "tests/audio/test_decode_fuzz.py::test_damaged_files_through_the_cli_give_text_or_one_error_line": "CLI processes",
    "tests/privacy/test_private_files.py": "CLI transcription, import and a recorded dictation in processes",
    "tests/dictation/test_capture_pulse.py": "a private PulseAudio server and real-time capture",
    "tests/ui/test_device_rescan.py": "a private PulseAudio server",
    "tests/ui/test_microphone_names.py": "a private PulseAudio server",
    "tests/dictation/test_dictate_signals.py": "a private PulseAudio, `earshot dictate` stopped by signals",
    # The same stop as SIGTERM's, which the quick loop keeps.
    **{f"tests/archive/test_stop_signals.py::test_a_signal_stops_a_run_in_one_process[{name}]":
       "CLI processes over a folder, stopped as SIGTERM stops them" for name in ("SIGINT", "SIGHUP")},
    **{f"tests/ui/test_app_signals.py::test_a_signal_mid_dictation_keeps_the_text_and_the_audio_not_transcribed_yet"
       f"[{name}]": "the app dictating in real time, stopped as SIGTERM stops it" for name in ("SIGINT", "SIGHUP")},
    "tests/ui/test_app_signals.py::test_a_second_start_of_the_app_leaves_the_watch_folder_to_the_first":
        "two starts of the app, a watch folder transcribed",
    "tests/ui/test_crash_recovery.py": "a real-time replay in an app process killed with -9, then a second start",
    "tests/ui/test_startup.py": "the app started in a fresh process",
    "tests/ui/test_screenshot.py": "Xvfb and a dictation replay",
    "tests/ui/test_startup_hotkey.py": "Xvfb and an app process",
    "tests/desktop/test_dictate_into_apps.py": "Xvfb, PulseAudio and the real app dictating into other apps",
    "tests/desktop/test_hotkey_x11.py": "Xvfb and xdotool",
    "tests/desktop/test_keyboard_x11.py": "Xvfb and target apps in their own processes",
    "tests/desktop/test_output_router.py": "Xvfb and a router in a child process",
    "tests/desktop/test_spoken_edits_x11.py": "Xvfb, xterm and a router in a child process",
    "tests/privacy/test_catalog_privacy.py": "strace over the window for seconds",
    "tests/privacy/test_no_telemetry.py": "waits past onnxruntime's telemetry start (about 10 s) under strace",
    # The window dictating or transcribing files with the real model.
    "tests/ui/test_dictation_text.py": "dictations in the window, real time",
    "tests/ui/test_spoken_edits.py::test_scratch_that_takes_the_sentence_back_in_the_window_the_history_and_the_app":
        "a spoken command clip dictated in the window",
    "tests/ui/test_spoken_edits.py::test_delete_last_word_in_the_window_and_the_history":
        "a spoken command clip dictated in the window",
    "tests/ui/test_dictation_window.py::test_record_shows_tentative_then_committed_text": "a dictation in real time",
    "tests/ui/test_dictation_errors.py": "dictations in the window, real time",
    "tests/ui/test_settings_dialog.py::test_pause_padding_and_punctuation_settings_reach_the_next_dictation":
        "two dictations",
    "tests/ui/test_quit_while_dictating.py": "a dictation in real time",
    "tests/ui/test_file_jobs.py": "several files transcribed in the window",
    "tests/ui/test_watch_folders_app.py": "files transcribed in the window, then a second start",
    "tests/ui/test_job_progress.py": "a long file in the window",
    "tests/ui/test_folder_drop.py": "a folder of files transcribed in the window",
    "tests/ui/test_review_view.py": "files transcribed in the window and played through a private PulseAudio",
    "tests/ui/test_dictation_word_playback.py": "a dictation with the real model, played through a private PulseAudio",
    "tests/ui/test_microphone_level.py::test_recording_closes_the_tested_microphone_first":
        "loads the model to record while a private PulseAudio's microphone is tested",
    "tests/ui/test_stopped_runs.py": "a long recording transcribed in the window, stopped and quit",
    "tests/ui/test_dictation_export.py": "a dictation replayed in the window",
    "tests/ui/test_recovered_dictation.py": "a recovered dictation transcribed in the window",
    "tests/ui/test_watch_folder_files.py": "watched files transcribed in the window",
    "tests/ui/test_watch_folder_shared.py": "two windows, each with the model, transcribe a shared folder",
    "tests/ui/test_model_import.py": "imports and converts a copy of tiny.en through the window",
    "tests/ui/test_first_focus.py": "Xvfb and the app in its own process",
    "tests/ui/test_scaled_window.py": "Xvfb and the app in its own process",
    "tests/engine/test_readable_cues_real.py": "long recordings transcribed by CLI processes",
    "tests/ui/test_file_drop.py": "files transcribed in the window",
    "tests/ui/test_readable_export.py": "a 40 s recording transcribed in the window",
    "tests/ui/test_closing.py::test_closing_while_a_file_is_transcribed_asks_first": "a file transcribed in the window",
}


def is_slow(nodeid: str) -> bool:
    """Whether the test with this node id (relative to the repository) is in `SLOW`."""
    path = nodeid.split("::", 1)[0]
    test = nodeid.split("[", 1)[0]  # the test, whatever its parameters
    return any(key in SLOW for key in (nodeid, test, path)) or any(
        path.startswith(p) for p in SLOW if p.endswith("/"))
