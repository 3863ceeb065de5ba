"""What connects the studio to the casino operators who sell its tables: the signed launch of
a player into the studio (`launch`) and the responsible-gaming limits each operator sets per
player (`limits`). The operator's wallet is `studio.wallet`."""
