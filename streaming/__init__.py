"""Table video over WebRTC: capture once, encode once (H.264), send the same packets to every
player.

    source.py      FrameSource protocol; OpenCV camera (index or URL), PacedSource(renderer)
                   for the simulated table camera, TestPattern
    encoder.py     SharedH264Encoder: BGR -> yuv420p once, libx264 constrained baseline,
                   zerolatency, keyframe every second
    track.py       ViewerTrack: one viewer's bounded queue of the shared packets; resyncs on
                   keyframes after a gap
    fanout.py      Broadcaster: source -> encoder -> every ViewerTrack
    signalling.py  VideoService + create_streaming_app(service, authorize): POST offer ->
                   answer, GET metrics, static player page
    metrics.py     StreamMetrics: viewers, bitrate, frames, keyframe interval, drops per viewer
    receiver.py    VideoReceiver: a Python (aiortc) viewer, for tests, benchmarks and probes
    framestamp.py  a frame counter drawn into the picture, to match decoded frames to captures
    static/        player_video.html and video_client.js (startVideo(videoElement, opts))

Mounting (the web app supplies the token check):

    service = VideoService.from_config(config, table_id, sim_renderer=sim_camera)
    app.add_subapp("/video/", create_streaming_app(service, authorize))
"""
