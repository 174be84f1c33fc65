"""Adapters for reinforcement-learning tools: OpenSpiel, PettingZoo and Gymnasium.

Everything here is built from `observation(seat)`, `legal_actions()` and the other public
verbs of the core, so an adapter can leak nothing the engine does not show the seat.
Install with the `rl` extra.
"""
