// The player's page of Sette e Mezzo Quota Fissa: one player against the bank, on the player's
// own private table. The chrome (token, commands, reconnection, card art) is /static/chrome.js;
// this file draws the hand and offers only the buttons the rules allow.
//
// The page renders from the server's "state" messages; cards that are new since the last
// render appear one by one (the bank's draws card by card), then the result.

import { cardImage, commands, el, privateSession, takeToken, toast } from "/static/chrome.js";
import { STRINGS as COMMON, halves, money } from "/static/i18n.js";

const TEXT = {
  it: {
    bank: "Banco", you: "Tu", stake: "Puntata", annulla: "Annulla", carte: "Carte",
    carta: "Carta", stai: "Stai", history: "Cronologia", balance: "Saldo", language: "English",
    rejoin: "Rientra", connected: "Connesso", win: "Hai vinto", lose: "Hai perso",
    push: "Pareggio: la puntata torna a te", bust: "Sballato", bank_bust: "Il banco sballa",
    reconnecting: "Riconnessione in corso…",
    disconnected: "Disconnesso: la connessione non è tornata. Rientra per riprendere la mano.",
    game_session_closed: "Sessione di gioco chiusa: il credito resta sul tuo conto di gioco.",
    no_history: "Nessuna mano giocata", limits: "Limiti",
    "session.replaced": "Hai aperto il gioco in un'altra finestra: questa sessione è chiusa.",
    "session.inactive": "Nessuna azione di gioco da 20 minuti: sessione chiusa per inattività.",
    "session.closed": "Sessione chiusa.",
    errors: {
      "decision.must_hit": "Sotto la carta del banco, o con la sola matta, devi tirare",
      "round.in_progress": "Finisci prima la mano in corso",
      "bet.bad_amount": "Scegli una puntata",
    },
  },
  en: {
    bank: "Bank", you: "You", stake: "Stake", annulla: "Annulla (clear)", carte: "Carte (deal)",
    carta: "Carta (hit)", stai: "Stai (stand)", history: "History", balance: "Balance",
    language: "Italiano", rejoin: "Rejoin", connected: "Connected", win: "You won",
    lose: "You lost", push: "Push: your stake comes back", bust: "Bust",
    bank_bust: "The bank busts", reconnecting: "Reconnecting…",
    disconnected: "Disconnected: the connection did not come back. Rejoin to resume the hand.",
    game_session_closed: "Game session closed: your credit stays in your game account.",
    no_history: "No hands played yet", limits: "Limits",
    "session.replaced": "You opened the game in another window: this session is closed.",
    "session.inactive": "No game action for 20 minutes: the session is closed.",
    "session.closed": "Session closed.",
    errors: {
      "decision.must_hit": "Below the bank's card, or with the matta alone, you must draw",
      "round.in_progress": "Finish the hand in play first",
      "bet.bad_amount": "Choose a stake",
    },
  },
};
const CHIPS = [50, 100, 500, 1000, 5000];
const REVEAL_MS = 450;

const params = new URLSearchParams(location.search);
const token = takeToken(params);
const app = {
  lang: params.get("lang") || localStorage.getItem("lang") || "it",
  tableId: params.get("table") || "sem-quota-fissa-1",
  session: null, view: null, balance: null, stake: 0, chip: 100, art: "napoletane",
  shown: { player: 0, bank: 0, round: null }, revealing: false, result: null,
  ws: null, retry: 0, retryUntil: null, closedCode: null, reconnectS: 120,
};
window.__qf = app; // tests and support staff read it

const $ = (id) => document.getElementById(id);
const t = (k) => (TEXT[app.lang] || TEXT.it)[k] ?? (COMMON[app.lang] || COMMON.it)[k] ?? k;
const errorText = (e) => (TEXT[app.lang].errors[e.code]
  || (COMMON[app.lang] || COMMON.it).errors[e.code] || e.message || e.code);

// ------------------------------------------------------------------------------ commands

const { api, command } = commands(token, app, {
  onError: (e) => showError(e), onBalance: (b) => renderBalance(b) });

function showError(error) {
  toast($("toast"), errorText(error), error.code);
  if (error.code && error.code.startsWith("session.")) session.close(error.code);
}

// ------------------------------------------------------------------------------ session

const session = privateSession(app, token, {
  t, api, showError, errorText,
  onJoined(joined) {
    app.shown = { player: 0, bank: 0, round: null };
    renderBalance(joined.balance);
    render(joined.table, true);
    renderHistory(joined.history);
  },
  onState(msg) {
    if (msg.balance) renderBalance(msg.balance);
    render(msg.table, false);
  },
  onEvent(ev) { if (ev.type === "hand_settled") app.result = ev; },
  onHistory: (rounds) => renderHistory(rounds),
});

// ------------------------------------------------------------------------------ rendering

function renderBalance(b) {
  app.balance = b;
  $("balance").textContent = money(b.available, app.lang);
  $("balance").dataset.cents = b.available;
}

function totalText(h) {
  if (h === null || h === undefined) return "";
  return h > 15 ? `${halves(h)} ✗` : halves(h);
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
    app.shown = { player: 0, bank: 0, round: rnd ? rnd.round_id : null };
    $("player-cards").replaceChildren();
    $("bank-cards").replaceChildren();
    $("player-total").textContent = "";
    $("bank-total").textContent = "";
    showResult(null);
    if (instant && rnd) {
      reveal(rnd, true);
      return;
    }
  }
  if (rnd) reveal(rnd, instant); else renderControls();
}

