// The technicians' page: device health, and the simulated shoe and shuffler driven by hand.
// Only technicians may drive simulators; nothing here shows the order of the cards in the shoe.

import { ensureStaff, staffSocket } from "/static/staff_login.js";

const $ = (id) => document.getElementById(id);
const page = { table: null, sims: null, view: null };
window.__technician = page;

function li(text, cls = "") {
  const e = document.createElement("li");
  e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

async function sim(device, action, arg = null) {
  const r = await fetch(`/api/tables/${page.table}/sim`, { method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ device, action, arg }) });
  const answer = await r.json();
  $("error").textContent = answer.ok ? "" : `${answer.error.code}: ${answer.error.message}`;
  $("error").dataset.code = answer.ok ? "" : answer.error.code;
  if (answer.ok) renderSims(answer.simulators);
  return answer;
}

async function refresh() {
  const r = await fetch(`/api/tables/${page.table}/devices`).then((x) => x.json());
  if (r.ok) { renderSims(r.simulators); renderDevices(r.devices); }
}

function faults(f) {
  const entries = Object.entries(f || {});
  return entries.length ? entries.map(([k, v]) => `${k}×${v}`).join(", ") : "none";
}

function renderSims(s) {
  page.sims = s;
  if (!s) { $("shoe").textContent = "This table runs on real devices."; return; }
  const cut = s.shoe.cut_card_at ? ` · cut card ${s.shoe.cut_card_at} from the end` : "";
  $("shoe").textContent = `${s.shoe.online ? "online" : "offline"} · ${s.shoe.path} · deck `
    + `${s.shoe.deck_set} (${s.shoe.decks} deck${s.shoe.decks > 1 ? "s" : ""}) · `
    + `${s.shoe.remaining} cards left${cut} · ${s.shoe.cards_delivered} cards `
    + `to the table · faults: ${faults(s.shoe.faults)}`;
  $("shuffler").textContent = `${s.shuffler.online ? "online" : "offline"} · `
    + `${s.shuffler.path} · ${s.shuffler.decks_made} decks · ready: `
    + `${s.shuffler.ready_deck_set || "–"} · faults: ${faults(s.shuffler.faults)}`;
  $("camera-panel").hidden = !s.camera;
  if (s.camera) {
    $("camera").textContent = `${s.camera.frames} frames looked at (${s.camera.fps} per second)`
      + ` · ${s.camera.last_ms === null ? "–" : s.camera.last_ms} ms the last · `
      + `${s.camera.cards_seen} cards vouched for · ${s.camera.errors} failed frames`;
  }
  $("auto").textContent = s.auto_deal_s === null ? "auto-deal off"
    : `auto-deal every ${s.auto_deal_s} s`;
  $("log").replaceChildren(...s.log.slice().reverse().map((x) => li(x)));
}

// The table's figures (the same as /metrics): rounds, bets, money, latency, clients, devices,
// disputes, the recogniser, the video. Read every few seconds.
const GLANCE = [
  ["rounds", "Rounds", (v) => v], ["void_rounds", "Void rounds", (v) => v],
  ["bets_placed", "Bets placed", (v) => v], ["bets_settled", "Bets settled", (v) => v],
  ["stakes_cents", "Stakes", (v) => `€${(v / 100).toFixed(2)}`],
  ["payouts_cents", "Paid out", (v) => `€${(v / 100).toFixed(2)}`],
  ["bet_ack_ms_mean", "Bet answered in (mean)", (v) => (v === null ? "–" : `${v} ms`)],
  ["ws_clients", "Players connected", (v) => v], ["ws_dropped", "Clients dropped", (v) => v],
  ["disputes", "Shoe/camera disputes", (v) => v],
  ["recogniser_last_ms", "Recogniser (last frame)", (v) => (v === null ? "–" : `${v.toFixed(1)} ms`)],
  ["video_viewers", "Video viewers", (v) => (v === null ? "–" : v)],
  ["video_bitrate_bps", "Video bitrate", (v) => (v === null ? "–" : `${(v / 1000).toFixed(0)} kbit/s`)],
];

async function glance() {
  const r = await fetch(`/api/tables/${page.table}/metrics`).then((x) => x.json()).catch(() => null);
  if (!r || !r.ok) return;
  const m = r.metrics;
  page.metrics = m;
  $("glance").replaceChildren(...GLANCE.flatMap(([key, label, show]) => {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = String(show(m[key]));
    dd.dataset.metric = key;
    return [dt, dd];
  }));
}

function renderDevices(devices) {
  $("devices").replaceChildren(...(devices || []).map((d) =>
    li(`${d.online ? "●" : "○"} ${d.device}: ${d.online ? "online" : "OFFLINE"} ${d.detail}`,
      d.online ? "" : "alert bad")));
  if (!(devices || []).length) $("devices").replaceChildren(li("No device reported yet"));
}

function render(msg) {
  const view = msg.table;
  page.view = view;
  const rnd = view.round;
  $("title").textContent = `${view.name} — technicians`;
  $("round-id").textContent = rnd ? rnd.round_id : "–";
  $("phase").textContent = rnd ? rnd.phase : "no round";
  $("expecting").textContent = (rnd && rnd.expecting) || "no card";
  $("paused").textContent = view.paused ? `PAUSED: ${view.paused}` : "";
  renderDevices(view.devices);
  if (msg.simulators) renderSims(msg.simulators);
}

async function main() {
  const me = await ensureStaff($("login"), ["technician"]);
  $("page").hidden = false;
  $("user").textContent = `${me.user} (${me.role})`;
  page.table = new URLSearchParams(location.search).get("table") || me.tables[0];
  $("deal").onclick = () => sim("shoe", "deal");
  $("deal-card").onclick = () => sim("shoe", "deal_card", $("card").value.trim());
  $("inject-shoe").onclick = () => sim("shoe", "fault", $("shoe-fault").value);
  $("set-status").onclick = () => sim("shoe", "status", $("shoe-status").value);
  $("set-cut").onclick = () => sim("shoe", "cut", $("cut").value.trim());
  $("auto-on").onclick = () => sim("shoe", "auto_deal", "1.5");
  $("auto-off").onclick = () => sim("shoe", "auto_deal", "off");
  $("shuffle").onclick = () => sim("shuffler", "shuffle");
  $("camera-hide").onclick = () => sim("camera", "fault", "hide");
  $("camera-swap").onclick = () => sim("camera", "fault", `swap ${$("swap-card").value.trim()}`);
  $("inject-shuffler").onclick = () => sim("shuffler", "fault", $("shuffler-fault").value);
  await refresh();
  await glance();
  setInterval(glance, 3000);
  staffSocket(page.table, (msg) => { if (msg.type === "state") render(msg); }, (up) => {
    $("conn").textContent = up ? "live" : "reconnecting…";
  });
}

main();
