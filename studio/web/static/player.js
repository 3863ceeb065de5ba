// The player client of Sette e Mezzo Live.
//
// The page renders the table from the server's "state" messages (the WebSocket sends one on
// every (re)connection and after every burst of events), so a reconnection restores the view
// by itself; events only drive what is momentary (Stop alle puntate, results, errors).
// Commands go over HTTP with an idempotency key; the answer or its error code is shown.
//
// URL: /play?token=<operator token>&table=<table id>&lang=it|en
// The token leaves the address bar at once (it would otherwise be bookmarked, shared or seen on
// a screen) and lives in this tab's sessionStorage, so a reload still signs in.

import { cardImage, commands, el, startVideo, takeToken, toast, wsUrl } from "/static/chrome.js";
import { STRINGS, cardLabel, halves, money } from "/static/i18n.js";

const params = new URLSearchParams(location.search);
const token = takeToken(params);
const CHIPS = [100, 500, 1000, 2500, 10000];
const KINDS = ["main", "partita_perfetta", "mano_di_poker"];

const app = {
  lang: params.get("lang") || localStorage.getItem("lang") || "it",
  tableId: params.get("table") || "",
  session: null, player: null, ws: null, view: null, balance: null,
  chip: 500, retry: 0, closedCode: null, timerBase: null, decisionBase: null,
  decided: null, autoplayLeft: 0, video: null,
};
window.__player = app; // tests and support staff read it

const $ = (id) => document.getElementById(id);
const t = (k) => (STRINGS[app.lang] || STRINGS.it)[k] || k;

// ------------------------------------------------------------------------------- HTTP

const { api, command } = commands(token, app, {
  onError: (e) => showError(e), onBalance: (b) => renderBalance(b) });

function showError(error) {
  const messages = t("errors");
  toast($("toast"), (messages && messages[error.code]) || error.message || error.code,
        error.code);
  if (error.code && error.code.startsWith("session.")) closeSession(error.code);
}

// ------------------------------------------------------------------------------- session

async function join() {
  if (!app.tableId) {
    const tables = await (await fetch("/api/tables")).json();
    app.tableId = tables.tables[0].id;
  }
  const joined = await api("/api/player/join", { table_id: app.tableId });
  if (!joined.ok) {
    $("overlay-text").textContent = t("errors")[joined.error.code] || joined.error.message;
    $("overlay").hidden = false;
    $("rejoin").hidden = true;
    return;
  }
  app.session = joined.session_id;
  app.player = joined.player;
  app.closedCode = null;
  $("overlay").hidden = true;
  render(joined.table);
  renderBalance(joined.balance);
  renderHistory(joined.history);
  connect();
  startVideo(app, token, $("video"), $("still"));
}

function connect() {
  const ws = new WebSocket(wsUrl(token, app.session));
  app.ws = ws;
  ws.onopen = () => { app.retry = 0; setConnection(true); };
  ws.onmessage = (m) => onMessage(JSON.parse(m.data));
  ws.onclose = () => {
    if (app.ws !== ws) return;
    setConnection(false);
    if (app.closedCode) return;
    // the regulation: repeated attempts, at delays growing from 500 to 1500 ms
    const delay = Math.min(1500, 500 + 250 * app.retry++);
    setTimeout(() => { if (!app.closedCode) connect(); }, delay);
  };
}

function closeSession(code) {
  app.closedCode = code;
  if (app.ws) app.ws.close();
  $("overlay-text").textContent = t(code);
  $("overlay").dataset.code = code;
  $("rejoin").hidden = false;
  $("overlay").hidden = false;
}

function setConnection(up) {
  const c = $("conn");
  c.textContent = up ? t("connected") : t("reconnecting");
  c.classList.toggle("down", !up);
  c.dataset.state = up ? "up" : "down";
}

function onMessage(msg) {
  if (msg.type === "state") {
    if (msg.balance) renderBalance(msg.balance);
    render(msg.table);
  } else if (msg.type === "event") {
    onEvent(msg.event);
  } else if (msg.type === "session_closed") {
    closeSession(msg.code);
  } else if (msg.type === "error") {
    showError(msg.error);
  }
}

