// Sette e Mezzo multiplayer: the seated table's page. Renders the state the server pushes
// (seats, who banks, the piatto, each player's visible cards and credit, the timer of whoever
// must act) and sends commands over HTTP, each with its idempotency key. Amounts are shown and
// typed in euro, sent in cents.
"use strict";
const q = new URLSearchParams(location.search);
const TABLE = q.get("table"), TOKEN = q.get("token");
const $ = (id) => document.getElementById(id);
const T = (id) => document.querySelector(`[data-testid="${id}"]`);
const euro = (c) => c == null ? "–" : (c < 0 ? "-" : "") + "€" + (Math.abs(c) / 100).toFixed(2);
const cents = (v) => Math.round(parseFloat(v) * 100);
let state = null, ws = null, skew = 0;  // skew: the table's clock minus this one's
const THRESHOLDS = [[9, "4½ (regola)"], [6, "3"], [8, "4"], [10, "5"], [12, "6"], [13, "6½"]];
for (const sel of [$("auto-punter"), $("auto-banker")]) {
  for (const [v, label] of THRESHOLDS) sel.add(new Option(label, v));
}
$("art").value = localStorage.getItem("mp-art") || "napoletane";
$("art").onchange = () => { localStorage.setItem("mp-art", $("art").value); render(); };

function cardImg(code) {
  const img = document.createElement("img");
  img.src = `/cards/${$("art").value}/${code || "back"}.jpg`;
  img.alt = code || "coperta";
  img.dataset.card = code || "back";
  return img;
}

async function send(type, args = {}) {
  T("error").textContent = "";
  const key = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
  const r = await fetch(`/api/seated/${TABLE}/act`, {method: "POST",
    headers: {"Content-Type": "application/json", "Authorization": `Bearer ${TOKEN}`},
    body: JSON.stringify({key, type, ...args})});
  const answer = await r.json();
  if (!answer.ok) { T("error").textContent = `${answer.error.code}: ${answer.error.message}`; }
  else if (answer.state) { state = answer.state; skew = state.now - Date.now() / 1000; render(); }
  return answer;
}

function button(label, testid, onclick) {
  const b = document.createElement("button");
  b.textContent = label; b.dataset.testid = testid; b.onclick = onclick; return b;
}

function amountInput(testid, low, high) {
  const i = document.createElement("input");
  i.type = "number"; i.dataset.testid = testid; i.step = "0.01";
  i.min = (low / 100).toFixed(2); i.max = (high / 100).toFixed(2); i.value = i.min;
  return i;
}

function renderButtons(me) {
  const box = $("buttons"); box.replaceChildren();
  if (!me) return;
  const byAction = {};
  for (const b of me.buttons) (byAction[b.action] ||= []).push(b);
  if (byAction.accept) {
    for (const b of byAction.accept) {
      if (b.label === "Accetto") {
        const inp = amountInput("accept-amount", b.low, b.high);
        const note = document.createElement("span");
        note.textContent = ` (${euro(b.low)} – ${euro(b.high)}) `;
        box.append(inp, note, button("Accetto", "btn-accetto",
          () => send("accept", {amount: cents(inp.value)})));
      }
    }
  }
  for (const b of byAction.refuse || []) box.append(button(b.label, "btn-non-accetto", () => send("refuse")));
  for (const b of byAction.join || []) {
    box.append(button(b.label, b.label === "Gioco" ? "btn-gioco" : "btn-non-gioco",
      () => send("join", {plays: b.label === "Gioco"})));
  }
  if (byAction.stake) {
    const b0 = byAction.stake[0];
    const inp = amountInput("stake-amount", b0.low, b0.high);
    box.append(inp);
    for (const b of byAction.stake) box.append(button(b.label, `btn-${b.label.toLowerCase()}`,
      () => send("stake", {amount: cents(inp.value), hit: b.label === "Tiro"})));
  }
  if (byAction.preset) {  // a decision set in advance, while waiting for one's turn
    const b0 = byAction.preset[0];
    const inp = b0.low != null ? amountInput("preset-amount", b0.low, b0.high) : null;
    const label = document.createElement("span"); label.textContent = "In anticipo: ";
    box.append(label);
    if (inp) box.append(inp);
    for (const b of byAction.preset) box.append(button(b.label, `btn-preset-${b.label.toLowerCase()}`,
      () => send("preset", {hit: b.label === "Tiro", ...(inp ? {amount: cents(inp.value)} : {})})));
  }
  for (const b of byAction.remove_preset || []) box.append(button(b.label, "btn-remove", () => send("remove_preset")));
  for (const b of byAction.decide || []) {
    box.append(button(b.label, `btn-${b.label.toLowerCase()}`,
      () => send("decide", {hit: b.label === "Tiro"})));
  }
}

