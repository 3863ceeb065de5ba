// What every live table's player page shares beyond the chrome: the table and the player's
// session from the address, the words, the balance with what is in play, the join and the
// WebSocket (state, events, history), the table video, the countdown of the betting window or
// of the player's decision, the "no more bets" banner, the chips, Annulla and Ripunta, and
// the language switch. A game's live page gives its words and draws its own table.
//
//   const page = livePage({ table: "bj-live-1", words, render, onEvent, renderHistory,
//                           onLanguage });
//   page.app.view, page.app.chip, page.t(key), page.command(name, body), page.tick(),
//   page.adopt(view) (the start of a render)
//
// The page's DOM has the chrome's ids (#conn, #alert, #overlay, #toast) and #balance,
// #reserved, #video, #still, #timer-box, #timer, #banner, #chips, #btn-cancel, #btn-repeat,
// #lang; `render(view)` sets `app.timer` ({left, at}) when a countdown runs.

import { commands, el, privateSession, startVideo, takeToken, toast } from "/static/chrome.js";
import { STRINGS as COMMON, money } from "/static/i18n.js";

const CHIPS = [100, 500, 1000, 2500, 10000];

export function livePage({ table, words, render, onEvent, renderHistory, onLanguage,
                           onChip }) {
  const params = new URLSearchParams(location.search);
  const token = takeToken(params);
  const app = {
    lang: params.get("lang") || localStorage.getItem("lang") || "it",
    tableId: params.get("table") || table,
    session: null, ws: null, retry: 0, retryUntil: null, closedCode: null, reconnectS: 120,
    view: null, balance: null, chip: 500, settled: null, timer: null, video: null,
  };
  const $ = (id) => document.getElementById(id);
  const t = (k) => (words[app.lang] || words.it)[k] ?? (COMMON[app.lang] || COMMON.it)[k] ?? k;
  const errorText = (e) => ((COMMON[app.lang] || COMMON.it).errors[e.code] || e.message
                            || e.code);

  function renderBalance(b) {
    app.balance = b;
    $("balance").textContent = money(b.available, app.lang);
    $("balance").dataset.cents = b.available;
    $("reserved").textContent = b.reserved ? `${money(b.reserved, app.lang)} ${t("reserved")}`
      : "";
  }
  function showError(error) {
    toast($("toast"), errorText(error), error.code);
    if (error.code && error.code.startsWith("session.")) session.close(error.code);
  }
  const { api, command } = commands(token, app, {
    onError: (e) => showError(e), onBalance: (b) => renderBalance(b) });

  function flash(text) {
    const b = $("banner");
    b.textContent = text;
    b.hidden = false;
    clearTimeout(flash.timer);
    flash.timer = setTimeout(() => { b.hidden = true; }, 2200);
  }
  const session = privateSession(app, token, {
    t, api, showError, errorText,
    onJoined(joined) {
      renderBalance(joined.balance);
      render(joined.table);
      renderHistory(joined.history);
      startVideo(app, token, $("video"), $("still"));
    },
    onState(msg) {
      if (msg.balance) renderBalance(msg.balance);
      render(msg.table);
    },
    onEvent(ev) {
      if (ev.type === "betting_closed") flash(t("stop_bets"));
      onEvent(ev);
    },
    onHistory: (rounds) => renderHistory(rounds),
  });

  function tick() {
    const tb = app.timer;
    $("timer-box").hidden = !tb;
    if (tb) $("timer").textContent = Math.ceil(Math.max(0, tb.left - (performance.now() - tb.at)
                                                        / 1000));
  }
  setInterval(tick, 250);

  function applyLanguage() {
    document.documentElement.lang = app.lang;
    for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
    $("lang").textContent = t("language");
    if (app.balance) renderBalance(app.balance);
    onLanguage();
    if (app.view) render(app.view);
  }

  function markChips() {
    for (const b of $("chips").children) {
      b.setAttribute("aria-checked", String(Number(b.dataset.value) === app.chip));
    }
  }
  $("chips").replaceChildren(...CHIPS.map((v) => {
    const b = el("button", { class: "chip", role: "radio", "data-value": String(v),
                             "data-testid": `chip-${v}` },
    `€${v % 100 ? (v / 100).toFixed(2) : v / 100}`);
    b.addEventListener("click", () => { app.chip = v; markChips(); if (onChip) onChip(); });
    return b;
  }));
  $("btn-cancel").addEventListener("click", () => command("cancel"));
  $("btn-repeat").addEventListener("click", () => command("repeat"));
  $("lang").addEventListener("click", () => {
    app.lang = app.lang === "it" ? "en" : "it";
    localStorage.setItem("lang", app.lang);
    applyLanguage();
  });

  // The start of every render: the view kept (a new round forgets the last result), the
  // table's name and limits; the round's phase ("none" between rounds).
  function adopt(view) {
    const before = app.view && app.view.round ? app.view.round.round_id : null;
    app.view = view;
    if (!view.round || view.round.round_id !== before) app.settled = null;
    $("table-name").textContent = view.name;
    const lim = view.limits;
    $("limits").textContent = `${t("limits")} ${money(lim.main_min, app.lang)} – `
      + `${money(lim.main_max, app.lang)}`;
    return view.round ? view.round.phase : "none";
  }

  function start() {
    applyLanguage();
    session.join();
  }
  return { app, t, command, tick, markChips, adopt, start };
}