function onEvent(ev) {
  switch (ev.type) {
    case "betting_closed": flash(t("stop_bets")); break;
    case "player_settled": case "side_bet_settled": addResult(ev); break;
    case "bet_refunded": addResult({ refund: true, returned: ev.amount }); break;
    case "round_voided": flash(t("round_void")); refreshHistory(); break;
    case "round_closed": refreshHistory(); break;
    case "autoplay_changed": app.autoplayLeft = ev.rounds; renderAutoplay(); break;
    default: break;
  }
}

async function refreshHistory() {
  const h = await api("/api/player/history?limit=20");
  if (h.ok) renderHistory(h.rounds);
}

// ------------------------------------------------------------------------------- rendering

function renderBalance(b) {
  app.balance = b;
  $("balance").textContent = money(b.available, app.lang);
  $("balance").dataset.cents = b.available;
  $("reserved").textContent = b.reserved ? `${money(b.reserved, app.lang)} ${t("reserved")}`
    : "";
}

// A card in the table's own art (the scans), its name for screen readers.
function cardEl(code, dim = false) {
  const e = cardImage(code, app.view ? app.view.deck_art : "napoletane", app.lang);
  e.classList.add("card");
  if (dim) e.classList.add("dim");
  return e;
}

function totalText(h) {
  if (h === null || h === undefined) return "";
  return h > 15 ? `${halves(h)} ✗` : halves(h);
}

function render(view) {
  app.view = view;
  const rnd = view.round;
  $("table-name").textContent = view.name;
  const lim = view.limits;
  $("limits").textContent = `${t("limits")} ${money(lim.main_min, app.lang)} – `
    + `${money(lim.main_max, app.lang)}`;
  const phase = rnd ? rnd.phase : null;
  let phaseText = view.paused ? t("paused") : t(`phase_${phase || "none"}`);
  if (!view.paused && phase === "hit") phaseText += ` ${rnd.deciding}`;
  $("phase").textContent = phaseText;
  if (!["burn", "deal"].includes(phase)) $("banner").hidden = true; // the moment has passed
  $("phase").dataset.phase = view.paused ? "paused" : phase || "none";

  // dealer
  const dealer = $("dealer-cards");
  dealer.replaceChildren(...(rnd ? rnd.dealer : []).map((c) => cardEl(c)));
  $("dealer-total").textContent = rnd ? totalText(rnd.dealer_total) : "";
  $("dealer-total").classList.toggle("bust", !!rnd && rnd.dealer_total > 15);

  // positions
  const mine = {};
  for (const b of (rnd && rnd.my_bets) || []) {
    const k = `${b.position}-${b.kind}`;
    mine[k] = (mine[k] || 0) + b.amount;
  }
  const betting = phase === "betting" && !view.paused;
  const box = $("positions");
  box.replaceChildren();
  for (let n = 1; n <= view.positions; n++) {
    const pos = rnd && rnd.positions[String(n)];
    const myHand = rnd && rnd.my_hands && rnd.my_hands[String(n)];
    const cards = el("div", { class: "cards", "data-testid": `position-${n}-cards` },
      ...(pos ? pos.cards : []).map((c, i) => cardEl(c, myHand && i >= myHand.length)));
    const spots = el("div", { class: "spots" }, ...KINDS.map((kind) => {
      const amount = mine[`${n}-${kind}`] || 0;
      const b = el("button", { class: `spot ${kind === "main" ? "main" : "side"}`
        + `${amount ? " has-bet" : ""}`, "data-testid": `spot-${n}-${kind}`,
      disabled: !betting, title: t(kind) },
      el("span", { class: "amount" }, amount ? money(amount, app.lang) : ""),
      el("span", {}, t(kind)));
      b.addEventListener("click", () => placeBet(n, kind));
      return b;
    }));
    const deciding = rnd && rnd.deciding === n && (phase === "decisions" || phase === "hit");
    const handText = myHand && pos && myHand.length !== pos.cards.length
      ? `${t("your_hand")}: ${totalText(rnd.my_totals[String(n)])}` : "";
    box.append(el("article", { class: `position${deciding ? " deciding" : ""}`,
      "data-testid": `position-${n}` },
    el("header", {}, el("span", { class: "who" }, `${t("position")} ${n}`),
      el("span", { class: "total", "data-testid": `position-${n}-total` },
        pos ? totalText(myHand ? rnd.my_totals[String(n)] : pos.total) : "")),
    cards,
    el("div", { class: "my-hand", "data-testid": `my-hand-${n}` }, handText),
    spots));
  }

  // buttons
  $("btn-cancel").disabled = !betting || !Object.keys(mine).length;
  $("btn-ripunta").disabled = !betting || Object.keys(mine).length > 0;
  app.autoplayLeft = rnd && rnd.autoplay !== undefined ? rnd.autoplay : app.autoplayLeft;
  renderAutoplay();

  // timers
  const serverNow = view.server_time;
  app.timerBase = betting && rnd.closes_at
    ? { left: rnd.closes_at - serverNow, at: performance.now(), total: view.timers
      ? view.timers.betting_window_s : 15 } : null;
  renderDecision(view);
  tick();
}

