// The player's page of the regulation's virtual Blackjack table. Chips on the five positions
// (main, Player Pair, 21+3) and on Dealer Pair; the CLEAR chip empties the spot it is laid on;
// DELETE takes every chip off; START deals (after a hand it reads REPEAT: the same stakes as
// the last hand, dealt at once; laying chips by hand turns it back into START). Then the
// positions play from the right with only the buttons the rules allow (STAY, HIT, DOUBLE,
// SPLIT; insurance per position, or for all, when the dealer shows an ace). The dealer's
// second card stays face down until the players are done: the server never sends it before.

import { cardImage, commands, el, privateSession, takeToken, toast } from "/static/chrome.js";
import { STRINGS as COMMON, money } from "/static/i18n.js";
import { WORDS, dealerCards, historyItems, showResult as resultBox } from "/games/blackjack/bj_common.js";

const TEXT = WORDS;
const KINDS = ["main", "player_pair", "twenty_one_three"];
const CHIPS = [100, 500, 1000, 2500, 10000];
const CLEAR = 0; // the CLEAR chip

const params = new URLSearchParams(location.search);
const token = takeToken(params);
const app = {
  lang: params.get("lang") || localStorage.getItem("lang") || "it",
  tableId: params.get("table") || "bj-virtual-1",
  session: null, ws: null, retry: 0, retryUntil: null, closedCode: null, reconnectS: 120,
  view: null, balance: null, chip: 500, stakes: {}, last: null, settled: null,
};
window.__bj = app; // tests and support staff read it

const $ = (id) => document.getElementById(id);
const t = (k) => (TEXT[app.lang] || TEXT.it)[k] ?? (COMMON[app.lang] || COMMON.it)[k] ?? k;
const errorText = (e) => ((COMMON[app.lang] || COMMON.it).errors[e.code] || e.message || e.code);
const total = () => Object.values(app.stakes).reduce((a, b) => a + b, 0);
const spotKey = (position, kind) => `${position}:${kind}`;

const { api, command } = commands(token, app, {
  onError: (e) => showError(e), onBalance: (b) => renderBalance(b) });

function showError(error) {
  toast($("toast"), errorText(error), error.code);
  if (error.code && error.code.startsWith("session.")) session.close(error.code);
}

const session = privateSession(app, token, {
  t, api, showError, errorText,
  onJoined(joined) { renderBalance(joined.balance); render(joined.table); renderHistory(joined.history); },
  onState(msg) { if (msg.balance) renderBalance(msg.balance); render(msg.table); },
  onEvent(ev) { if (ev.type === "game_settled") app.settled = ev; },
  onHistory: (rounds) => renderHistory(rounds),
});

function renderBalance(b) {
  app.balance = b;
  $("balance").textContent = money(b.available, app.lang);
  $("balance").dataset.cents = b.available;
}

const inPlay = () => { const r = app.view && app.view.round;
  return !!r && !["closed", "void"].includes(r.phase); };

function render(view) {
  app.view = view;
  $("table-name").textContent = view.name;
  const lim = view.limits;
  $("limits").textContent = `${t("limits")} ${money(lim.main_min, app.lang)} – `
    + `${money(lim.main_max, app.lang)}`;
  const rnd = view.round;
  const dealer = rnd ? rnd.dealer : [];
  $("dealer-cards").replaceChildren(...dealerCards(dealer, view.deck_art, app.lang));
  $("dealer-total").textContent = rnd && rnd.dealer_total !== null ? rnd.dealer_total : "";
  renderPositions();
  renderDecision();
  if (rnd && rnd.phase === "closed" && app.settled && app.settled.round_id === rnd.round_id) {
    showResult();
  } else if (inPlay()) {
    $("result").hidden = true;
  }
  renderControls();
}

function renderPositions() {
  const rnd = app.view && app.view.round;
  const playing = inPlay() || (rnd && rnd.phase === "closed");
  const box = $("positions");
  box.replaceChildren(...[1, 2, 3, 4, 5].map((n) => {
    const pos = playing && rnd.positions[String(n)];
    const hands = pos ? pos.hands.map((h, i) => el("div", { class: "hand-line",
      "data-testid": `hand-${n}-${i}` }, ...h.cards.map((c) => cardImage(c, app.view.deck_art,
      app.lang)), el("strong", {}, ` ${h.total}${h.soft ? "*" : ""}`))) : [];
    const spots = KINDS.map((kind) => {
      const amount = pos ? (kind === "main" ? pos.bet : pos[kind])
        : app.stakes[spotKey(n, kind)] || 0;
      const b = el("button", { class: `spot ${kind}`, "data-testid": `spot-${n}-${kind}` },
        el("strong", {}, t(kind)), el("span", { class: "amount" },
          amount ? money(amount, app.lang) : ""));
      b.disabled = inPlay();
      b.addEventListener("click", () => lay(n, kind));
      return b;
    });
    const deciding = rnd && rnd.deciding === n && inPlay();
    return el("article", { class: `bj-position${deciding ? " deciding" : ""}`,
      "data-testid": `position-${n}` }, el("header", {}, `${t("position")} ${n}`),
    el("div", { class: "cards" }, ...hands), ...spots);
  }));
  const dp = $("dealer-pair");
  const amount = playing && rnd.dealer_pair ? rnd.dealer_pair : app.stakes[spotKey(0, "dealer_pair")];
  dp.querySelector(".amount").textContent = amount ? money(amount, app.lang) : "";
  dp.disabled = inPlay();
}

