"""What every game shares: the ``Game`` base of the rules engines (``base``), the contract
a game keeps (``spec``), and the one registry that finds the games, built in or installed,
and answers every question about them (``registry``)."""
