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
  const headers = { Authorization: `Bearer ${token}` };
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
  return `${scheme}://${location.host}/ws/player?token=${encodeURIComponent(token)}`
    + `&session=${encodeURIComponent(session)}`;
}

// A page's commands: `api(path, body)` answers as the server did (errors to `onError`);
// `command(name, body)` posts to /api/player/<name> with a fresh idempotency key and hands a
// new balance to `onBalance`. `page.session` is read at each call (it changes on rejoin).
export function commands(token, page, { onError, onBalance }) {
  async function api(path, body) {
    const answer = await request(token, page.session, path, body);
    if (!answer.ok) onError(answer.error);
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
