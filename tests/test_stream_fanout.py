"""Encode once, fan out: every viewer gets the same packet objects; a viewer that stops
reading stays within its queue cap, drops, and resumes on a keyframe; metrics add up."""

from __future__ import annotations

import asyncio

import pytest
from aiortc.mediastreams import MediaStreamError

from streaming.encoder import EncodedFrame, EncoderSettings, SharedH264Encoder
from streaming.fanout import Broadcaster
from streaming.metrics import StreamMetrics
from streaming.source import CapturedFrame, TestPattern
from streaming.track import ViewerTrack

FPS = 25


class SteppedSource:
    """Delivers pattern frames as fast as asked, with capture times 40 ms apart."""

    width, height, fps = 1280, 720, FPS

    def __init__(self) -> None:
        self.pattern = TestPattern(1280, 720, FPS)
        self.index = 0
        self.closed = False

    async def next_frame(self) -> CapturedFrame:
        i = self.index
        self.index += 1
        return CapturedFrame(self.pattern.frame(i / FPS), i / FPS, i)

    async def close(self) -> None:
        self.closed = True


class SteppedClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make_broadcaster(queue_frames: int = 4, clock: SteppedClock | None = None) -> Broadcaster:
    return Broadcaster(SteppedSource(), SharedH264Encoder(EncoderSettings()), queue_frames,
                       StreamMetrics(clock or SteppedClock()), encode_in_thread=False)


def frame(index: int, keyframe: bool) -> EncodedFrame:
    """A stand-in encoded frame for queue-policy tests (the packet is never decoded)."""
    import av

    return EncodedFrame(av.Packet(b"\x00\x00\x00\x01\x09\x10"), keyframe, index, index / FPS, 6)


async def test_two_viewers_get_the_same_packets_from_one_encode() -> None:
    b = make_broadcaster(queue_frames=100)
    a, c = b.add_viewer("alice"), b.add_viewer("carol")
    for _ in range(30):
        await b.step()
    got_a = [await asyncio.wait_for(a.recv(), 5) for _ in range(a.queue_len)]
    got_c = [await asyncio.wait_for(c.recv(), 5) for _ in range(c.queue_len)]
    assert len(got_a) == len(got_c) == 30
    assert all(x is y for x, y in zip(got_a, got_c, strict=True))  # the very same objects
    assert b.encoder.encode_calls == 30 == b.metrics.frames_encoded  # not 60
    assert got_a[0].is_keyframe


async def recv(track: ViewerTrack) -> EncodedFrame:
    """One frame from the track, as aiortc's sender would take it (timeout: a safety net)."""
    await asyncio.wait_for(track.recv(), 5)
    return track.last_sent


async def test_stalled_viewer_is_bounded_drops_and_resumes_on_a_keyframe() -> None:
    b = make_broadcaster(queue_frames=4)
    reader, stalled = b.add_viewer("reader"), b.add_viewer("stalled")
    read: list[EncodedFrame] = []
    await b.step()
    assert (await recv(stalled)).index == 0  # connected and reading... then it stops
    for _ in range(59):
        while reader.queue_len:
            read.append(await recv(reader))
        await b.step()
        assert stalled.queue_len <= 4  # never grows, whatever the stalled viewer does
    read.append(await recv(reader))
    assert [f.index for f in read] == list(range(60))  # the reader lost nothing
    assert reader.stats.frames_dropped == 0
    # the stalled viewer: 1-4 queued, 5-24 dropped (gap 1); the keyframe 25 replaces the
    # stale queue; 25-28 queued, 29-49 dropped (gap 2); 50 replaces; 54-59 dropped (gap 3)
    assert stalled.stats.gaps == 3
    assert stalled.stats.frames_dropped == 20 + 4 + 21 + 4 + 6
    sent = [await recv(stalled) for _ in range(stalled.queue_len)]
    assert sent[0].keyframe and [f.index for f in sent] == [50, 51, 52, 53]
    # caught up, but 54-59 are gone: it waits for the keyframe at 75, then gets every frame
    for _ in range(17):
        await b.step()
    assert stalled.queue_len == 2  # 75, 76
    assert [(await recv(stalled)).index for _ in range(2)] == [75, 76]
    assert stalled.last_sent.index == 76 and not stalled.last_sent.keyframe
    assert stalled.stats.gaps == 3 and stalled.stats.frames_dropped == 55 + 15


async def test_after_a_gap_the_next_packet_sent_is_a_keyframe() -> None:
    track = ViewerTrack("v1", "p", queue_cap=3)
    track.push(frame(0, True))
    assert (await recv(track)).index == 0
    for i in range(1, 6):  # 1, 2, 3 queued; 4 overflows -> gap; 5 dropped
        track.push(frame(i, False))
    sent = [(await recv(track)).index for _ in range(3)]
    assert sent == [1, 2, 3] and track.queue_len == 0  # contiguous, before the gap
    track.push(frame(6, False))  # the reader is back, but 6 follows a gap
    assert track.queue_len == 0
    track.push(frame(7, True))
    track.push(frame(8, False))
    assert (await recv(track)).index == 7 and track.last_sent.keyframe
    assert track.stats.frames_dropped == 3 and track.stats.gaps == 1


