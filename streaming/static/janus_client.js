// The player's table video from Janus (the studio's SFU), through the studio's signalling:
// the studio asks Janus for an offer and hands back only its SDP (never a Janus session);
// the page answers, and Janus sends the table's one encoding to it.
//
//   import { startJanusVideo } from "/video-static/janus_client.js";
//   const video = await startJanusVideo(videoElement, { tableId, token });
//   video.stop();

function gathered(pc, timeoutMs) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") { clearTimeout(timer); resolve(); }
    });
  });
}

async function post(url, token, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`; // else the launch's cookie
  const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok || !answer.ok) {
    const error = new Error((answer.error && answer.error.message) || `HTTP ${r.status}`);
    error.code = (answer.error && answer.error.code) || "streaming.http_error";
    throw error;
  }
  return answer;
}

export async function startJanusVideo(videoElement, { tableId, token,
                                                       gatherTimeoutMs = 2000 } = {}) {
  const base = `/api/video/${encodeURIComponent(tableId)}`;
  const watch = await post(`${base}/watch`, token, {});
  const pc = new RTCPeerConnection({ iceServers: [] }); // no public STUN/TURN
  pc.addEventListener("track", (event) => {
    videoElement.muted = true;
    videoElement.playsInline = true;
    videoElement.srcObject = event.streams[0] || new MediaStream([event.track]);
    const playing = videoElement.play();
    if (playing && playing.catch) playing.catch(() => {});
  });
  try {
    await pc.setRemoteDescription({ type: "offer", sdp: watch.sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc, gatherTimeoutMs);
    await post(`${base}/answer`, token, { id: watch.id, sdp: pc.localDescription.sdp });
  } catch (error) {
    pc.close();
    throw error;
  }
  return {
    pc,
    async stats() {
      for (const s of (await pc.getStats()).values()) {
        if (s.type === "inbound-rtp" && s.kind === "video") return s;
      }
      return null;
    },
    stop() {
      pc.close();
      videoElement.srcObject = null;
      post(`${base}/leave`, token, { id: watch.id }).catch(() => {});
    },
  };
}
