"""traps: the bundle of everything the program knows about the game besides its engine."""
