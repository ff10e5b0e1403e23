"""Compiled dumps of marshmallow schemas: the dict `Schema.dump` returns, in fewer calls.

marshmallow serialises a field through five calls or more (`Field.serialize`, `get_value`,
`Schema.get_attribute`, `utils.get_value`, `_serialize`); a cold home request dumps 35 walker
items and their nested tags, documents and references, a third of its time. `dumper(schema)`
compiles a schema instance once into one function doing the same steps for the field classes the
service uses (String, Boolean, Integer, Float, Raw, Constant, Function, Nested, List, Dict), in
the same order, with the same rules (`data_key`, `attribute`, dotted attributes, `dump_default`,
values left out as `missing`). Anything else is serialised by marshmallow itself: a field of
another class (or a subclass) by its own `_serialize`, a schema with `many`, another `dict_class`
or its own `get_attribute` by its own `dump`; pre- and post-dump processors run through
marshmallow's own `_invoke_dump_processors`, as `dump` runs them. tests/test_dumping.py compares
both on every dump of a crawl of the demo site.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields, missing
from marshmallow.decorators import POST_DUMP, PRE_DUMP
from marshmallow.utils import _get_value_for_key, ensure_text_type

Dump = Callable[[Any], Any]
Serialise = Callable[[Any, Any], Any]  # (value, the object holding it) -> serialised value

# Names a plain dict answers as attributes: marshmallow's get_value falls back to getattr on a
# missing key, so for these names the compiled getter asks marshmallow.
DICT_ATTRIBUTES = frozenset(dir(dict))


# The instance attribute holding a schema's compiled dump (a test compiles its own under another).
ATTRIBUTE = "_compiled_dump"


def dumper(schema: Schema) -> Dump:
    """`schema.dump`, compiled on first use (schemas of this service are shared and immutable)."""
    found = schema.__dict__.get(ATTRIBUTE)
    if found is None:
        found = schema.__dict__[ATTRIBUTE] = compile_dump(schema)
    return found


def _compilable(schema: Schema) -> bool:
    cls = type(schema)
    return (
        not schema.many
        and schema.dict_class is dict
        and cls.dump is Schema.dump
        and cls._serialize is Schema._serialize
        and cls.get_attribute is Schema.get_attribute
    )


def compile_dump(schema: Schema) -> Dump:
    """The compiled dump of `schema`, or its own `dump` when it is not compilable."""
    if not _compilable(schema):
        return schema.dump
    plan = [_field_step(schema, name, field) for name, field in schema.dump_fields.items()]

    def dump(obj: Any) -> dict[str, Any]:
        out = {}
        for key, get, serialise, field in plan:
            if get is None:
                value = None
            else:
                value = get(obj)
                if value is missing:
                    default = field.dump_default
                    value = default() if callable(default) else default
                    if value is missing:
                        continue
            value = serialise(value, obj)
            if value is not missing:
                out[key] = value
        return out

    if not _hooked(schema):
        return dump

    def hooked(obj: Any) -> Any:
        """Schema.dump's steps around the fields: its own pre- and post-dump processors."""
        processed = obj
        if schema._hooks[PRE_DUMP]:
            processed = schema._invoke_dump_processors(PRE_DUMP, obj, many=False, original_data=obj)
        result = dump(processed)
        if schema._hooks[POST_DUMP]:
            result = schema._invoke_dump_processors(
                POST_DUMP, result, many=False, original_data=obj
            )
        return result

    return hooked


def _hooked(schema: Schema) -> bool:
    return bool(schema._hooks[PRE_DUMP] or schema._hooks[POST_DUMP])


def _field_step(schema: Schema, name: str, field: fields.Field) -> tuple:
    """(output key, getter or None when the field reads no attribute, serialiser, field)."""
    key = field.data_key if field.data_key is not None else name
    cls = type(field)
    if cls.serialize is not fields.Field.serialize or cls.get_value is not fields.Field.get_value:
        accessor = schema.get_attribute

        def whole(value: Any, obj: Any) -> Any:
            return field.serialize(name, obj, accessor=accessor)

        return key, None, whole, field
    getter = _getter(field.attribute if field.attribute is not None else name)
    return key, getter if field._CHECK_ATTRIBUTE else None, _serialiser(field, name), field


