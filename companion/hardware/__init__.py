"""Thin adapters between the table's hardware and the companion's input events."""