// New cards appear one at a time, the player's before the bank's (the order they are dealt).
function reveal(rnd, instant) {
  const player = rnd.positions["1"].cards;
  const bank = rnd.dealer;
  const step = () => {
    if (app.view.round !== rnd && app.view.round.round_id !== rnd.round_id) return;
    let card = null;
    if (app.shown.player < player.length && (app.shown.player <= app.shown.bank
        || app.shown.bank >= bank.length)) {
      card = ["player", player[app.shown.player++]];
    } else if (app.shown.bank < bank.length) {
      card = ["bank", bank[app.shown.bank++]];
    }
    if (card) {
      $(`${card[0]}-cards`).append(cardImage(card[1], app.art, app.lang));
      const shown = card[0] === "player" ? player.slice(0, app.shown.player)
        : bank.slice(0, app.shown.bank);
      $(`${card[0]}-total`).textContent = totalText(partialTotal(rnd, card[0], shown.length));
      app.revealing = true;
      renderControls();
      if (instant) step(); else setTimeout(step, REVEAL_MS);
      return;
    }
    app.revealing = false;
    $("player-total").textContent = totalText(rnd.positions["1"].total);
    $("bank-total").textContent = totalText(rnd.dealer_total);
    if (rnd.phase === "closed") showResult(app.result && app.result.cards.length
      === player.length ? app.result : null, rnd);
    renderControls();
  };
  if (!app.revealing) step();
}

// The total of the first n cards shown: the server's total once all are out; before that the
// page shows no arithmetic of its own (the matta's value is the server's to say).
function partialTotal(rnd, who, n) {
  const cards = who === "player" ? rnd.positions["1"].cards : rnd.dealer;
  if (n < cards.length) return null;
  return who === "player" ? rnd.positions["1"].total : rnd.dealer_total;
}

function showResult(result, rnd) {
  const box = $("result");
  if (!rnd || rnd.phase !== "closed") { box.hidden = true; return; }
  const r = result || {};
  const bust = rnd.positions["1"].total > 15;
  const bankBust = rnd.dealer_total > 15;
  const kind = r.result || (bust ? "lose" : "");
  let text = bust ? t("bust") : kind === "win" && bankBust ? `${t("bank_bust")}: ${t("win")}`
    : t(kind);
  if (kind === "win") text += ` ${money(r.returned, app.lang)}`;
  box.textContent = text;
  box.className = `result ${kind}`;
  box.dataset.result = kind;
  box.hidden = !kind;
}

function renderControls() {
  const rnd = app.view && app.view.round;
  const inPlay = rnd && !["closed", "void"].includes(rnd.phase);
  const choices = (!app.revealing && rnd && rnd.choices) || [];
  $("stake-row").hidden = Boolean(inPlay);
  $("decision").hidden = !choices.length;
  $("btn-carta").hidden = !choices.includes("carta");
  $("btn-stai").hidden = !choices.includes("stai");
  $("stake").textContent = app.stake ? money(app.stake, app.lang) : "–";
  $("stake").dataset.cents = app.stake;
  $("btn-carte").disabled = !app.stake || app.revealing;
  $("btn-annulla").disabled = !app.stake;
  for (const b of $("chips").children) {
    b.setAttribute("aria-checked", String(Number(b.dataset.value) === app.chip));
  }
}

function renderHistory(rounds) {
  const list = $("history");
  if (!rounds.length) { list.replaceChildren(el("li", { class: "empty" }, t("no_history"))); return; }
  list.replaceChildren(...rounds.map((r) => {
    const res = r.results[0] || {};
    const hand = r.hands["1"];
    const line = r.status === "void" ? `${money(r.returned, app.lang)} ↺`
      : `${t(res.result || "")} · ${hand ? hand.cards.join(" ") : ""} (${totalText(hand && hand.total)})`
        + ` – ${t("bank")} ${(res.bank || []).join(" ")} (${totalText(res.bank_total)})`
        + ` · ${r.net >= 0 ? "+" : ""}${money(r.net, app.lang)}`;
    return el("li", { "data-round": r.round_id }, line);
  }));
}

function applyLanguage() {
  document.documentElement.lang = app.lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  $("lang").textContent = t("language");
  if (app.balance) renderBalance(app.balance);
  if (app.view) renderControls();
}

// ------------------------------------------------------------------------------ wiring

function wire() {
  $("chips").replaceChildren(...CHIPS.map((v) => {
    const b = el("button", { class: "chip", role: "radio", "data-value": String(v),
                             "data-testid": `chip-${v}` }, `€${v % 100 ? (v / 100).toFixed(2) : v / 100}`);
    b.addEventListener("click", () => {
      app.chip = v;
      const max = app.view ? app.view.limits.main_max : Infinity;
      const credit = app.balance ? app.balance.available : Infinity;
      app.stake = Math.min(app.stake + v, max, credit);
      renderControls();
    });
    return b;
  }));
  $("btn-annulla").addEventListener("click", () => { app.stake = 0; renderControls(); });
  $("btn-carte").addEventListener("click", async () => {
    app.result = null;
    $("btn-carte").disabled = true;
    const answer = await command("deal", { amount: app.stake });
    if (!answer.ok) renderControls();
  });
  $("btn-carta").addEventListener("click", () => command("decide", { position: 1, choice: "carta" }));
  $("btn-stai").addEventListener("click", () => command("decide", { position: 1, choice: "stai" }));
  $("lang").addEventListener("click", () => {
    app.lang = app.lang === "it" ? "en" : "it";
    localStorage.setItem("lang", app.lang);
    applyLanguage();
  });
}

wire();
applyLanguage();
session.join();
