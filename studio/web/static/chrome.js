// The page chrome every game's player page shares: the token, HTTP commands with idempotency
// keys, the WebSocket with the regulation's reconnection, cards drawn in the table's own art.
// A game's page (studio/games/<game>/static/) imports these and draws only its table.

import { cardLabel } from "/static/i18n.js";

// The token leaves the address bar at once (it would otherwise be bookmarked, shared or seen on
// a screen) and lives in this tab's sessionStorage, so a reload still signs in.
export function takeToken(params) {
  const token = params.get("token") || sessionStorage.getItem("playerToken") || "";
  if (params.has("token")) {
    sessionStorage.setItem("playerToken", token);
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  }
  return token;
}

export const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c);
  return e;
};

export const newKey = () => (crypto.randomUUID ? crypto.randomUUID().replaceAll("-", "")
  : Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0")).join(""));

// One JSON request with the player's token (and session); an error answer becomes
// {ok: false, error: {code, message}} whatever the server or the network said.
export async function request(token, session, path, body) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {}; // else the cookie
  if (session) headers["X-Session"] = session;
  const init = { method: body === undefined ? "GET" : "POST", headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(path, init);
    try { return await response.json(); } catch {
      return { ok: false, error: { code: "request.http_error",
                                   message: `HTTP ${response.status}` } };
    }
  } catch {
    return { ok: false, error: { code: "request.network", message: "network unreachable" } };
  }
}

// A card as the table shows it: the scan in the table's art, its name for screen readers.
export function cardImage(code, art, lang) {
  const c = cardLabel(code, lang);
  return el("img", { class: `card-img${c.matta ? " matta" : ""}`, src: `/cards/${art}/${code}.jpg`,
                     alt: `${c.rank} ${c.suitName}`, title: `${c.rank} ${c.suitName}`,
                     "data-card": code });
}

export function wsUrl(token, session) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const who = token ? `token=${encodeURIComponent(token)}&` : ""; // else the cookie
  return `${scheme}://${location.host}/ws/player?${who}session=${encodeURIComponent(session)}`;
}

// A page's commands: `api(path, body)` answers as the server did (errors to `onError`);
// `command(name, body)` posts to /api/player/<name> with a fresh idempotency key and hands a
// new balance to `onBalance`. `page.session` is read at each call (it changes on rejoin).
export function commands(token, page, { onError, onBalance }) {
  async function api(path, body) {
    const answer = await request(token, page.session, path, body);
    if (!answer.ok) {
      if (answer.error && answer.error.code && answer.error.code.startsWith("rg.")) {
        limitNotice(answer.error, page.lang || "it", () => request(token, page.session,
                                                                    "/api/player/reality-check", {}));
      }
      onError(answer.error);
    }
    return answer;
  }
  async function command(name, body = {}) {
    const answer = await api(`/api/player/${name}`, { key: newKey(), ...body });
    if (answer.ok && answer.balance) onBalance(answer.balance);
    return answer;
  }
  return { api, command };
}

