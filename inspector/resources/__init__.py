"""The application's assets (icons), shipped as package data and read with importlib.resources."""
