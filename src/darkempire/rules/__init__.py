"""The rules of *Dark Empire: Revolution*: typed values, and pure functions from one state to the next.

Everything else in :mod:`darkempire` (bots, simulation, records, the JSON form and the check of a loaded
state, the words, the command line, the adapters) is built on this package; nothing here knows of them. A
module of ``rules`` imports only other modules of ``rules``, the game-agnostic kit ``tablekit``, the
standard library and attrs.

* :mod:`darkempire.rules.cards`: the components as typed values (spec section 1).
* :mod:`darkempire.rules.actions`: the actions a seat can take, one type per kind of decision (spec 9).
* :mod:`darkempire.rules.table`: the week's table, the revealed cards and the seats' plays (spec 4).
* :mod:`darkempire.rules.scoring`: weekly and monthly scoring and the final verdict (spec 5, 7, 8).
* :mod:`darkempire.rules.state`: the whole game as one immutable value (spec 2-8).
* :mod:`darkempire.rules.chance`: the game's random generator as a small immutable value.
* :mod:`darkempire.rules.engine`: the transitions and the legal actions (spec 2-9).
* :mod:`darkempire.rules.events`: what each transition did, and which seats may see it (spec 9.2, 9.4).
* :mod:`darkempire.rules.views`: what one seat, or a spectator, may see of a state (spec 9.4).
* :mod:`darkempire.rules.resample`: worlds one seat cannot tell from a state, for search (spec 9.4).
* :mod:`darkempire.rules.game`: the same rules on the kit's :class:`~tablekit.game.Game` protocol.
* :mod:`darkempire.rules.errors`: the typed errors, each naming the rule or field it refuses.

The package re-exports nothing: import from the modules, or take the names most programs need from
:mod:`darkempire` itself. The modules' old paths (``darkempire.engine`` and the others) stay importable and
give the same objects.
"""
