"""The rules of *Revolution!*, one module per job: data (the board), tokens, bids, state, actions, engine,
scoring, events, views, errors, and the kit :class:`~tablekit.game.Game` in :mod:`revolution.rules.game`."""
