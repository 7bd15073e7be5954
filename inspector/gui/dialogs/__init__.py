"""Dialogs: a server's settings, the application's settings."""
