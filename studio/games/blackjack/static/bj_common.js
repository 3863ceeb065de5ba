// What the virtual table's page and the live one share: Blackjack's words (Italian, English)
// and the dealer's cards, the hole card drawn as a card's back until the server turns it over.

import { cardImage, el } from "/static/chrome.js";
import { money } from "/static/i18n.js";

export const WORDS = {
  it: {
    seat: "Posto", take_seat: "Siediti", bet_behind: "Punta dietro", free: "Libero",
    taken: "Occupato", yours: "Il tuo posto", behind: "dietro", my_behind: "La tua puntata dietro",
    annulla: "Annulla", ripunta: "Ripunta", reserved: "in gioco", video_still: "Video del tavolo",
    stop_bets: "Stop alle puntate", phase_none: "In attesa della prossima mano",
    phase_betting: "Piazzate le vostre puntate", phase_deal: "Distribuzione delle carte",
    phase_insurance: "Assicurazione", phase_decisions: "I giocatori decidono",
    phase_dealer: "Gioca il banco", phase_closed: "Mano conclusa", phase_void: "Mano annullata",
    paused: "Tavolo in pausa", burn: "il croupier scarta una carta",
    shuffling: "Cambio del sabot: le carte vengono mescolate",
    last_hand: "Carta di taglio: ultima mano di questo sabot", seat_deciding: "Decide il posto",
    no_seat: "Posto non occupato: puntata rimborsata",
    dealer: "Banco", dealer_pair: "Coppia del banco", main: "Puntata", player_pair:
    "Coppia del giocatore", twenty_one_three: "21+3", position: "Postazione", stake: "Puntata",
    history: "Cronologia", balance: "Saldo", language: "English", rejoin: "Rientra",
    connected: "Connesso", reconnecting: "Riconnessione in corso…",
    disconnected: "Disconnesso: la connessione non è tornata.", limits: "Limiti",
    stay: "STAY", hit: "HIT", double: "DOUBLE", split: "SPLIT", insure: "ASSICURAZIONE",
    no_insurance: "NO", insure_all: "ASSICURA TUTTE", your_turn: "Tocca a te", insurance_q:
    "Assicurazione?", won: "Vinto", lost: "Perso", push: "Pari", blackjack: "Blackjack",
    you_get: "Ti torna", no_history: "Nessuna partita giocata",
    game_session_closed: "Sessione chiusa: il credito resta sul tuo conto.",
    "session.inactive": "Nessuna azione di gioco da 20 minuti: sessione chiusa.",
    "session.replaced": "Hai aperto il gioco in un'altra finestra: questa sessione è chiusa.",
    "session.closed": "Sessione chiusa.",
  },
  en: {
    seat: "Seat", take_seat: "Sit", bet_behind: "Bet behind", free: "Free", taken: "Taken",
    yours: "Your seat", behind: "behind", my_behind: "Your bet behind", annulla: "Cancel",
    ripunta: "Ripunta (repeat)", reserved: "in play", video_still: "Table video",
    stop_bets: "No more bets", phase_none: "Waiting for the next hand",
    phase_betting: "Place your bets", phase_deal: "Dealing", phase_insurance: "Insurance",
    phase_decisions: "Players decide", phase_dealer: "The dealer plays",
    phase_closed: "Hand over", phase_void: "Hand void", paused: "Table paused",
    burn: "the dealer burns a card", shuffling: "New shoe: the cards are being shuffled",
    last_hand: "Cut card: last hand of this shoe", seat_deciding: "Deciding: seat",
    no_seat: "Nobody took the seat: bet refunded",
    dealer: "Dealer", dealer_pair: "Dealer Pair", main: "Bet", player_pair: "Player Pair",
    twenty_one_three: "21+3", position: "Position", stake: "Stake", history: "History",
    balance: "Balance", language: "Italiano", rejoin: "Rejoin", connected: "Connected",
    reconnecting: "Reconnecting…", disconnected: "Disconnected: the connection did not come back.",
    limits: "Limits", stay: "STAY", hit: "HIT", double: "DOUBLE", split: "SPLIT",
    insure: "INSURANCE", no_insurance: "NO", insure_all: "INSURE ALL", your_turn: "Your turn",
    insurance_q: "Insurance?", won: "Won", lost: "Lost", push: "Push", blackjack: "Blackjack",
    you_get: "You get", no_history: "No games played yet",
    game_session_closed: "Session closed: your credit stays in your game account.",
    "session.inactive": "No game action for 20 minutes: the session is closed.",
    "session.replaced": "You opened the game in another window: this session is closed.",
    "session.closed": "Session closed.",
  },
};

export function dealerCards(codes, art, lang) {
  return codes.map((c) => (c ? cardImage(c, art, lang) : el("img", { class: "card-img",
    src: `/cards/${art}/back.jpg`, alt: "face down", "data-face-down": "true" })));
}

// The history's lines: the dealer's cards and total, and what the game won or lost.
export function historyItems(rounds, t, lang) {
  if (!rounds || !rounds.length) return [el("li", {}, t("no_history"))];
  return rounds.map((r) => el("li", { "data-round": r.round_id },
    `${t("dealer")} ${(r.dealer || []).join(" ")} (${r.dealer_total ?? ""}) · `
      + `${r.net >= 0 ? "+" : ""}${money(r.net, lang)}`));
}

// A game's result in `box` from the player's settlement: won, push or lost, and what comes
// back (a refunded bet, `returned` null, comes back whole; a bet behind a seat nobody took).
export function showResult(box, bets, t, lang) {
  if (bets.every((b) => b.returned === null)) {
    box.textContent = t("no_seat");
    box.className = "result push";
    box.hidden = false;
    return;
  }
  const back = bets.reduce((a, b) => a + (b.returned ?? b.stake), 0);
  const staked = bets.reduce((a, b) => a + b.stake, 0);
  box.textContent = `${back > staked ? t("won") : back === staked ? t("push") : t("lost")} · `
    + `${t("you_get")} ${money(back, lang)}`;
  box.dataset.returned = back;
  box.className = `result ${back > staked ? "win" : back === staked ? "push" : "lose"}`;
  box.hidden = false;
}
