"""Blackjack (Blackjack Next 2.0): eight 52-card decks shuffled before every game, five
positions, no hole-card peek, side bets Player Pair, Dealer Pair and 21+3 (RULES.md
"Blackjack" and seeds/blackjack-next.it.txt)."""