function renderDecision() {
  const rnd = app.view && app.view.round;
  const choices = (rnd && inPlay() && rnd.choices) || [];
  $("decision").hidden = !choices.length;
  if (!choices.length) return;
  $("decision-text").textContent = rnd.insurance ? `${t("insurance_q")} (${t("position")} `
    + `${rnd.deciding})` : `${t("your_turn")} (${t("position")} ${rnd.deciding})`;
  const buttons = choices.map((c) => {
    const b = el("button", { "data-testid": `btn-${c}` }, t(c));
    b.addEventListener("click", () => decide(rnd.deciding, c));
    return b;
  });
  if (rnd.insurance) {
    const all = el("button", { "data-testid": "btn-insure_all" }, t("insure_all"));
    all.addEventListener("click", async () => {
      const open = Object.entries(rnd.positions).filter(([, p]) => p.insurance === null);
      for (const [n] of open) {
        const a = await command("decide", { position: Number(n), choice: "insure" });
        if (!a.ok) break;
      }
    });
    buttons.push(all);
  }
  $("buttons").replaceChildren(...buttons);
}

async function decide(position, choice) {
  $("decision").hidden = true;
  const a = await command("decide", { position, choice });
  if (!a.ok && app.view) renderDecision();
}

function lay(position, kind) {
  const key = spotKey(position, kind);
  if (app.chip === CLEAR) delete app.stakes[key];
  else app.stakes[key] = (app.stakes[key] || 0) + app.chip;
  app.last = null; // laying chips by hand: START again
  renderPositions();
  renderControls();
}

function renderControls() {
  $("stake-row").hidden = inPlay();
  $("stake").textContent = total() ? money(total(), app.lang) : "–";
  $("stake").dataset.cents = total();
  const repeat = !total() && app.last;
  $("btn-start").textContent = repeat ? "REPEAT" : "START";
  $("btn-start").dataset.mode = repeat ? "repeat" : "start";
  $("btn-start").disabled = !total() && !app.last;
  $("btn-delete").disabled = !total();
  for (const b of $("chips").children) {
    b.setAttribute("aria-checked", String(Number(b.dataset.value) === app.chip));
  }
}

function showResult() {
  resultBox($("result"), app.settled.bets, t, app.lang);
}

function renderHistory(rounds) {
  $("history").replaceChildren(...historyItems(rounds, t, app.lang));
}

async function start() {
  let stakes = app.stakes;
  if (!total() && app.last) stakes = app.last; // REPEAT
  const bets = Object.entries(stakes).map(([key, amount]) => {
    const [position, kind] = key.split(":");
    return { position: Number(position), kind, amount };
  });
  if (!bets.length) return;
  app.settled = null;
  $("btn-start").disabled = true;
  const answer = await command("deal", { bets });
  if (answer.ok) { app.last = { ...stakes }; app.stakes = {}; }
  renderControls();
}

function applyLanguage() {
  document.documentElement.lang = app.lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  $("lang").textContent = t("language");
  if (app.balance) renderBalance(app.balance);
  if (app.view) render(app.view); else renderPositions();
}

function wire() {
  $("chips").replaceChildren(...[CLEAR, ...CHIPS].map((v) => {
    const b = el("button", { class: `chip${v === CLEAR ? " clear" : ""}`, role: "radio",
      "data-value": String(v), "data-testid": v === CLEAR ? "chip-clear" : `chip-${v}` },
    v === CLEAR ? "CLEAR" : `€${v / 100}`);
    b.addEventListener("click", () => { app.chip = v; renderControls(); });
    return b;
  }));
  $("dealer-pair").addEventListener("click", () => lay(0, "dealer_pair"));
  $("btn-delete").addEventListener("click", () => { app.stakes = {}; renderPositions();
    renderControls(); });
  $("btn-start").addEventListener("click", start);
  $("lang").addEventListener("click", () => {
    app.lang = app.lang === "it" ? "en" : "it";
    localStorage.setItem("lang", app.lang);
    applyLanguage();
  });
}

wire();
applyLanguage();
session.join();
