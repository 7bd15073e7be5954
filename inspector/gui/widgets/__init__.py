"""Custom widgets of the window: the budget bar, the schema form, the sparkline."""
