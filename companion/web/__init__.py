"""The table on the LAN: a live table page, each seat's private page on a phone, the
simulator in a browser (docs/web.md)."""