// A short message in `box` for four seconds (an error's text, its code for tests).
export function toast(box, text, code) {
  box.textContent = text;
  box.dataset.code = code || "";
  box.hidden = false;
  clearTimeout(box.toastTimer);
  box.toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

// A private table's session, as the regulations have it: join (the player's own instance),
// the WebSocket, a lost connection retried for the table's reconnection window with a
// "reconnecting" alert, then "disconnected"; a closed session (another window, inactivity,
// the game session's end) shows why, with Rientra. The page gives its text (`t`), and what
// to do with a joined table, a state, an event and a history.
//   page: {tableId, session, ws, retry, retryUntil, closedCode, reconnectS}
//   ui:   {t, api, showError, onJoined(joined), onState(msg), onEvent(event), onHistory(rounds)}
// The page's DOM has #conn, #alert, #overlay, #overlay-text and #rejoin.
export function privateSession(page, token, ui) {
  const $ = (id) => document.getElementById(id);

  function overlay(text, canRejoin, code = "") {
    $("overlay-text").textContent = text;
    $("overlay").dataset.code = code;
    $("rejoin").hidden = !canRejoin;
    $("overlay").hidden = false;
  }
  function alertBox(text) {
    $("alert").hidden = !text;
    $("alert").textContent = text || "";
  }
  function setConnection(up) {
    const c = $("conn");
    c.textContent = up ? ui.t("connected") : ui.t("reconnecting");
    c.classList.toggle("down", !up);
    c.dataset.state = up ? "up" : "down";
    alertBox(up ? null : ui.t("reconnecting"));
  }
  function close(code) {
    page.closedCode = code;
    if (page.ws) page.ws.close();
    overlay(ui.t(code), true, code);
  }
  async function history() {
    const h = await ui.api("/api/player/history?limit=20");
    if (h.ok) ui.onHistory(h.rounds);
  }
  function onMessage(msg) {
    if (msg.type === "state") ui.onState(msg);
    else if (msg.type === "event") {
      const ev = msg.event;
      if (ev.type === "round_closed" || ev.type === "round_voided") history();
      if (ev.type === "game_session_closed") close("game_session_closed");
      else ui.onEvent(ev);
    } else if (msg.type === "session_closed") close(msg.code);
    else if (msg.type === "error") ui.showError(msg.error);
  }
  function connect() {
    const ws = new WebSocket(wsUrl(token, page.session));
    page.ws = ws;
    ws.onopen = () => { page.retry = 0; page.retryUntil = null; setConnection(true); };
    ws.onmessage = (m) => onMessage(JSON.parse(m.data));
    ws.onclose = () => {
      if (page.ws !== ws || page.closedCode) return;
      setConnection(false);
      const now = Date.now();
      if (page.retryUntil === null) page.retryUntil = now + page.reconnectS * 1000;
      if (now >= page.retryUntil) {
        alertBox(null);
        overlay(ui.t("disconnected"), true, "disconnected");
        return;
      }
      const delay = Math.min(5000, 500 + 500 * page.retry++);
      setTimeout(() => { if (!page.closedCode) connect(); }, delay);
    };
  }
  async function join() {
    const joined = await ui.api("/api/player/join", { table_id: page.tableId });
    if (!joined.ok) { overlay(ui.errorText(joined.error), false); return; }
    page.session = joined.session_id;
    page.closedCode = null;
    $("overlay").hidden = true;
    ui.onJoined(joined);
    connect();
  }
  $("rejoin").addEventListener("click", () => join());
  return { join, close };
}

// The table's live video (WebRTC, the table's own signalling) in `video`, once; without a
// camera the still frame stays. `page.tableId` names the table, `page.video` keeps the peer.
export async function startVideo(page, token, video, still) {
  if (page.video) return;
  try {
    const tables = await (await fetch("/api/tables")).json();
    const me = tables.tables.find((x) => x.id === page.tableId);
    if (!me || !me.video) return;
    if (me.video === "janus") { // through the studio's SFU
      const { startJanusVideo } = await import("/video-static/janus_client.js");
      page.video = await startJanusVideo(video, { tableId: page.tableId, token });
    } else {
      const { startVideo: start } = await import(`/video/${page.tableId}/static/video_client.js`);
      page.video = await start(video, { offerUrl: `/video/${page.tableId}/offer`, token });
    }
    video.hidden = false;
    still.hidden = true;
  } catch (e) {
    console.warn("video unavailable", e);
  }
}

// The operator's limits, server side, as the player meets them: the reality check (time
// played, the session's result, then "Continua" to go on, or the lobby), and the session's
// time limit (only the lobby). `acknowledge()` tells the studio the check was seen.
const LIMIT_WORDS = {
  it: { check: "Controllo di realtà", played: "Tempo di gioco", net: "Risultato della sessione",
        go_on: "Continua", lobby: "Torna alla lobby", time_up: "Tempo della sessione esaurito" },
  en: { check: "Reality check", played: "Time played", net: "Session result",
        go_on: "Continue", lobby: "Back to the lobby", time_up: "Session time is up" },
};

export function limitNotice(error, lang, acknowledge) {
  const w = LIMIT_WORDS[lang] || LIMIT_WORDS.it;
  const due = error.code === "rg.reality_check_due";
  if (!due && error.code !== "rg.session_time_limit") return;
  document.getElementById("limit-notice")?.remove();
  const minutes = Math.floor((error.played_s || 0) / 60);
  const net = (error.net_cents || 0) / 100;
  const box = el("div", { class: "overlay", "data-testid": "limit-notice", id: "limit-notice",
                          "data-code": error.code },
    el("div", { class: "box" },
      el("h2", {}, due ? w.check : w.time_up),
      el("p", {}, `${w.played}: ${minutes} min`),
      el("p", { "data-testid": "limit-net" }, `${w.net}: ${net >= 0 ? "+" : ""}€${net.toFixed(2)}`)));
  const buttons = el("p", {});
  if (due) {
    const goOn = el("button", { "data-testid": "limit-continue" }, w.go_on);
    goOn.addEventListener("click", async () => { await acknowledge(); box.remove(); });
    buttons.append(goOn, " ");
  }
  buttons.append(el("a", { href: "/lobby", "data-testid": "limit-lobby" }, w.lobby));
  box.firstChild.append(buttons);
  document.body.append(box);
}
