// The lobby: every table the player may open, as it is now (status, limits, players, the
// dealer, the last results, a baccarat shoe's beads), the balance and the time played under
// the casino's limits. The player goes from table to table on the same sign-in.

import { el, request, takeToken } from "/static/chrome.js";
import { money } from "/static/i18n.js";

const WORDS = {
  it: { title: "Lobby", balance: "Saldo", language: "English", play: "Gioca", players: "giocatori",
        dealer: "Croupier", limits: "Limiti", live: "Dal vivo", private: "Virtuale",
        seated: "Al tavolo", full: "Completo", betting: "Puntate aperte", playing: "In gioco", paused: "In pausa",
        shuffling: "Mescolata", closed: "Chiuso", waiting: "In attesa", open: "Aperto",
        played: "in gioco da", min: "min", no_results: "Nessun risultato ancora" },
  en: { title: "Lobby", balance: "Balance", language: "Italiano", play: "Play", players: "players",
        dealer: "Dealer", limits: "Limits", live: "Live", private: "Virtual",
        seated: "Players bank", full: "Full", betting: "Betting open", playing: "Playing", paused: "Paused", shuffling: "Shuffling",
        closed: "Closed", waiting: "Waiting", open: "Open", played: "playing for",
        min: "min", no_results: "No results yet" },
};
const params = new URLSearchParams(location.search);
const token = takeToken(params);
const app = { lang: params.get("lang") || localStorage.getItem("lang") || "it", data: null };
window.__lobby = app;
const $ = (id) => document.getElementById(id);
const t = (k) => (WORDS[app.lang] || WORDS.it)[k] ?? k;

function card(x) {
  const status = x.status === "betting" && x.closes_in_s !== undefined
    ? `${t("betting")} · ${x.closes_in_s}s` : t(x.status);
  const beads = x.roads ? el("div", { class: "beads" },
    ...x.roads.bead_plate.map(([, , w]) => el("span", { class: w }))) : "";
  return el("article", { class: "table-card", "data-testid": `table-${x.id}`, "data-game": x.game },
    el("h2", {}, x.name),
    el("div", { class: "game" }, `${t(x.pace)} · ${x.game}`),
    el("div", { class: "status", "data-status": x.status, "data-testid": `status-${x.id}` }, status),
    el("div", {}, `${t("limits")} ${money(x.limits.min, app.lang)} – ${money(x.limits.max, app.lang)}`),
    el("div", { "data-testid": `players-${x.id}` }, `${x.players} ${t("players")}`),
    x.dealer ? el("div", { "data-testid": `dealer-${x.id}` }, `${t("dealer")}: ${x.dealer}`) : "",
    el("div", { class: "results", "data-testid": `results-${x.id}` },
       x.results.length ? x.results.join(" · ") : (x.pace === "live" ? t("no_results") : "")),
    beads,
    el("a", { class: "play", href: `${x.href || `/play?table=${encodeURIComponent(x.id)}`}`
                                     + `&lang=${app.lang}`,
              "data-testid": `play-${x.id}` }, t("play")));
}

function render() {
  const d = app.data;
  if (!d) return;
  $("balance").textContent = money(d.balance.available, app.lang);
  $("balance").dataset.cents = d.balance.available;
  const lim = d.limits;
  $("session").textContent = lim && lim.limits
    ? `${t("played")} ${Math.floor(lim.played_s / 60)} ${t("min")}` : "";
  $("tables").replaceChildren(...d.tables.map(card));
}

async function refresh() {
  const answer = await request(token, null, "/api/lobby");
  if (!answer.ok) {
    $("error").textContent = answer.error.message;
    $("error").dataset.code = answer.error.code;
    $("error").hidden = false;
    return;
  }
  $("error").hidden = true;
  app.data = answer;
  render();
}

function applyLanguage() {
  document.documentElement.lang = app.lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  $("lang").textContent = t("language");
  render();
}

$("lang").addEventListener("click", () => {
  app.lang = app.lang === "it" ? "en" : "it";
  localStorage.setItem("lang", app.lang);
  applyLanguage();
});
applyLanguage();
refresh();
setInterval(refresh, 3000);
