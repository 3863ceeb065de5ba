// The player's table video: WebRTC receive-only, one HTTP round trip of signalling.
// Self-contained ES module; the real player client imports startVideo() from here.
//
//   import { startVideo } from "./video_client.js";
//   const video = await startVideo(document.querySelector("video"),
//                                  { offerUrl: "/video/offer", token });
//   video.stop();   // later
//
// The server answers 401 {error: "streaming.unauthorized"} without a valid token; the
// returned promise then rejects with an Error whose .code is that string.

function waitIceGathering(pc, timeoutMs) {
  // Non-trickle: send the offer with all host candidates in it.
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (pc.iceGatheringState === "complete") {
        pc.removeEventListener("icegatheringstatechange", done);
        clearTimeout(timer);
        resolve();
      }
    };
    const timer = setTimeout(() => {
      pc.removeEventListener("icegatheringstatechange", done);
      resolve(); // send what we have
    }, timeoutMs);
    pc.addEventListener("icegatheringstatechange", done);
  });
}

export async function startVideo(videoElement, { offerUrl, token, iceServers = [],
                                                 iceGatheringTimeoutMs = 2000 } = {}) {
  const pc = new RTCPeerConnection({ iceServers });
  pc.addTransceiver("video", { direction: "recvonly" });
  pc.addEventListener("track", (event) => {
    const stream = event.streams[0] || new MediaStream([event.track]);
    videoElement.muted = true;
    videoElement.playsInline = true;
    videoElement.autoplay = true;
    videoElement.srcObject = stream;
    const playing = videoElement.play();
    if (playing && playing.catch) playing.catch(() => {}); // autoplay policy: muted is allowed
  });

  try {
    await pc.setLocalDescription(await pc.createOffer());
    await waitIceGathering(pc, iceGatheringTimeoutMs);
    const headers = { "Content-Type": "application/json" };
    if (token) headers["Authorization"] = `Bearer ${token}`;
    const response = await fetch(offerUrl, {
      method: "POST",
      headers,
      body: JSON.stringify({ sdp: pc.localDescription.sdp, type: pc.localDescription.type }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(body.message || `offer refused (${response.status})`);
      error.code = body.error || "streaming.http_error";
      error.status = response.status;
      throw error;
    }
    await pc.setRemoteDescription(body);
  } catch (error) {
    pc.close();
    throw error;
  }

  return {
    pc,
    /** The inbound video stats (framesDecoded, frameWidth, ...) or null. */
    async stats() {
      const report = await pc.getStats();
      for (const s of report.values()) {
        if (s.type === "inbound-rtp" && s.kind === "video") return s;
      }
      return null;
    },
    stop() {
      pc.close();
      videoElement.srcObject = null;
    },
  };
}
