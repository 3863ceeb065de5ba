"""The seamless wallet: players' money kept by the operator, moved by the studio through one
interface (`port.Wallet`), with the studio's own record of every transaction (`records`).

- ``port``: the interface, the requests and `WalletError`;
- ``embedded``: the studio's ledger as the wallet (the demo);
- ``http_wallet`` and ``client``: the operator's wallet over HTTP (docs/wallet.md), with the
  durable retry queue;
- ``signing`` and ``wire``: the protocol's signatures and messages;
- ``operator_book`` and ``operator_sim``: the simulated operator (`studio sim operator`);
- ``reconcile``: the studio's record against the operator's report (`studio wallet
  reconcile`).
"""
