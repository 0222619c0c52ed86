"""*Revolution!* for other frameworks: OpenSpiel and PettingZoo, on the kit's adapter bases
(:mod:`tablekit.adapters`).

Each submodule imports its framework, so importing this package imports none:

* :mod:`revolution.adapters.encoding`: the game with a bid built one token at a time, in turn
  (:data:`~revolution.adapters.encoding.TOKEN_GAME`), its action integers and its tensors (imports no
  framework but numpy);
* :mod:`revolution.adapters.openspiel`: registers ``revolution_sjg`` with OpenSpiel (extra ``openspiel``);
* :mod:`revolution.adapters.pettingzoo`: PettingZoo's ``env``, ``raw_env`` and ``parallel_env`` (extra
  ``pettingzoo``).
"""
