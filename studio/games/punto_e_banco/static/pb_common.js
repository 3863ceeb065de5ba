// What the two Punto e Banco pages (the virtual table, the live table) show the same way: the
// words of the bets and results, the result of a hand with the player's return and Banco's
// commission, the history lines, a spot's odds from the table's paytable.

import { el } from "/static/chrome.js";
import { money } from "/static/i18n.js";

export const WORDS = {
  it: {
    punto: "Punto", banco: "Banco", pari: "Pari", punto_pair: "Punto Pair",
    banco_pair: "Banco Pair", annulla: "Annulla", history: "Cronologia", balance: "Saldo",
    language: "English", rejoin: "Rientra", connected: "Connesso",
    reconnecting: "Riconnessione in corso…",
    disconnected: "Disconnesso: la connessione non è tornata.",
    won_punto: "Vince Punto", won_banco: "Vince Banco", won_pari: "Pari",
    you_get: "Ti torna", commission: "commissione", no_history: "Nessuna mano giocata",
    limits: "Limiti", "session.inactive": "Nessuna azione di gioco da 20 minuti: sessione chiusa.",
    "session.replaced": "Hai aperto il gioco in un'altra finestra: questa sessione è chiusa.",
    "session.closed": "Sessione chiusa.", errors: {},
  },
  en: {
    punto: "Punto (player)", banco: "Banco (bank)", pari: "Pari (tie)",
    punto_pair: "Punto Pair", banco_pair: "Banco Pair", annulla: "Annulla (clear)",
    history: "History", balance: "Balance", language: "Italiano", rejoin: "Rejoin",
    connected: "Connected", reconnecting: "Reconnecting…",
    disconnected: "Disconnected: the connection did not come back.",
    won_punto: "Punto wins", won_banco: "Banco wins", won_pari: "Tie", you_get: "You get",
    commission: "commission", no_history: "No hands played yet", limits: "Limits",
    "session.inactive": "No game action for 20 minutes: the session is closed.",
    "session.replaced": "You opened the game in another window: this session is closed.",
    "session.closed": "Session closed.", errors: {},
  },
};

// The result of hand `rnd` in `box`: who won, and what came back to the player (`settled`,
// the player's player_settled event of that hand, if any) with Banco's commission.
export function showResult(box, rnd, settled, t, lang) {
  const mine = settled && settled.round_id === rnd.round_id ? settled : null;
  let text = t(`won_${rnd.outcome}`);
  if (mine) {
    const back = mine.bets.reduce((a, b) => a + b.returned, 0);
    const fee = mine.bets.reduce((a, b) => a + b.commission, 0);
    text += ` · ${t("you_get")} ${money(back, lang)}`
      + (fee ? ` (${t("commission")} ${money(fee, lang)})` : "");
  }
  box.textContent = text;
  box.className = `result ${rnd.outcome === "pari" ? "push" : "win"}`;
  box.dataset.outcome = rnd.outcome;
  box.hidden = false;
}

export function renderHistory(list, rounds, t, lang) {
  if (!rounds || !rounds.length) { list.replaceChildren(el("li", {}, t("no_history"))); return; }
  list.replaceChildren(...rounds.map((r) => el("li", { "data-round": r.round_id },
    r.status === "void" ? `${money(r.returned, lang)} ↺`
      : `${t(`won_${r.outcome}`)} · ${t("punto")} ${(r.punto || []).join(" ")} (${r.punto_total})`
        + ` – ${t("banco")} ${(r.banco || []).join(" ")} (${r.banco_total})`
        + ` · ${r.net >= 0 ? "+" : ""}${money(r.net, lang)}`)));
}

// A spot's odds as the table pays them (Banco with its commission).
export function oddsOf(kind, paytable) {
  const pt = paytable || {};
  return kind === "banco" && pt.banco_commission_pct
    ? `${pt.banco} − ${pt.banco_commission_pct}%` : pt[kind] || "";
}