def _getter(attribute: str) -> Callable[[Any], Any]:
    """marshmallow.utils.get_value(obj, attribute, missing), with plain dicts read directly."""
    parts = attribute.split(".")
    if len(parts) == 1:
        (part,) = parts
        if part in DICT_ATTRIBUTES:
            return lambda obj: _get_value_for_key(obj, part, missing)

        def get(obj: Any) -> Any:
            if isinstance(obj, dict):  # read-only results of the embedded store too
                return obj.get(part, missing)
            if not hasattr(obj, "__getitem__"):  # _get_value_for_key's first step, inline
                return getattr(obj, part, missing)
            return _get_value_for_key(obj, part, missing)

        return get

    def get_path(obj: Any) -> Any:
        for part in parts:
            if isinstance(obj, dict) and part not in DICT_ATTRIBUTES:
                obj = obj.get(part, missing)
            else:
                obj = _get_value_for_key(obj, part, missing)
        return obj

    return get_path


def _serialiser(field: fields.Field, name: str) -> Serialise:
    """`field._serialize(value, name, obj)` for the field classes this service uses."""
    cls = type(field)
    if cls is fields.String:
        return _string
    if cls in (fields.Boolean, fields.Raw):
        return _identity
    if cls is fields.Integer and not field.as_string:
        return _integer
    if cls is fields.Float and not field.as_string:
        return _float
    if cls is fields.Constant:
        constant = field.constant
        return lambda value, obj: constant
    if cls is fields.Function:
        function = field.serialize_func
        return lambda value, obj: function(obj)
    if cls is fields.Nested:
        return _nested(field)
    if cls is fields.List:
        inner = _serialiser(field.inner, name)
        return lambda value, obj: None if value is None else [inner(v, obj) for v in value]
    if cls is fields.Dict:
        return _mapping(field)
    return lambda value, obj: field._serialize(value, name, obj)


def _identity(value: Any, obj: Any) -> Any:
    return value


def _string(value: Any, obj: Any) -> Any:
    if value is None or type(value) is str:
        return value
    return ensure_text_type(value)


def _integer(value: Any, obj: Any) -> Any:
    if value is None or type(value) is int:
        return value
    return int(value)


def _float(value: Any, obj: Any) -> Any:
    if value is None or type(value) is float:
        return value
    return float(value)


def _nested(field: fields.Nested) -> Serialise:
    """Nested._serialize: the nested schema (built on first use, as marshmallow builds it), one
    object or, with `many`, a list."""
    built: list[tuple[Schema, Dump | None]] = []  # (the nested schema, its compiled dump)

    def serialise(value: Any, obj: Any) -> Any:
        if not built:
            schema = field.schema
            built.append((schema, dumper(schema) if _compilable(schema) else None))
        schema, one = built[0]
        if value is None:
            return None
        many = schema.many or field.many
        if one is None or (many and _hooked(schema)):  # processors may take the whole list
            return schema.dump(value, many=many)
        return [one(v) for v in value] if many else one(value)

    return serialise


def _mapping(field: fields.Dict) -> Serialise:
    keys_field, values_field = field.key_field, field.value_field
    if keys_field is None and values_field is None:
        return lambda value, obj: None if value is None else dict(value)
    serialise_key = None if keys_field is None else _serialiser(keys_field, None)  # type: ignore[arg-type]
    serialise_value = None if values_field is None else _serialiser(values_field, None)  # type: ignore[arg-type]

    def serialise(value: Any, obj: Any) -> Any:
        if value is None:
            return None
        if serialise_key is None:
            keys = {k: k for k in value}
        else:
            keys = {k: serialise_key(k, None) for k in value}
        result = {}
        if serialise_value is None:
            for k, v in value.items():
                if k in keys:
                    result[keys[k]] = v
        else:
            for k, v in value.items():
                result[keys[k]] = serialise_value(v, None)
        return result

    return serialise
