"""The crash-recovery audio journal: bounded, private, only audio whose text is not stored yet,
never mistaken for a leftover while its session lives, and read back sample-exact."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from dictation_helpers import replay
from earshot_testing import DATA_DIR, another_users, home_env, read_wav, tmpfs, without_file_permission_override

from app.dictation.audio_journal import AudioJournal, JournalOptions, find_leftovers
from app.dictation.live_worker import DictationOptions

SR = 16000


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _tone(seconds: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.uniform(-0.5, 0.5, int(seconds * SR))).astype(np.float32)


def test_the_journal_is_bounded_private_and_keeps_only_untranscribed_audio(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        journal = AudioJournal(tmp_path / "recovery", JournalOptions(segment_s=2.0, keep_s=6.0))
        audio = _tone(20.0)
        for block in np.array_split(audio, 1000):  # 20 ms blocks, as the worker pulls them
            journal.write(block)
    finally:
        os.umask(old)
    segments = sorted(journal.folder.glob("seg-*.pcm"))
    assert 3 <= len(segments) <= 4, segments  # the last 6 s (+ the segment being written), not 20 s
    assert _mode(journal.folder) == 0o700 and _mode(journal.folder.parent) == 0o700
    assert all(_mode(p) == 0o600 for p in journal.folder.iterdir())
    assert find_leftovers(tmp_path / "recovery") == []  # the session is alive: not a leftover

    journal.mark_committed(17.5)  # text up to 17.5 s is stored
    assert len(list(journal.folder.glob("seg-*.pcm"))) == 2
    journal.close()  # the app dies here (no discard)

    [leftover] = find_leftovers(tmp_path / "recovery")
    assert leftover.start_s == 17.5 and abs(leftover.duration_s - 2.5) < 1e-9
    expected = (np.clip(audio[int(17.5 * SR):], -1, 1) * 32767).astype("<i2").astype(np.float32) / 32768
    np.testing.assert_array_equal(leftover.audio(), expected)
    wav = leftover.write_wav(tmp_path / "out" / "recovered.wav")
    assert _mode(wav) == 0o600 and wav.stat().st_size == 44 + 2 * expected.size
    leftover.discard()
    assert find_leftovers(tmp_path / "recovery") == []


def test_a_cleanly_ended_session_leaves_no_journal_and_a_tiny_leftover_is_dropped(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "recovery"
    journal = AudioJournal(root)
    audio = read_wav(DATA_DIR / "espeak_callback.wav")
    done = replay(engine, audio, DictationOptions(realtime=False), journal=journal)
    assert "minutes when you are ready" in done.committed.lower()
    assert sum(p.stat().st_size for p in journal.folder.glob("seg-*.pcm")) == 2 * done.worker.timeline.written
    journal.discard()
    assert not journal.folder.exists()

    crumbs = AudioJournal(root)
    crumbs.write(_tone(0.2))
    crumbs.close()
    assert find_leftovers(root) == [] and not crumbs.folder.exists()  # 0.2 s: nothing worth offering


def _killed_journal(root: Path) -> tuple[Path, np.ndarray]:
    """A journal as kill -9 leaves it: 3 s of audio in 1 s segments, text stored up to 1.5 s."""
    journal = AudioJournal(root, JournalOptions(segment_s=1.0, keep_s=10.0))
    audio = _tone(3.0)
    journal.write(audio)
    journal.mark_committed(1.5)
    journal.close()
    return journal.folder, audio


@pytest.mark.parametrize("damage", ["mark_garbage", "mark_empty", "mark_folder", "segment_cut_mid_sample",
                                    "segment_empty", "segment_folder", "session_is_a_file"])
def test_a_damaged_journal_is_still_offered_and_never_stops_the_start(tmp_path: Path, damage: str) -> None:
    """Whatever is damaged, looking for leftovers does not raise, and what can be read is offered
    (a damaged mark offers all the audio kept, from the first segment on: nothing is lost, some
    may be offered twice)."""
    root = tmp_path / "recovery"
    folder, audio = _killed_journal(root)
    last = sorted(folder.glob("seg-*.pcm"))[-1]
    if damage == "mark_garbage":
        (folder / "committed").write_bytes(b"\x96\xff not a number")
    elif damage == "mark_empty":
        (folder / "committed").write_bytes(b"")
    elif damage == "mark_folder":
        (folder / "committed").unlink()
        (folder / "committed").mkdir()
    elif damage == "segment_cut_mid_sample":
        last.write_bytes(last.read_bytes()[:-1])
    elif damage == "segment_empty":
        last.write_bytes(b"")
    elif damage == "segment_folder":
        last.unlink()
        last.mkdir()
    else:
        (root / "session-00000000-000000-stray").write_bytes(b"a file, not a journal")
    leftovers = find_leftovers(root)
    assert [item.folder for item in leftovers] == [folder]
    offered = leftovers[0].audio()
    whole = (np.clip(audio, -1, 1) * 32767).astype("<i2").astype(np.float32) / 32768
    if damage.startswith("mark"):
        np.testing.assert_array_equal(offered, whole[SR:])  # all the segments kept: nothing lost
    elif damage == "segment_cut_mid_sample":
        np.testing.assert_array_equal(offered, whole[int(1.5 * SR):-1])
    elif damage == "session_is_a_file":
        np.testing.assert_array_equal(offered, whole[int(1.5 * SR):])
    else:
        np.testing.assert_array_equal(offered, whole[int(1.5 * SR):2 * SR])  # the segments still there
    wav = leftovers[0].write_wav(tmp_path / "recovered.wav")
    assert wav.stat().st_size == 44 + 2 * offered.size


_LEFTOVERS = """
from app.dictation.audio_journal import find_leftovers, recovery_dir
print([round(item.duration_s, 3) for item in find_leftovers(recovery_dir())])
"""


def _leftovers(home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(without_file_permission_override([sys.executable, "-c", _LEFTOVERS]), cwd=home,
                          env=home_env(home), capture_output=True, text=True, timeout=120)


def test_a_journal_segment_this_user_may_not_read_is_kept_and_offered_once_it_can_be(tmp_path: Path) -> None:
    """A real unreadable segment: another user's 0600 file (as `sudo earshot` leaves it), looked for
    by a process that root's file permission override is taken from. Offering the rest would delete
    it with the journal once the rest is transcribed: the journal is passed over, untouched, until
    this user may read all of it."""
    folder, _audio = _killed_journal(tmp_path / "data" / "earshot" / "recovery")
    segment = another_users(sorted(folder.glob("seg-*.pcm"))[-1])
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    first = _leftovers(tmp_path)
    assert first.returncode == 0 and first.stdout.strip() == "[]", first.stderr
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before
    os.chown(segment, os.getuid(), os.getgid())
    second = _leftovers(tmp_path)
    assert second.returncode == 0 and second.stdout.strip() == "[1.5]", second.stderr


def test_a_full_disk_stops_the_journal_never_the_dictation_and_keeps_what_was_written(tmp_path: Path,
                                                                                      engine) -> None:  # type: ignore[no-untyped-def]
    """A real full file system (a 64 KiB tmpfs: about 2 s of 16 kHz audio) under the journal of a
    dictation of 3.6 s through the real worker: the text is all there, and what the disk took is
    the audio's start, sample-exact, offered after a kill as any journal is."""
    audio = read_wav(DATA_DIR / "espeak_callback.wav")
    with tmpfs(tmp_path / "disk", "size=64k") as disk:
        journal = AudioJournal(disk / "recovery")
        done = replay(engine, audio, DictationOptions(realtime=False), journal=journal)
        assert "minutes when you are ready" in done.committed.lower()  # the dictation went on
        with pytest.raises(OSError) as full:
            (disk / "more").write_bytes(b"\0" * 8192)
        assert full.value.errno == 28  # the disk really was full
        (disk / "more").unlink(missing_ok=True)
        journal.close()  # as a kill leaves it: the text is stored, but the mark may not be
        kept = b"".join(path.read_bytes() for path in sorted(journal.folder.glob("seg-*.pcm")))
        assert 0 < len(kept) < 2 * audio.size
        pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
        assert kept == pcm[: len(kept)]
