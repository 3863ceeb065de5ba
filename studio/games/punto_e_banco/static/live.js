// The player's page of the live Punto e Banco table: the video, the betting window (chips on
// Punto, Banco, Pari and the pairs, Annulla, Ripunta), the cards as the dealer deals them from
// the shoe, the result with Banco's commission, and the scoreboards of the shoe that baccarat
// players follow (bead plate, big road, big eye boy, small road, cockroach pig, the counts).
// The page draws what the server says (the state on every (re)connection and after every burst
// of events); the roads are computed by the server from the shoe's hands, never here.

import { cardImage, el } from "/static/chrome.js";
import { livePage } from "/static/live_page.js";
import { money } from "/static/i18n.js";
import { WORDS, oddsOf, renderHistory as historyLines, showResult as resultLine } from
  "/games/punto-e-banco-live/pb_common.js";

const TEXT = {
  it: {
    ...WORDS.it, ripunta: "Ripunta", reserved: "in gioco", video_still: "Video del tavolo",
    stop_bets: "Stop alle puntate", phase_none: "In attesa della prossima mano",
    phase_betting: "Piazzate le vostre puntate", phase_deal: "Distribuzione delle carte",
    phase_closed: "Mano conclusa", phase_void: "Mano annullata", paused: "Tavolo in pausa",
    next_to: "Prossima carta a", last_hand: "Carta di taglio: ultima mano di questo sabot",
    shuffling: "Cambio del sabot: le carte vengono mescolate", hands: "Mani", pairs: "Coppie",
    bead_plate: "Bead plate", big_road: "Big road", big_eye_boy: "Big eye boy",
    small_road: "Small road", cockroach_pig: "Cockroach pig",
    burn: "il croupier scarta una carta",
  },
  en: {
    ...WORDS.en, ripunta: "Ripunta (repeat)", reserved: "in play", video_still: "Table video",
    stop_bets: "No more bets", phase_none: "Waiting for the next hand",
    phase_betting: "Place your bets", phase_deal: "Dealing", phase_closed: "Hand over",
    phase_void: "Hand void", paused: "Table paused", next_to: "Next card to",
    last_hand: "Cut card: last hand of this shoe",
    shuffling: "New shoe: the cards are being shuffled", hands: "Hands", pairs: "Pairs",
    bead_plate: "Bead plate", big_road: "Big road", big_eye_boy: "Big eye boy",
    small_road: "Small road", cockroach_pig: "Cockroach pig", burn: "the dealer burns a card",
  },
};
const KINDS = ["punto", "banco", "pari", "punto_pair", "banco_pair"];

const page = livePage({
  table: "pb-live-1", words: TEXT, render, renderHistory, onChip: () => renderSpots(),
  onLanguage() {
    for (const b of $("spots").children) b.querySelector("strong").textContent = t(b.dataset.kind);
  },
  onEvent(ev) {
    if (ev.type === "player_settled") { app.settled = ev; if (app.view) showResult(); }
    else if (ev.type === "shoe_scoreboard" && app.view) { app.view.shoe = ev; renderRoads(); }
  },
});
const { app, t, command, tick } = page;
window.__pbLive = app; // tests and support staff read it
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------------------ rendering

function render(view) {
  const phase = page.adopt(view);
  const rnd = view.round;
  let text = view.paused ? t("paused") : t(`phase_${phase}`);
  if (!view.paused && rnd && rnd.next_to) {
    text += ` · ${rnd.next_to === "burn" ? t("burn") : `${t("next_to")} ${t(rnd.next_to)}`}`;
  }
  $("phase").textContent = text;
  $("phase").dataset.phase = view.paused ? "paused" : phase;
  $("shoe-note").hidden = !(view.changing_shoe || view.last_hand_of_shoe);
  $("shoe-note").textContent = view.changing_shoe ? t("shuffling") : t("last_hand");
  $("shoe-note").dataset.state = view.changing_shoe ? "shuffling" : "last_hand";
  for (const side of ["punto", "banco"]) {
    const cards = rnd ? rnd[side] : [];
    $(`${side}-cards`).replaceChildren(...cards.map((c) => cardImage(c, view.deck_art,
                                                                      app.lang)));
    $(`${side}-total`).textContent = rnd && rnd[`${side}_total`] !== null
      && rnd[`${side}_total`] !== undefined ? rnd[`${side}_total`] : "";
  }
  if (rnd && rnd.outcome) showResult(); else $("result").hidden = true;
  renderSpots();
  renderRoads();
  app.timer = phase === "betting" && !view.paused
    ? { left: rnd.closes_at - view.server_time, at: performance.now() } : null;
  tick();
}

