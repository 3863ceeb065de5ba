// UI text, Italian and English. Game terms follow the regulation (Carta, Stai, Ripunta,
// Stop alle puntate, Partita Perfetta, Mano di Poker) in both languages.

export const STRINGS = {
  it: {
    balance: "Saldo", reserved: "in gioco", history: "Cronologia", language: "English",
    limits: "Limiti", dealer: "Croupier", position: "Posizione", total: "Totale",
    main: "Puntata", partita_perfetta: "Partita Perfetta", mano_di_poker: "Mano di Poker",
    carta: "Carta", stai: "Stai", ripunta: "Ripunta", cancel: "Annulla", autoplay: "Autoplay",
    autoplay_rounds: "Round di Autoplay", autoplay_stop: "Ferma Autoplay", start: "Avvia",
    close: "Chiudi", chips: "Fiche", your_hand: "La tua mano", you: "tu",
    phase_none: "In attesa del prossimo round",
    phase_betting: "Piazzate le vostre puntate",
    phase_burn: "Stop alle puntate - il croupier scarta una carta",
    phase_deal: "Distribuzione delle carte",
    phase_automatic_draws: "Carte automatiche",
    phase_decisions: "Decisioni dei giocatori",
    phase_hit: "Carta alla posizione",
    phase_dealer: "Gioca il croupier",
    phase_closed: "Round concluso",
    phase_void: "Round annullato",
    stop_bets: "Stop alle puntate",
    paused: "Tavolo in pausa", your_turn: "Tocca a te: Carta o Stai?",
    waiting_turn: "Decide la posizione",
    won: "Vinto", lost: "Perso", push: "Pareggio", refunded: "Rimborsato",
    automatic_win: "vittoria automatica", round_void: "Round annullato: puntate rimborsate",
    net: "Risultato", staked: "Puntato", returned: "Restituito",
    no_history: "Nessun round giocato", reconnecting: "Riconnessione in corso…",
    connected: "Connesso", rejoin: "Rientra",
    "session.replaced": "Hai aperto il gioco in un'altra finestra: questa sessione è chiusa.",
    "session.inactive": "Sessione chiusa per inattività (20 minuti senza giocare).",
    "session.closed": "Sessione chiusa.",
    video_still: "Video del tavolo",
    errors: {
      "bet.window_closed": "Stop alle puntate: le puntate sono chiuse",
      "bet.above_max": "Oltre il limite massimo della puntata",
      "bet.below_min": "Sotto il limite minimo della puntata",
      "bet.round_limit": "Oltre il limite del round",
      "bet.side_without_main": "Le puntate collaterali richiedono la puntata principale",
      "bet.unknown_position": "Posizione inesistente",
      "bet.nothing_to_repeat": "Nessuna puntata precedente da ripetere",
      "bet.nothing_to_cancel": "Nessuna puntata da annullare",
      "ledger.insufficient_funds": "Credito insufficiente",
      "decision.not_your_turn": "Non è il tuo turno",
      "decision.already_made": "Hai già scelto",
      "autoplay.no_bets": "Piazza prima una puntata",
      "request.rate_limited": "Troppi comandi: riprova tra poco",
      "table.paused": "Tavolo in pausa",
      "auth.token_expired": "Sessione scaduta: rientra dal sito",
      "auth.invalid_token": "Accesso non valido",
      "rg.stake_limit": "Questa puntata supera il tuo limite di puntate per la sessione",
      "rg.loss_limit": "Perdendo questa puntata supereresti il tuo limite di perdita",
      "rg.session_time_limit": "Hai raggiunto il limite di tempo della sessione",
      "rg.reality_check_due": "Controllo di realtà: guarda il tempo di gioco e il risultato",
      "rg.autoplay_off": "Gioco automatico non disponibile con i limiti del casinò",
    },
  },
  en: {
    balance: "Balance", reserved: "in play", history: "History", language: "Italiano",
    limits: "Limits", dealer: "Dealer", position: "Position", total: "Total",
    main: "Bet", partita_perfetta: "Partita Perfetta", mano_di_poker: "Mano di Poker",
    carta: "Carta (hit)", stai: "Stai (stand)", ripunta: "Ripunta (rebet)", cancel: "Cancel",
    autoplay: "Autoplay", autoplay_rounds: "Autoplay rounds", autoplay_stop: "Stop Autoplay",
    start: "Start", close: "Close", chips: "Chips", your_hand: "Your hand", you: "you",
    phase_none: "Waiting for the next round",
    phase_betting: "Place your bets",
    phase_burn: "Stop alle puntate - the dealer burns a card",
    phase_deal: "Dealing",
    phase_automatic_draws: "Automatic cards",
    phase_decisions: "Players' decisions",
    phase_hit: "Card to position",
    phase_dealer: "Dealer's turn",
    phase_closed: "Round over",
    phase_void: "Round void",
    stop_bets: "Stop alle puntate (no more bets)",
    paused: "Table paused", your_turn: "Your turn: Carta or Stai?",
    waiting_turn: "Deciding: position",
    won: "Won", lost: "Lost", push: "Push", refunded: "Refunded",
    automatic_win: "automatic win", round_void: "Round void: bets refunded",
    net: "Result", staked: "Staked", returned: "Returned",
    no_history: "No rounds played yet", reconnecting: "Reconnecting…",
    connected: "Connected", rejoin: "Rejoin",
    "session.replaced": "You opened the game in another window: this session is closed.",
    "session.inactive": "Session closed after 20 minutes without playing.",
    "session.closed": "Session closed.",
    video_still: "Table video",
    errors: {
      "bet.window_closed": "Stop alle puntate: betting is closed",
      "bet.above_max": "Over the bet's maximum",
      "bet.below_min": "Under the bet's minimum",
      "bet.round_limit": "Over the round's limit",
      "bet.side_without_main": "Side bets need your main bet on that position",
      "bet.unknown_position": "No such position",
      "bet.nothing_to_repeat": "No previous bets to repeat",
      "rg.stake_limit": "This bet would pass your stake limit for the session",
      "rg.loss_limit": "Losing this bet would pass your loss limit for the session",
      "rg.session_time_limit": "Your session time limit is reached",
      "rg.reality_check_due": "Reality check: see how long you have played and your result",
      "rg.autoplay_off": "Automatic play is off while your casino's limits apply",
      "bet.nothing_to_cancel": "No bets to cancel",
      "ledger.insufficient_funds": "Insufficient credit",
      "decision.not_your_turn": "Not your turn",
      "decision.already_made": "You already chose",
      "autoplay.no_bets": "Place a bet first",
      "request.rate_limited": "Too many commands: try again shortly",
      "table.paused": "Table paused",
      "auth.token_expired": "Session expired: sign in again from the site",
      "auth.invalid_token": "Invalid access",
    },
  },
};

