// The player's page of the regulation's virtual Punto e Banco table: chips on Punto, Banco,
// Pari and the two pairs (all in one hand if the player likes), "Annulla" clears them, "Carte"
// places them and deals. Cards appear in the order the rules deal them (1 and 3 to Punto, 2 and
// 4 to Banco, then the third cards), then the result, with Banco's commission shown.

import { cardImage, commands, el, privateSession, takeToken, toast } from "/static/chrome.js";
import { STRINGS as COMMON, money } from "/static/i18n.js";
import { WORDS, oddsOf, renderHistory as historyLines, showResult as resultLine } from
  "/games/punto-e-banco/pb_common.js";

const TEXT = {
  it: { ...WORDS.it, stake: "Puntata", carte: "Carte",
        game_session_closed: "Sessione chiusa: il credito resta sul tuo conto." },
  en: { ...WORDS.en, stake: "Stake", carte: "Carte (deal)",
        game_session_closed: "Session closed: your credit stays in your game account." },
};
const SPOTS = ["punto", "banco", "pari", "punto_pair", "banco_pair"];
const CHIPS = [100, 500, 1000, 2500, 10000];
const REVEAL_MS = 450;

const params = new URLSearchParams(location.search);
const token = takeToken(params);
const app = {
  lang: params.get("lang") || localStorage.getItem("lang") || "it",
  tableId: params.get("table") || "pb-virtual-1",
  session: null, ws: null, retry: 0, retryUntil: null, closedCode: null, reconnectS: 180,
  view: null, balance: null, chip: 500, stakes: {}, art: "french",
  shown: { round: null, count: 0 }, revealing: false, settled: null,
};
window.__pb = app; // tests and support staff read it

const $ = (id) => document.getElementById(id);
const t = (k) => (TEXT[app.lang] || TEXT.it)[k] ?? (COMMON[app.lang] || COMMON.it)[k] ?? k;
const errorText = (e) => ((COMMON[app.lang] || COMMON.it).errors[e.code] || e.message || e.code);
const total = () => Object.values(app.stakes).reduce((a, b) => a + b, 0);

const { api, command } = commands(token, app, {
  onError: (e) => showError(e), onBalance: (b) => renderBalance(b) });

function showError(error) {
  toast($("toast"), errorText(error), error.code);
  if (error.code && error.code.startsWith("session.")) session.close(error.code);
}

const session = privateSession(app, token, {
  t, api, showError, errorText,
  onJoined(joined) {
    app.shown = { round: null, count: 0 };
    renderBalance(joined.balance);
    render(joined.table, true);
    renderHistory(joined.history);
  },
  onState(msg) {
    if (msg.balance) renderBalance(msg.balance);
    render(msg.table, false);
  },
  onEvent(ev) { if (ev.type === "player_settled") app.settled = ev; },
  onHistory: (rounds) => renderHistory(rounds),
});

// ------------------------------------------------------------------------------ rendering

function renderBalance(b) {
  app.balance = b;
  $("balance").textContent = money(b.available, app.lang);
  $("balance").dataset.cents = b.available;
}

// The cards in the order they were dealt: Punto, Banco, Punto, Banco, then third cards.
function dealtOrder(rnd) {
  const p = rnd.punto, b = rnd.banco, out = [];
  for (let i = 0; i < 2; i++) {
    if (p[i]) out.push(["punto", p[i]]);
    if (b[i]) out.push(["banco", b[i]]);
  }
  if (p[2]) out.push(["punto", p[2]]);
  if (b[2]) out.push(["banco", b[2]]);
  return out;
}

function render(view, instant) {
  app.view = view;
  app.art = view.deck_art;
  app.reconnectS = (view.session_rules || {}).reconnect_s || app.reconnectS;
  $("table-name").textContent = view.name;
  const lim = view.limits;
  $("limits").textContent = `${t("limits")} ${money(lim.main_min, app.lang)} – `
    + `${money(lim.main_max, app.lang)}`;
  const rnd = view.round;
  if (!rnd || rnd.round_id !== app.shown.round) {
    app.shown = { round: rnd ? rnd.round_id : null, count: 0 };
    for (const side of ["punto", "banco"]) {
      $(`${side}-cards`).replaceChildren();
      $(`${side}-total`).textContent = "";
    }
    $("result").hidden = true;
  }
  if (rnd) reveal(rnd, instant);
  renderControls();
}

