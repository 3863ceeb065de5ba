// The dealer console: what to do next, in words; every card as it is seen and by which
// source; the devices' health; start, pause, resume; manual card entry; void with a reason;
// alerts. The page renders the "state" messages of /ws/staff; commands go over HTTP.

import { cardHtml, ensureStaff, halves, newKey, setCardArt, staffSocket } from "/static/staff_login.js";

const $ = (id) => document.getElementById(id);
const state = { table: null, view: null, timerBase: null };
window.__dealer = state;

function li(...children) {
  const e = document.createElement("li");
  e.append(...children);
  return e;
}

function time(t) {
  return new Date(t * 1000).toLocaleTimeString();
}

async function command(command, extra = {}) {
  const r = await fetch(`/api/tables/${state.table}/dealer`, { method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ key: newKey(), command, ...extra }) });
  const answer = await r.json();
  $("error").textContent = answer.ok ? "" : `${answer.error.code}: ${answer.error.message}`;
  $("error").dataset.code = answer.ok ? "" : answer.error.code;
  return answer;
}

function render(view) {
  state.view = view;
  setCardArt(view.deck_art);
  const rnd = view.round;
  $("title").textContent = `${view.name} — dealer console`;
  $("round-id").textContent = rnd ? rnd.round_id : "–";
  $("phase").textContent = rnd ? rnd.phase : "no round";
  $("paused").textContent = view.paused ? `PAUSED: ${view.paused}` : "";
  let next = "–";
  if (view.dispute) next = "Shoe and camera disagree: check the card, key it in, resume";
  else if (view.paused) next = "Table paused: resolve, then resume";
  else if (view.changing_shoe) next = "Change the shoe: the shuffler prepares a new one";
  else if (rnd && rnd.expecting) next = rnd.expecting[0].toUpperCase() + rnd.expecting.slice(1);
  else if (rnd && rnd.phase === "betting") next = "Betting is open: wait for Stop alle puntate";
  else if (rnd && rnd.waiting_for) next = rnd.waiting_for; // a game's own words: whose turn
  else if (rnd && rnd.phase === "decisions") next = `Players decide on position ${rnd.deciding}`;
  else if (!view.running) next = "Press Start to open the first round";
  else next = "Wait for the next round";
  if (view.last_hand_of_shoe && !view.changing_shoe) {
    next += " · cut card out: this is the shoe's last hand";
  }
  $("next").textContent = next;
  $("bets").textContent = rnd ? `${rnd.bets} bets` + (rnd.staked !== undefined
    ? ` · ${(rnd.staked / 100).toFixed(2)} EUR staked` : "") : "";
  state.timerBase = rnd && rnd.phase === "betting"
    ? { left: rnd.closes_at - view.server_time, at: performance.now() }
    : rnd && rnd.decision ? { left: rnd.decision.deadline - view.server_time,
      at: performance.now() } : null;

  $("dealer").replaceChildren(...(rnd ? rnd.dealer : []).map((c) => cardHtml(document, c)));
  $("dealer-total").textContent = rnd && rnd.dealer_total_text !== undefined
    ? rnd.dealer_total_text // a game that counts in whole points says how to show its total
    : rnd && rnd.dealer_total !== undefined && rnd.dealer_total !== null
      ? halves(rnd.dealer_total) : "";
  const positions = [];
  for (const hand of (rnd && rnd.hands) || []) { // a game's own places (Punto, Banco)
    const div = document.createElement("div");
    div.className = `position${rnd.next_to === hand.place ? " deciding" : ""}`;
    div.dataset.testid = `hand-${hand.place}`;
    const label = document.createElement("strong");
    label.textContent = `${hand.name} `;
    const total = document.createElement("strong");
    total.textContent = hand.total === null ? "" : ` ${hand.total}`;
    div.append(label, ...hand.cards.map((c) => cardHtml(document, c)), total);
    positions.push(div);
  }
  for (let n = 1; n <= (rnd && rnd.hands ? 0 : view.positions); n++) {
    const pos = rnd && rnd.positions[String(n)];
    const div = document.createElement("div");
    div.className = `position${rnd && rnd.deciding === n ? " deciding" : ""}`;
    div.dataset.testid = `position-${n}`;
    const label = document.createElement("strong");
    label.textContent = `Position ${n} `;
    div.append(label, ...(pos ? pos.cards : []).map((c) => cardHtml(document, c)));
    if (pos && !pos.cards.length) {
      const none = document.createElement("span");
      none.className = "muted";
      none.textContent = "bets placed, no card yet";
      div.append(none);
    } else if (pos) {
      const total = document.createElement("strong");
      total.textContent = ` ${halves(pos.total)}`;
      div.append(total);
    } else {
      const none = document.createElement("span");
      none.className = "muted";
      none.textContent = "not dealt";
      div.append(none);
    }
    positions.push(div);
  }
  $("positions").replaceChildren(...positions);

  const seen = (rnd && rnd.cards_seen) || [];
  $("cards").replaceChildren(...seen.slice().reverse().map((c) => {
    const src = document.createElement("span");
    src.className = "src";
    const hidden = c.burn ? "burn card, face down · " : c.face_down ? "face down · " : "";
    src.textContent = `${hidden}from ${c.source} · ${time(c.at)}`;
    return li(cardHtml(document, c.card), src);
  }));
  if (!seen.length) $("cards").replaceChildren(li("No card yet this round"));

  $("devices").replaceChildren(...(view.devices || []).map((d) => {
    const dot = document.createElement("span");
    dot.className = `dot ${d.online ? "ok" : "bad"}`;
    const detail = document.createElement("span");
    detail.className = "muted";
    detail.textContent = ` ${d.detail}`;
    const e = li(dot, `${d.device}: ${d.online ? "online" : "OFFLINE"}`, detail);
    e.dataset.device = d.device;
    e.dataset.online = d.online;
    return e;
  }));
  if (!(view.devices || []).length) $("devices").replaceChildren(li("No device reported yet"));
  else if (view.cross_check) $("devices").append(li("every card the shoe reads is checked by the table camera"));

  // table alerts (pauses, rejected cards, devices offline) and device faults, newest first
  const alerts = (view.alerts || []).map((a) => ({ at: a.at, code: a.code, text: a.message }))
    .concat((view.device_faults || []).map((f) => ({ at: f.at_wall || null, code: f.code,
      text: `${f.device} fault ${f.code}: ${f.detail}` })));
  if (view.dispute) {
    alerts.push({ at: null, code: view.dispute.code,
      text: `Shoe and camera disagree: ${view.dispute.message}` });
  }
  $("alerts").replaceChildren(...alerts.reverse().map((a) => {
    const e = li(`${a.at ? `${time(a.at)} ` : ""}${a.text}`);
    e.className = `alert${/offline|rejected|fault|error|serial|cross|disagree|card\./
      .test(a.code) ? " bad" : ""}`;
    e.dataset.code = a.code;
    return e;
  }));
  if (!alerts.length) $("alerts").replaceChildren(li("No alerts"));
  // a shoe/camera disagreement: both readings, and the dealer confirms one
  const d = view.dispute;
  $("dispute").hidden = !d;
  if (d) {
    const read = (r) => (r && r.card) || "nothing";
    $("dispute-text").textContent = `Shoe read ${read(d.shoe)}, camera read ${read(d.camera)}`;
    $("confirm-shoe").disabled = !(d.shoe && d.shoe.card);
    $("confirm-camera").disabled = !(d.camera && d.camera.card);
  }
  $("start").disabled = view.running;
  $("stop").disabled = !view.running;
  $("resume").disabled = !view.paused;
  $("pause").disabled = !!view.paused;
  $("void").disabled = !rnd || ["closed", "void"].includes(rnd.phase);
}

