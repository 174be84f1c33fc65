"""Running many games: simulations, and (later) tournaments between bots."""