function render() {
  if (!state) return;
  T("table-name").textContent = state.name;
  T("variant").textContent = state.variant;
  T("banker").textContent = state.banker || (state.offer ? `${state.offer} (offerto)` : "–");
  T("piatto").textContent = state.piatto == null ? (state.max_bet ? `max ${euro(state.max_bet)}` : "–") : euro(state.piatto);
  T("turn").textContent = state.turn || "–";
  const seats = $("seats"); seats.replaceChildren();
  for (const s of state.seats) {
    const d = document.createElement("div");
    d.className = "seat"; d.dataset.testid = `seat-${s.seat}`;
    if (s.player) {
      d.dataset.player = s.player;
      if (s.banker) d.classList.add("banker");
      if (state.turn === s.player) d.classList.add("turn");
      const n = document.createElement("div"); n.className = "name"; n.textContent = s.player;
      if (s.banker) { const b = document.createElement("span"); b.className = "badge"; b.textContent = "Banco"; n.append(b); }
      if (s.sitout) { const b = document.createElement("span"); b.className = "badge"; b.textContent = "Sitout"; n.append(b); }
      const c = document.createElement("div"); c.dataset.testid = `credit-${s.player}`; c.textContent = euro(s.credit);
      const cards = document.createElement("div"); cards.dataset.testid = `cards-${s.player}`;
      for (const code of s.cards) cards.append(cardImg(code));
      d.append(n, c, cards);
    } else d.textContent = "libero";
    seats.append(d);
  }
  const me = state.me;
  const tournament = state.kind === "tournament";  // chips: no buy-in, rebuy or leaving
  $("me").classList.toggle("hidden", !me);
  $("sit").classList.toggle("hidden", !!me || tournament);
  for (const id of ["rebuy", "rebuy-amount", "leave"]) $(id).classList.toggle("hidden", tournament);
  if (me) {
    T("credit").textContent = euro(me.credit);
    T("pending").textContent = me.rebuy_pending ? `(+${euro(me.rebuy_pending)} a fine mano)` : "";
    $("sitout").classList.toggle("hidden", me.sitout);
    $("back").classList.toggle("hidden", !me.sitout);
  }
  renderButtons(me);
  const res = $("results"); res.replaceChildren();
  for (const r of state.results || []) {
    const line = document.createElement("div");
    line.textContent = `${r.punter} ${euro(r.stake)}: ${r.banker_won ? "vince il banco" : "vince la punta"} (${r.punter_cards.join(" ")} / ${r.banker_cards.join(" ")})`;
    res.append(line);
  }
}

setInterval(() => {
  if (!state || !state.deadline) { T("timer").textContent = ""; return; }
  const left = Math.max(0, Math.round(state.deadline - (Date.now() / 1000 + skew)));
  T("timer").textContent = `${left}s`;
}, 250);

$("sit-btn").onclick = () => send("sit", {amount: cents($("sit-amount").value),
  autoplay: {punter: +$("auto-punter").value, banker: +$("auto-banker").value}});
$("sitout").onclick = () => send("sitout", {on: true});
$("back").onclick = () => send("sitout", {on: false});
$("rebuy").onclick = () => send("rebuy", {amount: cents($("rebuy-amount").value)});
$("leave").onclick = () => send("leave");

// Every money movement of this player here has its transaction ticket (buy-in, rebuy, each
// hand, the piatto put up and taken back, the cash-out).
const LEG_NAMES = {account: "conto", table_credit: "credito al tavolo", piatto: "piatto",
                   rake: "rake", other_players: "altri giocatori"};
$("tickets-btn").onclick = async () => {
  const r = await fetch(`/api/seated/${TABLE}/tickets`, {headers: {"Authorization": `Bearer ${TOKEN}`}});
  const answer = await r.json();
  const list = $("tickets"); list.replaceChildren();
  for (const t of answer.tickets || []) {
    const li = document.createElement("li");
    li.dataset.ticket = t.ticket;
    li.textContent = `${t.ticket}: ` + Object.entries(t.legs).map(
      ([k, v]) => `${LEG_NAMES[k] || k} ${v > 0 ? "+" : ""}${euro(v)}`).join(", ");
    list.append(li);
  }
};

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/seated/${TABLE}?token=${encodeURIComponent(TOKEN)}`);
  ws.onopen = () => T("connection").dataset.state = "up";
  ws.onclose = () => { T("connection").dataset.state = "down"; setTimeout(connect, 1000); };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "table_state") { state = msg.state; skew = state.now - Date.now() / 1000; render(); }
  };
}
connect();
