"""After the game: history, the league table, charts and exports, from the table store.

Everything here reads what was public once a game ended (results and figures the engines
build from public facts), never the referee's record.
"""
