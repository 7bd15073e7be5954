"""Widgets shared by the rooms: the budget bar, the schema form, outcome marks, plain text, the log."""
