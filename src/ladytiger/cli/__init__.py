"""The terminal adapter: play, simulate and replay from a shell."""