function renderDecision(view) {
  const rnd = view.round;
  const mine = !!rnd && rnd.my_decision && !view.paused;
  const turnKey = mine ? `${rnd.deciding}:${rnd.decision ? rnd.decision.turn : ""}` : null;
  if (turnKey !== app.decided) app.decided = null;
  const show = mine && app.decided !== turnKey;
  $("decision").hidden = !show;
  if (show) {
    $("decision-text").textContent = `${t("your_turn")} (${t("position")} ${rnd.deciding})`;
    $("btn-carta").onclick = () => decide(rnd.deciding, "carta", turnKey);
    $("btn-stai").onclick = () => decide(rnd.deciding, "stai", turnKey);
  }
  app.decisionBase = show && rnd.decision
    ? { left: rnd.decision.deadline - view.server_time, at: performance.now() } : null;
}

function tick() {
  const now = performance.now();
  const tb = app.timerBase;
  $("timer-box").hidden = !tb;
  if (tb) {
    const left = Math.max(0, tb.left - (now - tb.at) / 1000);
    $("timer").textContent = Math.ceil(left);
    const fill = $("timer-fill");
    fill.style.width = `${Math.max(0, Math.min(100, (100 * left) / tb.total))}%`;
    fill.classList.toggle("low", left <= 5);
  }
  const db = app.decisionBase;
  $("decision-timer").textContent = db
    ? Math.ceil(Math.max(0, db.left - (now - db.at) / 1000)) : "";
}
setInterval(tick, 250);

function renderAutoplay() {
  const b = $("btn-autoplay");
  b.textContent = app.autoplayLeft ? `${t("autoplay")} (${app.autoplayLeft})` : t("autoplay");
  b.dataset.left = app.autoplayLeft;
}

function renderHistory(rounds) {
  app.history = rounds;
  const list = $("history");
  if (!rounds || !rounds.length) {
    list.replaceChildren(el("li", { class: "meta" }, t("no_history")));
    return;
  }
  list.replaceChildren(...rounds.map((r) => {
    const net = r.net;
    const cls = net > 0 ? "win" : net < 0 ? "lose" : "";
    const hands = Object.entries(r.hands).map(([n, h]) =>
      `${t("position")} ${n}: ${h.cards.map((c) => cardText(c)).join(" ")} (${totalText(h.total)})`);
    const status = r.status === "void" ? `${t("phase_void")}: ${r.reason}` : `${t("dealer")}: `
      + `${r.dealer.map((c) => cardText(c)).join(" ")} (${totalText(r.dealer_total)})`;
    return el("li", { "data-round": r.round_id, "data-net": net === null ? "" : net },
      el("span", { class: `net ${cls}` }, net === null ? "…" : signed(net)),
      el("div", {}, r.round_id.split("-").pop()),
      el("div", { class: "meta" }, status),
      ...hands.map((h) => el("div", { class: "meta" }, h)),
      el("div", { class: "meta" }, `${t("staked")} ${money(r.staked, app.lang)} · `
        + `${t("returned")} ${money(r.returned, app.lang)}`));
  }));
}

function cardText(code) {
  const c = cardLabel(code, app.lang);
  return `${c.rank}${c.suit}`;
}

function signed(cents) {
  return `${cents > 0 ? "+" : ""}${money(cents, app.lang)}`;
}

// ------------------------------------------------------------------------------- results

