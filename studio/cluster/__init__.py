"""Many processes for one table: the table process runs the actor (the single writer of the
table: rules, ledger, event log, unchanged); edge processes serve the players' HTTP and
WebSockets and talk to the table over NATS.

    bridge.py   the table's side: commands in (request/reply), each burst of events out
    remote.py   the edge's side: a table that looks local to the web application
    wire.py     the subjects and the messages both sides speak

Why NATS rather than Redis pub/sub: commands need request/reply with a timeout (NATS has it;
Redis would need a reply list per request), queue groups let a standby table process take
over the same subject, a slow subscriber is disconnected by the server instead of stalling
the publisher, and JetStream is there if a burst must be replayed from the server. The event
log in the database stays the truth: an edge that misses a burst asks the table for the state
again (`sync`), it never rebuilds it from NATS.
"""
