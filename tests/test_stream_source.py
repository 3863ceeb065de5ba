"""Frame sources: the test pattern, the paced renderer (injected clock), a real OpenCV capture
reading a video file, and the frame counter stamped into pictures."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from streaming.framestamp import STAMP_WIDTH, read_index, stamp_index
from streaming.source import (
    CapturedFrame,
    FrameSource,
    OpenCVCameraSource,
    PacedSource,
    SourceError,
    TestPattern,
    source_for_camera,
)


class FakeClock:
    """Time that moves only when the code under test sleeps (or the test advances it)."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.mark.parametrize("index", [0, 1, 25, 0x5A5A5A, (1 << 24) - 1])
def test_stamp_reads_back(index: int) -> None:
    image = np.full((64, 640, 3), 90, np.uint8)
    stamp_index(image, index)
    assert read_index(image) == index
    assert read_index(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) == index


def test_unstamped_picture_reads_none() -> None:
    assert read_index(np.full((64, STAMP_WIDTH), 128, np.uint8)) is None
    assert read_index(np.zeros((8, 8), np.uint8)) is None


def test_pattern_is_720p_bgr_moving_and_stamped() -> None:
    pattern = TestPattern(1280, 720, 25)
    a, b = pattern.frame(0.0), pattern.frame(1.0)
    assert a.shape == (720, 1280, 3) and a.dtype == np.uint8
    assert np.count_nonzero(a != b) > 10_000  # the sweep, the disc and the text moved
    assert read_index(a) == 0 and read_index(b) == 25


async def test_paced_source_waits_for_each_tick_and_stamps_capture_time() -> None:
    clock = FakeClock()
    source = PacedSource(TestPattern(1280, 720, 25), 1280, 720, 25, clock=clock,
                         sleep=clock.sleep, render_in_thread=False)
    assert isinstance(source, FrameSource)
    first = await source.next_frame()
    second = await source.next_frame()
    third = await source.next_frame()
    assert [f.index for f in (first, second, third)] == [0, 1, 2]
    assert clock.sleeps == pytest.approx([0.04, 0.04])
    assert third.capture_time == pytest.approx(100.08)
    assert read_index(third.image) == 2


async def test_paced_source_skips_late_ticks_instead_of_bunching() -> None:
    clock = FakeClock()
    source = PacedSource(TestPattern(1280, 720, 25), 1280, 720, 25, clock=clock,
                         sleep=clock.sleep, render_in_thread=False)
    await source.next_frame()
    clock.now += 0.5  # the process stalled for half a second
    late = await source.next_frame()
    after = await source.next_frame()
    assert late.index == 12  # the tick due now, not the 11 missed ones in a burst
    assert after.index == 13
    assert clock.sleeps == pytest.approx([0.02])


async def test_paced_source_resizes_a_renderer_of_another_size() -> None:
    class Small:
        def frame(self, t: float) -> np.ndarray:
            return np.zeros((360, 640, 3), np.uint8)

    clock = FakeClock()
    source = PacedSource(Small(), 1280, 720, 25, clock=clock, sleep=clock.sleep)
    assert (await source.next_frame()).image.shape == (720, 1280, 3)


@pytest.fixture
def video_file(tmp_path):
    """A real MJPEG file with 12 stamped 640x480 frames: OpenCV opens it like a URL."""
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25, (640, 480))
    assert writer.isOpened()
    for i in range(12):
        image = np.full((480, 640, 3), 60, np.uint8)
        stamp_index(image, 1000 + i)
        writer.write(image)
    writer.release()
    return path


async def test_opencv_source_reads_a_url_in_order_resized_to_720p(video_file) -> None:
    clock = FakeClock()
    source = OpenCVCameraSource(str(video_file), 1280, 720, 25, clock=clock)
    frames: list[CapturedFrame] = [await source.next_frame() for _ in range(12)]
    assert {f.image.shape for f in frames} == {(720, 1280, 3)}
    assert [f.index for f in frames] == list(range(12))
    # resized 2x: the stamp is twice as wide, so read it back from a half-size copy
    stamps = [read_index(cv2.resize(f.image, (640, 360), interpolation=cv2.INTER_AREA))
              for f in frames]
    assert stamps == [1000 + i for i in range(12)]
    with pytest.raises(SourceError) as failed:
        await source.next_frame()  # end of the file: the camera stopped delivering
    assert failed.value.code == "streaming.camera_failed"
    await source.close()


async def test_opencv_source_that_cannot_open_has_a_stable_code(tmp_path) -> None:
    source = OpenCVCameraSource(str(tmp_path / "no-such-camera.avi"), 1280, 720, 25)
    with pytest.raises(SourceError) as failed:
        await source.next_frame()
    assert failed.value.code == "streaming.camera_unavailable"


def test_source_for_camera_picks_by_config_value() -> None:
    class Renderer:
        def frame(self, t: float) -> np.ndarray:
            return np.zeros((720, 1280, 3), np.uint8)

    renderer = Renderer()
    sim = source_for_camera("sim", sim_renderer=renderer)
    assert isinstance(sim, PacedSource) and sim.renderer is renderer
    assert isinstance(source_for_camera("sim").renderer, TestPattern)
    assert isinstance(source_for_camera("testpattern", sim_renderer=renderer).renderer,
                      TestPattern)
    device = source_for_camera("0")
    assert isinstance(device, OpenCVCameraSource) and device.spec == 0
    url = source_for_camera("rtsp://camera.local/table1")
    assert isinstance(url, OpenCVCameraSource) and url.spec == "rtsp://camera.local/table1"