setInterval(() => {
  const tb = state.timerBase;
  $("timer").textContent = tb ? Math.ceil(Math.max(0, tb.left - (performance.now() - tb.at)
    / 1000)) : "";
}, 250);

async function main() {
  const me = await ensureStaff($("login"), ["dealer", "technician"]);
  $("console").hidden = false;
  $("user").textContent = `${me.user} (${me.role})`;
  state.table = new URLSearchParams(location.search).get("table") || me.tables[0];
  $("start").onclick = () => command("start");
  $("stop").onclick = () => command("stop");
  $("pause").onclick = () => command("pause", { reason: $("pause-reason").value || null });
  $("resume").onclick = () => command("resume");
  $("confirm-shoe").onclick = () => command("confirm", { source: "shoe" });
  $("confirm-camera").onclick = () => command("confirm", { source: "camera" });
  $("manual").onclick = async () => {
    const a = await command("card", { code: $("manual-code").value.trim() });
    if (a.ok) $("manual-code").value = "";
  };
  $("void").onclick = async () => {
    const a = await command("void", { reason: $("void-reason").value });
    if (a.ok) $("void-reason").value = "";
  };
  staffSocket(state.table, (msg) => {
    if (msg.type === "state") render(msg.table);
  }, (up) => {
    $("conn").textContent = up ? "live" : "reconnecting…";
    $("conn").dataset.state = up ? "up" : "down";
  });
}

main();
