"""The capture ring: absolute indices, wrap-around, release, overflow, and one producer thread."""

from __future__ import annotations

import threading
import time
import tracemalloc

import numpy as np
import pytest

from app.audio.ring_buffer import RingBuffer, RingOverrunError


def test_wraps_around_and_keeps_absolute_indices() -> None:
    ring = RingBuffer(10, 16000)
    ring.write(np.arange(0, 6, dtype=np.float32))
    ring.release(4)
    ring.write(np.arange(6, 14, dtype=np.float32))  # wraps: capacity 10, kept [4, 14)
    assert ring.written == 14 and ring.released == 4
    np.testing.assert_array_equal(ring.read(4, 14), np.arange(4, 14, dtype=np.float32))
    np.testing.assert_array_equal(ring.read(9, 12), [9, 10, 11])


def test_unreleased_audio_is_never_overwritten() -> None:
    ring = RingBuffer(8, 16000)
    assert ring.write(np.ones(6, dtype=np.float32))
    assert not ring.write(np.full(3, 2.0, dtype=np.float32))  # would overwrite kept samples
    assert ring.overflow_blocks == 1 and ring.overflow_samples == 3
    np.testing.assert_array_equal(ring.read(0, 6), np.ones(6))  # old audio intact
    ring.release(6)
    assert ring.write(np.full(3, 2.0, dtype=np.float32))
    np.testing.assert_array_equal(ring.read(6, 9), [2, 2, 2])


def test_reading_outside_kept_audio_raises() -> None:
    ring = RingBuffer(8, 16000)
    ring.write(np.zeros(5, dtype=np.float32))
    ring.release(3)
    with pytest.raises(RingOverrunError):
        ring.read(2, 4)  # released
    with pytest.raises(RingOverrunError):
        ring.read(3, 6)  # not written yet


def test_write_does_not_allocate_audio_buffers() -> None:
    ring = RingBuffer(48000, 48000)
    block = np.ones(4800, dtype=np.float32)  # 19 KB
    ring.write(block)
    ring.release(ring.written)
    tracemalloc.start()
    for _ in range(50):
        ring.write(block)
        ring.release(ring.written)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < block.nbytes // 4  # a copy of the block would show up here


def test_producer_thread_and_consumer_see_every_sample_in_order() -> None:
    ring = RingBuffer(1000, 16000)
    total = 200_000
    data = np.arange(total, dtype=np.float32) % 4096

    def produce() -> None:
        pos = 0
        while pos < total:
            block = data[pos : pos + 160]
            if ring.write(block):
                pos += block.shape[0]
        ring.close()

    thread = threading.Thread(target=produce)
    thread.start()
    got, pos = [], 0
    while True:
        closed = ring.closed
        end = ring.written
        if end > pos:
            got.append(ring.read(pos, end))
            ring.release(end)
            pos = end
        elif closed:
            break
    thread.join()
    np.testing.assert_array_equal(np.concatenate(got), data)


def test_replay_writes_lead_silence_then_the_recording_without_copying_it() -> None:
    from app.audio.replay import ReplayOptions, ReplaySource

    audio = np.arange(1, 1001, dtype=np.float32)  # 1000 samples, none zero
    source = ReplaySource(audio, 1000, ReplayOptions(block_s=0.064, ring_s=5.0, lead_silence_s=0.1))
    assert np.shares_memory(source.audio, audio)  # a 30 minute session is not held twice
    assert source.duration_s == pytest.approx(1.1)
    source.start()
    deadline = time.monotonic() + 10
    while not source.ring.closed and time.monotonic() < deadline:  # the feeder closes it at the end
        time.sleep(0.01)
    got = source.ring.read(0, source.ring.written)
    np.testing.assert_array_equal(got, np.concatenate([np.zeros(100, dtype=np.float32), audio]))
