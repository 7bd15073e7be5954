"""Item models: thin adapters over the store's servers and a server's tool catalogue."""
