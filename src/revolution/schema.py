"""JSON Schemas (draft 2020-12) of the ``revolution/1`` wire format, generated from its codecs.

:func:`generate_schemas` asks each message type's codec in :mod:`revolution.wire` for its schema, so a schema
says exactly what the loader reads by shape: the fields, their JSON types, the ranges of numbers and names,
no unknown field. The package ships the result in ``revolution/schemas/``, one file per message type
(:data:`SCHEMA_FILES`). Regenerate them after changing the wire format::

    python -m revolution.schema            # rewrite src/revolution/schemas/*.json
    python -m revolution.schema --check    # exit 1 if a shipped file is out of date

The loaders check more than the shape (every token and cube accounted for, a final score that is the board's,
no bid in a view at the Bidding), so a document can pass its schema and still be refused.

>>> sorted(generate_schemas())[:2]
['action.json', 'config.json']
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Final

from revolution.wire import FORMAT, MESSAGE_TYPES, codec
from tablekit.wire import load_json, schema_files_main, write_schema_files

__all__ = ["SCHEMA_FILES", "SCHEMA_ID_BASE", "generate_schemas", "main", "message_schema", "shipped_schemas",
           "write_schemas"]

#: The base of every schema's ``$id``.
SCHEMA_ID_BASE: Final = "https://revolution.invalid/schemas/"
#: The schema file of each message type.
SCHEMA_FILES: Final[Mapping[str, str]] = types.MappingProxyType({name: f"{name}.json" for name in MESSAGE_TYPES})
_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"


def _with_envelope(body: dict[str, Any], type_name: str) -> dict[str, Any]:
    """``body`` (an object's schema) with the envelope's ``format`` and ``type`` fields required first."""
    envelope = {"format": {"const": FORMAT.tag}, "type": {"const": type_name}}
    return {**body, "required": ["format", "type", *body["required"]],
            "properties": {**envelope, **body["properties"]}}


def message_schema(type_name: str) -> dict[str, Any]:
    """The schema of the message type ``type_name`` (one of :data:`~revolution.wire.MESSAGE_TYPES`)."""
    body = codec(type_name).schema()
    head = {"$schema": _DIALECT, "$id": SCHEMA_ID_BASE + SCHEMA_FILES[type_name],
            "title": f"{FORMAT.tag} {type_name}"}
    if "oneOf" in body:  # an action or an event: the envelope goes in every branch
        return {**head, "description": body["description"],
                "oneOf": [_with_envelope(branch, type_name) for branch in body["oneOf"]]}
    return {**head, **_with_envelope(body, type_name)}


def generate_schemas() -> dict[str, dict[str, Any]]:
    """Every message schema, by file name (:data:`SCHEMA_FILES`)."""
    return {SCHEMA_FILES[name]: message_schema(name) for name in MESSAGE_TYPES}


def shipped_schemas() -> dict[str, dict[str, Any]]:
    """The schema files shipped in the installed package, by file name."""
    folder = resources.files("revolution") / "schemas"
    return {name: load_json((folder / name).read_text(encoding="utf-8")) for name in SCHEMA_FILES.values()}


def write_schemas(directory: Path) -> list[Path]:
    """Write every schema to ``directory`` (created if needed); return the paths written."""
    return write_schema_files(generate_schemas(), directory)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m revolution.schema [--check] [DIR]``: write or check the schema files.

    :returns: 0, or 1 if ``--check`` finds a missing or outdated file.
    """
    return schema_files_main("python -m revolution.schema", "JSON Schemas of revolution/1", generate_schemas, Path(__file__).resolve().parent / "schemas", argv)


if __name__ == "__main__":
    raise SystemExit(main())
