"""The modules of the JSON wire format; import their names from :mod:`darkempire.serialization`.

Each module has one job: the errors (:mod:`~darkempire.wire.wire_errors`), reading JSON text strictly
(:mod:`~darkempire.wire.parsing`), the converter between values and JSON data
(:mod:`~darkempire.wire.converter`), the type check of values built by hand (:mod:`~darkempire.wire.typecheck`),
the message types (:mod:`~darkempire.wire.message_types`), the prompt (:mod:`~darkempire.wire.prompts`), the
array limits (:mod:`~darkempire.wire.limits`), writing the envelope (:mod:`~darkempire.wire.envelope`) and
the loaders (:mod:`~darkempire.wire.messages`). Whether a state is one some game reaches is a question of
the rules, answered by :mod:`darkempire.validity`.
"""

__all__: list[str] = []