async def test_a_viewer_still_connecting_is_not_charged_with_drops() -> None:
    track = ViewerTrack("v1", "p", queue_cap=3)
    for i in range(27):  # ICE and DTLS take longer than 3 frames; nobody reads yet
        track.push(frame(i, i % 25 == 0))
    assert track.queue_len == 2  # 25, 26: the newest keyframe and what follows
    assert track.stats.frames_dropped == 0 and track.stats.gaps == 0
    assert track.stats.frames_skipped_joining == 25  # 0-3 flushed at the overflow, 4-24
    assert (await recv(track)).index == 25 and track.last_sent.keyframe


async def test_a_joining_viewer_starts_on_a_keyframe() -> None:
    b = make_broadcaster(queue_frames=8)
    b.add_viewer("first")
    for _ in range(10):
        await b.step()
    late = b.add_viewer("late")
    for _ in range(20):
        await b.step()
    assert late.queue_len == 5  # frames 25..29
    await recv(late)
    assert late.last_sent.keyframe and late.last_sent.index == 25
    assert late.stats.frames_skipped_joining == 15 and late.stats.frames_dropped == 0


async def test_no_viewers_no_encoding_and_a_keyframe_when_they_come_back() -> None:
    b = make_broadcaster()
    for _ in range(5):
        assert await b.step() == []
    assert b.encoder.encode_calls == 0 and b.metrics.frames_captured == 5
    v = b.add_viewer("p")
    for _ in range(3):
        await b.step()
    b.remove_viewer(v)
    assert b.viewers == {}
    await b.step()  # idle again
    v2 = b.add_viewer("p")
    encoded = await b.step()
    assert encoded[0].keyframe  # forced: it is only frame 4 of the encoder's GOP
    assert (await asyncio.wait_for(v2.recv(), 5)) is encoded[0].packet


async def test_stopped_viewer_wakes_its_reader_and_leaves() -> None:
    b = make_broadcaster()
    v = b.add_viewer("p")
    pending = asyncio.ensure_future(v.recv())
    await asyncio.sleep(0)  # let recv() start waiting (a yield, not a timed sleep)
    v.stop()
    with pytest.raises(MediaStreamError):
        await asyncio.wait_for(pending, 5)
    assert v.viewer_id not in b.viewers
    v.push(frame(0, True))
    assert v.queue_len == 0


async def test_metrics_count_rates_keyframes_and_drops_per_viewer() -> None:
    clock = SteppedClock()
    b = make_broadcaster(queue_frames=4, clock=clock)
    b.add_viewer("reader")
    stalled = b.add_viewer("stalled")
    reader = b.viewers["v1"]
    for i in range(60):
        clock.now = i / FPS
        await b.step()
        while reader.queue_len:
            await recv(reader)
        if i == 0:
            await recv(stalled)  # reads the first frame, then stalls
    m = b.snapshot()
    assert m["viewers"] == 2 and m["frames_encoded"] == 60 == m["encode_calls"]
    assert m["keyframes"] == 3 and m["keyframe_interval_frames"] == 25
    assert m["keyframe_interval_s"] == pytest.approx(1.0)
    assert m["fps"] == pytest.approx(25.0)
    assert 300_000 < m["bitrate_bps"] < 5_000_000
    assert m["per_viewer"]["v1"]["frames_sent"] == 60
    assert m["per_viewer"]["v1"]["frames_dropped"] == 0
    assert m["per_viewer"][stalled.viewer_id]["frames_dropped"] == stalled.stats.frames_dropped
    assert m["per_viewer"][stalled.viewer_id]["frames_dropped"] == 55
    assert m["frames_dropped"] == stalled.stats.frames_dropped


async def test_a_failing_source_stops_viewers_and_reports_its_code() -> None:
    from streaming.source import SourceError

    class Broken(SteppedSource):
        async def next_frame(self) -> CapturedFrame:
            if self.index == 3:
                raise SourceError("streaming.camera_failed", "unplugged")
            return await super().next_frame()

    b = Broadcaster(Broken(), SharedH264Encoder(EncoderSettings()), 4, encode_in_thread=False)
    v = b.add_viewer("p")
    b.start()
    with pytest.raises(MediaStreamError):
        while True:
            await asyncio.wait_for(v.recv(), 10)
    assert b.snapshot()["error"] == "streaming.camera_failed"
    assert not b.running
    await b.stop()
    assert b.source.closed
