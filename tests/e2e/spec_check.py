"""Check JSON answers and gateway events of the fake Discord against Discord's own schemas.

The schemas are those kept in tests/e2e/spec/discord.json (see tests/e2e/spec/SOURCE.md). The
checker is a small JSON Schema validator for the keywords Discord's OpenAPI file uses: ``$ref``,
``type``, ``const``, ``enum``, ``properties``, ``required``, ``additionalProperties``,
``items``, ``min/maxItems``, ``uniqueItems``, ``min/maxLength``, ``pattern``,
``minimum``/``maximum``, ``oneOf``, ``anyOf``, ``allOf`` and the ``date-time`` format.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

SPEC_FILE = Path(__file__).parent / "spec" / "discord.json"

_TYPES = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


@cache
def spec() -> dict:
    """The extracted schemas: ``routes``, ``events`` and ``components``."""
    return json.loads(SPEC_FILE.read_text(encoding="utf-8"))


def _resolve(pointer: str) -> dict:
    node: Any = spec()
    for part in pointer.lstrip("#/").split("/"):
        node = node[part]
    return node


def errors(value: Any, schema: dict | bool, path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema``, as "path: what" lines (empty when it is valid)."""
    if schema is True or schema == {}:
        return []
    if schema is False:
        return [f"{path}: not allowed here"]
    out: list[str] = []
    if "$ref" in schema:
        out += errors(value, _resolve(schema["$ref"]), path)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            return [*out, f"{path}: {json.dumps(value)[:80]} is not of type {'/'.join(types)}"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{path}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{path}: {value!r} is not one of {schema['enum']}")
    for key in ("allOf", "anyOf", "oneOf"):
        if key in schema:
            out += _combined(key, value, schema[key], path)
    if isinstance(value, dict):
        out += _object(value, schema, path)
    elif isinstance(value, list):
        out += _array(value, schema, path)
    elif isinstance(value, str):
        out += _string(value, schema, path)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append(f"{path}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            out.append(f"{path}: {value} > {schema['maximum']}")
    return out


def _combined(key: str, value: Any, branches: list[dict], path: str) -> list[str]:
    results = [errors(value, branch, path) for branch in branches]
    passed = sum(not r for r in results)
    if key == "allOf":
        return [e for r in results for e in r]
    if (key == "anyOf" and passed) or (key == "oneOf" and passed == 1):
        return []
    if passed:
        return [f"{path}: matches {passed} branches of oneOf, not exactly one"]
    closest = min(results, key=len)
    return [f"{path}: matches no branch of {key}; the closest fails with:", *("    " + e for e in closest)]


def _object(value: dict, schema: dict, path: str) -> list[str]:
    props = schema.get("properties", {})
    out = [f"{path}: missing required {key!r}" for key in schema.get("required", []) if key not in value]
    for key, item in value.items():
        if key in props:
            out += errors(item, props[key], f"{path}.{key}")
        elif "additionalProperties" in schema:
            out += errors(item, schema["additionalProperties"], f"{path}.{key}")
    return out


def _array(value: list, schema: dict, path: str) -> list[str]:
    out = []
    if len(value) < schema.get("minItems", 0):
        out.append(f"{path}: fewer than {schema['minItems']} items")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        out.append(f"{path}: more than {schema['maxItems']} items")
    if schema.get("uniqueItems") and len({json.dumps(v, sort_keys=True) for v in value}) != len(value):
        out.append(f"{path}: items are not unique")
    if "items" in schema:
        for i, item in enumerate(value):
            out += errors(item, schema["items"], f"{path}[{i}]")
    return out


def _string(value: str, schema: dict, path: str) -> list[str]:
    out = []
    if len(value) < schema.get("minLength", 0):
        out.append(f"{path}: shorter than {schema['minLength']}")
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        out.append(f"{path}: longer than {schema['maxLength']}")
    if "pattern" in schema and not re.search(schema["pattern"], value):
        out.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if schema.get("format") == "date-time":
        try:
            datetime.fromisoformat(value)
        except ValueError:
            out.append(f"{path}: {value!r} is not a date-time")
    return out


_ROUTES: list[tuple[str, re.Pattern[str], str]] | None = None


def route_key(method: str, path: str) -> str | None:
    """The spec's "METHOD /template" for a request path (without /api/v10), or None if not kept.
    Literal templates win over ones with parameters (/users/@me before /users/{user_id})."""
    global _ROUTES
    if _ROUTES is None:
        keys = sorted(spec()["routes"], key=lambda k: k.count("{"))
        _ROUTES = [(k.split()[0], re.compile(re.sub(r"\{[^}]+\}", "[^/]+", k.split()[1]) + "$"), k) for k in keys]
    return next((k for m, pattern, k in _ROUTES if m == method and pattern.match(path)), None)


def check_answer(method: str, path: str, answer: Any) -> list[str]:
    """Errors of a REST answer against its route's schema (a route the spec gives no body: none)."""
    key = route_key(method, path)
    if key is None:
        raise LookupError(f"no schema kept for {method} {path}")
    schema = spec()["routes"][key]
    return [] if schema is None else errors(answer, schema)


def check_event(event: str, data: Any) -> list[str]:
    """Errors of a gateway event's ``d`` against the event's schema."""
    return errors(data, spec()["events"][event])


def invalid(fake: Any) -> tuple[list[str], set[str], set[str]]:
    """(errors, routes answered, events sent) for everything a FakeDiscord answered and sent so far.
    A route or event without a kept schema is an error too: add it to spec/extract.py."""
    found: list[str] = []
    routes: set[str] = set()
    for rec in fake.requests:
        if rec.status >= 300 or rec.answer is None:
            continue
        key = route_key(rec.method, rec.path)
        if key is None:
            found.append(f"{rec.method} {rec.path}: no schema kept for this route")
            continue
        routes.add(key)
        found += [f"{rec.method} {rec.path} {e}" for e in check_answer(rec.method, rec.path, json.loads(rec.answer))]
    for event, data in fake.dispatched:
        if event not in spec()["events"]:
            found.append(f"{event}: no schema kept for this event")
            continue
        found += [f"{event} {e}" for e in check_event(event, json.loads(json.dumps(data)))]
    return found, routes, {event for event, _ in fake.dispatched}