export function money(cents, lang) {
  const locale = lang === "it" ? "it-IT" : "en-IE";
  return new Intl.NumberFormat(locale, { style: "currency", currency: "EUR",
                                       useGrouping: "always" })
    .format((cents || 0) / 100);
}

// Totals come in halves: 15 -> "7½".
export function halves(h) {
  if (h === null || h === undefined) return "";
  const whole = Math.floor(h / 2);
  return h % 2 ? (whole ? `${whole}½` : "½") : String(whole);
}

const SUITS = { d: "♦", c: "♥", b: "♣", s: "♠" };
const SUIT_NAMES = {
  it: { d: "denari", c: "coppe", b: "bastoni", s: "spade" },
  en: { d: "diamonds", c: "hearts", b: "clubs", s: "spades" },
};
const RANKS = {
  it: { J: "F", Q: "C", K: "R", A: "A" },
  en: { J: "J", Q: "Q", K: "K", A: "A" },
};

export function cardLabel(code, lang) {
  const rank = code[0], suit = code[1];
  return { rank: (RANKS[lang] || RANKS.it)[rank] || rank, suit: SUITS[suit] || suit,
           suitName: (SUIT_NAMES[lang] || SUIT_NAMES.it)[suit] || suit,
           red: suit === "d" || suit === "c", matta: code === "Kd" };
}