function mine() {
  const out = {};
  for (const b of (app.view && app.view.round && app.view.round.my_bets) || []) {
    out[b.kind] = (out[b.kind] || 0) + b.amount;
  }
  return out;
}

function renderSpots() {
  const view = app.view;
  const betting = !!view && !view.paused && view.round && view.round.phase === "betting";
  const my = mine();
  for (const b of $("spots").children) {
    const kind = b.dataset.kind;
    b.disabled = !betting;
    b.classList.toggle("has-bet", !!my[kind]);
    b.querySelector(".amount").textContent = my[kind] ? money(my[kind], app.lang) : "";
    b.querySelector(".odds").textContent = oddsOf(kind, view && view.paytable);
  }
  $("btn-cancel").disabled = !betting || !Object.keys(my).length;
  $("btn-repeat").disabled = !betting || Object.keys(my).length > 0;
  page.markChips();
}

function showResult() {
  const rnd = app.view.round;
  if (rnd && rnd.outcome) resultLine($("result"), rnd, app.settled, t, app.lang);
}

function mark(col, row, cls, text = "", title = "") {
  return el("span", { class: `mark ${cls}`, style: `grid-column:${col + 1};grid-row:${row + 1}`,
                      title }, text);
}

function renderRoads() {
  const shoe = app.view && app.view.shoe;
  if (!shoe) return;
  const c = shoe.counts;
  $("shoe-stats").replaceChildren(
    el("span", { "data-stat": "hands" }, `${t("hands")} `, el("b", {}, String(shoe.hands))),
    el("span", { "data-stat": "punto" }, `${t("punto")} `, el("b", {}, String(c.punto))),
    el("span", { "data-stat": "banco" }, `${t("banco")} `, el("b", {}, String(c.banco))),
    el("span", { "data-stat": "pari" }, `${t("pari")} `, el("b", {}, String(c.pari))),
    el("span", { "data-stat": "pairs" }, `${t("pairs")} `,
       el("b", {}, `${shoe.pairs.punto_pair} / ${shoe.pairs.banco_pair}`)));
  $("bead-plate").replaceChildren(...shoe.bead_plate.map(([col, row, w]) =>
    mark(col, row, w, { P: "P", B: "B", T: "T" }[w])));
  $("big-road").replaceChildren(...shoe.big_road.map(([col, row, w, ties]) =>
    mark(col, row, w, ties ? String(ties) : "", ties ? `${t("pari")} ×${ties}` : "")));
  for (const [id, key] of [["big-eye-boy", "big_eye_boy"], ["small-road", "small_road"],
                           ["cockroach-pig", "cockroach_pig"]]) {
    const marks = [];
    shoe[key].forEach((column, col) => column.slice(0, 6).forEach((m, row) =>
      marks.push(mark(col, row, m))));
    $(id).replaceChildren(...marks);
  }
}

function renderHistory(rounds) {
  historyLines($("history"), rounds, t, app.lang);
}

// ------------------------------------------------------------------------------ wiring

$("spots").replaceChildren(...KINDS.map((kind) => {
  const b = el("button", { class: `spot ${kind}`, "data-kind": kind,
                           "data-testid": `spot-${kind}` },
  el("strong", {}, t(kind)), el("span", { class: "odds" }), el("span", { class: "amount" }));
  b.addEventListener("click", () => command("bets", {
    bets: [{ position: 1, kind, amount: app.chip }] }));
  return b;
}));
page.start();
