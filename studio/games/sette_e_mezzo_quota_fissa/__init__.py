"""Sette e Mezzo Quota Fissa: one player against the bank on a private virtual table."""
