"""The private and public screens: pure functions from views to 128x64 one-bit images,
and the luma devices that carry them (see docs/screens.md)."""