function reveal(rnd, instant) {
  const cards = dealtOrder(rnd);
  const step = () => {
    if (!app.view.round || app.view.round.round_id !== rnd.round_id) return;
    if (app.shown.count < cards.length) {
      const [side, code] = cards[app.shown.count++];
      $(`${side}-cards`).append(cardImage(code, app.art, app.lang));
      app.revealing = true;
      renderControls();
      if (instant) step(); else setTimeout(step, REVEAL_MS);
      return;
    }
    app.revealing = false;
    $("punto-total").textContent = rnd.punto_total ?? "";
    $("banco-total").textContent = rnd.banco_total ?? "";
    if (rnd.outcome) showResult(rnd);
    renderControls();
  };
  if (!app.revealing) step();
}

function showResult(rnd) {
  resultLine($("result"), rnd, app.settled, t, app.lang);
}

function renderControls() {
  const rnd = app.view && app.view.round;
  const inPlay = rnd && !["closed", "void"].includes(rnd.phase);
  $("stake-row").hidden = Boolean(inPlay);
  $("spots").classList.toggle("locked", Boolean(inPlay));
  for (const b of $("spots").children) {
    const kind = b.dataset.kind;
    b.querySelector(".odds").textContent = oddsOf(kind, app.view && app.view.paytable);
    b.querySelector(".amount").textContent = app.stakes[kind] ? money(app.stakes[kind],
                                                                      app.lang) : "";
    b.disabled = Boolean(inPlay) || app.revealing;
  }
  $("stake").textContent = total() ? money(total(), app.lang) : "–";
  $("stake").dataset.cents = total();
  $("btn-carte").disabled = !total() || app.revealing;
  $("btn-annulla").disabled = !total();
  for (const b of $("chips").children) {
    b.setAttribute("aria-checked", String(Number(b.dataset.value) === app.chip));
  }
}

function renderHistory(rounds) {
  historyLines($("history"), rounds, t, app.lang);
}

function applyLanguage() {
  document.documentElement.lang = app.lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  for (const b of $("spots").children) b.querySelector("strong").textContent = t(b.dataset.kind);
  $("lang").textContent = t("language");
  if (app.balance) renderBalance(app.balance);
  if (app.view) renderControls();
}

// ------------------------------------------------------------------------------ wiring

function wire() {
  $("spots").replaceChildren(...SPOTS.map((kind) => {
    const b = el("button", { class: `spot ${kind}`, "data-kind": kind,
                             "data-testid": `spot-${kind}` },
    el("strong", {}, t(kind)), el("span", { class: "odds" }),
    el("span", { class: "amount" }));
    b.addEventListener("click", () => {
      const lim = app.view ? app.view.limits : null;
      const max = lim ? (["punto", "banco"].includes(kind) ? lim.main_max : lim.side_max)
        : Infinity;
      app.stakes[kind] = Math.min((app.stakes[kind] || 0) + app.chip, max);
      renderControls();
    });
    return b;
  }));
  $("chips").replaceChildren(...CHIPS.map((v) => {
    const b = el("button", { class: "chip", role: "radio", "data-value": String(v),
                             "data-testid": `chip-${v}` },
    `€${v % 100 ? (v / 100).toFixed(2) : v / 100}`);
    b.addEventListener("click", () => { app.chip = v; renderControls(); });
    return b;
  }));
  $("btn-annulla").addEventListener("click", () => { app.stakes = {}; renderControls(); });
  $("btn-carte").addEventListener("click", async () => {
    app.settled = null;
    $("btn-carte").disabled = true;
    const bets = Object.entries(app.stakes).filter(([, a]) => a > 0)
      .map(([kind, amount]) => ({ position: 1, kind, amount }));
    const answer = await command("deal", { bets });
    if (!answer.ok) renderControls();
  });
  $("lang").addEventListener("click", () => {
    app.lang = app.lang === "it" ? "en" : "it";
    localStorage.setItem("lang", app.lang);
    applyLanguage();
  });
}

wire();
applyLanguage();
session.join();
