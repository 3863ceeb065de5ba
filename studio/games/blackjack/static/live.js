// The player's page of the live Blackjack table: the video, seven seats from the right. In the
// betting window a free seat is taken by laying a chip on it ("Siediti": the seat is yours for
// the round, with Player Pair and 21+3 beside it); on a seat another player took, a chip is a
// bet behind ("Punta dietro"), which follows that player's double, split and insurance where
// your credit allows. Then the cards as the dealer deals them, the hole card face down until
// the players are done, and on your seat's turn only the buttons the rules allow, with the
// timer (no answer: stand). The page draws what the server says; it never learns who sits.

import { cardImage, el } from "/static/chrome.js";
import { money } from "/static/i18n.js";
import { livePage } from "/static/live_page.js";
import { WORDS, dealerCards, historyItems, showResult as resultBox } from "/games/blackjack/bj_common.js";

const SIDE = ["player_pair", "twenty_one_three"];

const page = livePage({
  table: "bj-live-1", words: WORDS, render, renderHistory, onLanguage: () => {},
  onEvent(ev) {
    if (ev.type === "game_settled") { app.settled = ev; if (app.view) showResult(); }
  },
});
const { app, t, command, tick } = page;
window.__bjLive = app; // tests and support staff read it
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------------------ rendering

function render(view) {
  const phase = page.adopt(view);
  const rnd = view.round;
  let text = view.paused ? t("paused") : t(`phase_${phase}`);
  if (!view.paused && rnd && rnd.expecting === "burn a card") text += ` · ${t("burn")}`;
  else if (!view.paused && rnd && rnd.deciding) text += ` · ${t("seat_deciding")} ${rnd.deciding}`;
  $("phase").textContent = text;
  $("phase").dataset.phase = view.paused ? "paused" : phase;
  $("shoe-note").hidden = !(view.changing_shoe || view.last_hand_of_shoe);
  $("shoe-note").textContent = view.changing_shoe ? t("shuffling") : t("last_hand");
  $("dealer-cards").replaceChildren(...dealerCards(rnd ? rnd.dealer || [] : [], view.deck_art,
                                                   app.lang));
  $("dealer-total").textContent = rnd && rnd.dealer_total !== null
    && rnd.dealer_total !== undefined ? rnd.dealer_total : "";
  renderSeats();
  renderDecision();
  if (rnd && rnd.phase === "closed" && app.settled) showResult(); else $("result").hidden = true;
  renderControls();
  const d = rnd && rnd.decision;
  app.timer = view.paused ? null : phase === "betting"
    ? { left: rnd.closes_at - view.server_time, at: performance.now() }
    : d && rnd.choices && rnd.choices.length
      ? { left: d.deadline - view.server_time, at: performance.now() } : null;
  tick();
}

const betting = () => { const v = app.view;
  return !!v && !v.paused && !!v.round && v.round.phase === "betting"; };

function myBets() {
  const out = {};
  for (const b of (app.view && app.view.round && app.view.round.my_bets) || []) {
    const key = `${b.position}:${b.kind}`;
    out[key] = (out[key] || 0) + b.amount;
  }
  return out;
}

function seatButton(label, testid, onClick, amount) {
  const b = el("button", { "data-testid": testid }, label,
               amount ? el("span", { class: "amount" }, ` ${money(amount, app.lang)}`) : "");
  b.disabled = !betting();
  b.addEventListener("click", onClick);
  return b;
}

function lay(position, kind) {
  command("bets", { bets: [{ position, kind, amount: app.chip }] });
}

function renderSeats() {
  const view = app.view;
  const rnd = view && view.round;
  const seats = (rnd && rnd.seats) || {};
  const mine = myBets();
  const hands = {};
  for (const h of (rnd && rnd.hands) || []) hands[h.place] = h;
  const count = (view && view.positions) || 7;
  $("seats").replaceChildren(...Array.from({ length: count }, (_, i) => i + 1).map((n) => {
    const s = seats[String(n)] || { taken: false, mine: false, behind: 0, behind_total: 0,
                                    my_behind: 0 };
    const own = s.mine || !!mine[`${n}:main`];
    const state = own ? t("yours") : s.taken ? t("taken") : t("free");
    const pos = rnd && rnd.positions ? rnd.positions[String(n)] : null;
    const lines = pos ? pos.hands.map((h, i) => el("div", {
      class: `hand-line${rnd.next_to === `${n}.${i + 1}` ? " now" : ""}`,
      "data-testid": `hand-${n}-${i}` },
    ...h.cards.map((c) => cardImage(c, view.deck_art, app.lang)),
    el("strong", {}, ` ${h.total}${h.soft ? "*" : ""}`))) : [];
    const actions = [];
    if (!s.taken || own) {
      actions.push(seatButton(t("take_seat"), `seat-${n}-main`, () => lay(n, "main"),
                              mine[`${n}:main`]));
      if (own) {
        for (const kind of SIDE) {
          actions.push(seatButton(t(kind), `seat-${n}-${kind}`, () => lay(n, kind),
                                  mine[`${n}:${kind}`]));
        }
      }
    } else {
      actions.push(seatButton(t("bet_behind"), `seat-${n}-behind`, () => lay(n, "behind"),
                              s.my_behind));
    }
    const behind = s.behind ? `${s.behind} ${t("behind")} · ${money(s.behind_total, app.lang)}`
      : "";
    return el("article", { class: `bj-position seat${own ? " mine" : ""}${
      rnd && rnd.deciding === n ? " deciding" : ""}`, "data-testid": `seat-${n}`,
    "data-state": own ? "mine" : s.taken ? "taken" : "free" },
    el("header", {}, `${t("seat")} ${n}`), el("div", { class: "state" }, state),
    el("div", { class: "cards" }, ...lines),
    el("div", { class: "behind", "data-testid": `behind-${n}` }, behind),
    s.my_behind ? el("div", { class: "behind mine", "data-testid": `my-behind-${n}` },
                     `${t("my_behind")} ${money(s.my_behind, app.lang)}`) : "",
    betting() ? el("div", { class: "actions" }, ...actions) : "");
  }));
}

function renderDecision() {
  const rnd = app.view && app.view.round;
  const choices = (rnd && !app.view.paused && rnd.choices) || [];
  $("decision").hidden = !choices.length;
  if (!choices.length) return;
  $("decision-text").textContent = rnd.insurance
    ? `${t("insurance_q")} (${t("seat")} ${rnd.deciding})`
    : `${t("your_turn")} (${t("seat")} ${rnd.deciding})`;
  $("buttons").replaceChildren(...choices.map((c) => {
    const b = el("button", { "data-testid": `btn-${c}` }, t(c));
    b.addEventListener("click", () => decide(rnd.deciding, c));
    return b;
  }));
}

async function decide(position, choice) {
  $("decision").hidden = true;
  const a = await command("decide", { position, choice });
  if (!a.ok && app.view) renderDecision();
}

function renderControls() {
  const my = Object.keys(myBets()).length;
  $("btn-cancel").disabled = !betting() || !my;
  $("btn-repeat").disabled = !betting() || my > 0;
  page.markChips();
}

function showResult() {
  resultBox($("result"), app.settled.bets, t, app.lang);
}

function renderHistory(rounds) {
  $("history").replaceChildren(...historyItems(rounds, t, app.lang));
}

page.start();