let resultLines = [];
let refund = null; // one line for all the refunds of a void: {cents, line}
function addResult(ev) {
  let line;
  if (ev.refund) {
    if (!refund) {
      refund = { cents: 0, line: el("div", { "data-result": "refund" }) };
      resultLines.push(refund.line);
    }
    refund.cents += ev.returned;
    refund.line.textContent = `${t("refunded")} ${money(refund.cents, app.lang)}`;
  } else if (ev.type === "side_bet_settled") {
    const won = ev.returned > 0;
    line = el("div", { class: won ? "win" : "lose" }, `${t(ev.kind)} (${t("position")} `
      + `${ev.position}): ${won ? `${t("won")} ${money(ev.returned, app.lang)}` : t("lost")}`);
  } else {
    const m = ev.main;
    const word = { win: t("won"), royal: t("won"), push: t("push") }[m.result] || t("lost");
    const won = m.returned > m.stake;
    const auto = ev.automatic_win ? ` (${t("automatic_win")})` : "";
    const outcome = [word, m.returned ? money(m.returned, app.lang) : ""].filter(Boolean);
    line = el("div", { class: won ? "win" : m.returned ? "" : "lose",
      "data-result": m.result },
    `${t("position")} ${ev.position}: ${outcome.join(" ")}${auto} — ${t("total")} `
      + `${totalText(ev.total)}`);
    if (ev.mano_di_poker) {
      const p = ev.mano_di_poker;
      resultLines.push(el("div", { class: p.returned > p.stake ? "win" : "" },
        `${t("mano_di_poker")}: ${p.result === "refund" ? t("refunded") : p.returned
          ? `${t("won")} ${money(p.returned, app.lang)}` : t("lost")}`));
    }
  }
  if (line) resultLines.push(line);
  const box = $("result");
  box.replaceChildren(...resultLines);
  box.hidden = false;
  clearTimeout(addResult.timer);
  addResult.timer = setTimeout(() => { box.hidden = true; resultLines = []; refund = null; },
    8000);
}

function flash(text) {
  const b = $("banner");
  b.textContent = text;
  b.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { b.hidden = true; }, 2200);
}

// ------------------------------------------------------------------------------- actions

async function placeBet(position, kind) {
  await command("bets", { bets: [{ position, kind, amount: app.chip }] });
}

async function decide(position, choice, turnKey) {
  app.decided = turnKey;
  $("decision").hidden = true;
  const answer = await command("decide", { position, choice });
  if (!answer.ok) { app.decided = null; if (app.view) renderDecision(app.view); }
}

function renderChips() {
  $("chips").replaceChildren(...CHIPS.map((v) => {
    const b = el("button", { class: `chip${v === app.chip ? " selected" : ""}`,
      "data-v": String(v), "data-testid": `chip-${v}`, role: "radio",
      title: money(v, app.lang) }, v >= 100 ? String(v / 100) : money(v, app.lang));
    b.setAttribute("aria-checked", v === app.chip ? "true" : "false");
    b.addEventListener("click", () => { app.chip = v; renderChips(); });
    return b;
  }));
}

function applyLanguage() {
  document.documentElement.lang = app.lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  $("lang").textContent = t("language");
  renderChips();
  if (app.view) render(app.view);
  if (app.balance) renderBalance(app.balance);
  if (app.ws) setConnection(app.ws.readyState === WebSocket.OPEN);
  if (app.history) renderHistory(app.history);
}

function wire() {
  $("btn-cancel").addEventListener("click", () => command("cancel"));
  $("btn-ripunta").addEventListener("click", () => command("repeat"));
  $("btn-autoplay").addEventListener("click", async () => {
    if (app.autoplayLeft) {
      const a = await command("autoplay", { rounds: 0 });
      if (a.ok) { app.autoplayLeft = 0; renderAutoplay(); }
    }
    $("autoplay-panel").hidden = false;
  });
  $("autoplay-close").addEventListener("click", () => { $("autoplay-panel").hidden = true; });
  $("autoplay-start").addEventListener("click", async () => {
    const rounds = Number($("autoplay-rounds").value);
    const a = await command("autoplay", { rounds });
    if (a.ok) { app.autoplayLeft = rounds; renderAutoplay(); $("autoplay-panel").hidden = true; }
  });
  $("lang").addEventListener("click", () => {
    app.lang = app.lang === "it" ? "en" : "it";
    localStorage.setItem("lang", app.lang);
    applyLanguage();
  });
  $("rejoin").addEventListener("click", () => join());
}

wire();
applyLanguage();
join();
