"""Game bundles: one package per game with everything but its rules engine."""
