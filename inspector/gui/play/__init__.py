"""The Play tab: an agent run played from the window (a shipped scenario, a scenario file or a real
model through an OpenAI-compatible endpoint), growing live, cancelled with Esc."""
