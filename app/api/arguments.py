"""Query parameters: each operation's parameters are one marshmallow schema, which parses them
(`@blp.arguments(..., location="query")`) and documents them, so the two cannot drift. A
malformed value is a 400 whose detail is the field's message (app.api.problems)."""

from __future__ import annotations

import re
from typing import Any

from flask import request
from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, pre_load, validate
from webargs.flaskparser import FlaskParser

from app import keyset
from app.errors import BadRequest
from app.resources import ITEMS_PER_PAGE, MAX_ITEMS_PER_PAGE, MAX_PAGE, CollectionQuery
from app.store import COLLECTION_ORDERS

_DIGITS = re.compile(r"[0-9]{1,9}")  # ASCII only: str.isdigit() also accepts "²"
SLUGS = r"^[a-z0-9][a-z0-9._-]*(,[a-z0-9][a-z0-9._-]*)*$"
ORDER_MESSAGE = "order must be order[publishedAt] or order[position], asc or desc"
ORDER_PREFIX = "order["


class QueryParser(FlaskParser):
    """webargs' Flask parser whose validation errors are the service's 400 problem: the message
    of the first failing parameter, in the schema's order."""

    def handle_error(self, error, req, schema, *, error_status_code, error_headers):  # noqa: ANN001
        messages = error.messages.get("query", error.messages)
        keys = ["_schema", *(f.data_key or name for name, f in schema.fields.items())]
        for key in keys:
            if key in messages:
                found = messages[key]
                raise BadRequest(found[0] if isinstance(found, list) else str(found))
        raise BadRequest(str(next(iter(messages.values()))))


def preview_field() -> fields.Field:
    return fields.String(
        data_key="_preview",
        metadata={
            "description": "Preview unpublished content: 1, true, on, yes or y (needs a bearer "
            "token with ROLE_BACKEND_USER; the response is then private and never stored)."
        },
    )


def password_field() -> fields.Field:
    return fields.String(
        metadata={
            "description": "Password of a `plain_password` realm protecting the resource (or "
            "the `Authorization: PasswordQuery <password>` header)."
        },
    )


def locale_field(description: str) -> fields.Field:
    return fields.String(data_key="_locale", metadata={"description": description})


class Tolerant(Schema):
    """Unknown parameters are tolerated (front-ends add cache-busters)."""

    class Meta:
        unknown = EXCLUDE


class Query(Tolerant):
    """Parameters every read accepts: preview and a realm password (read by app.auth)."""

    preview = preview_field()
    password = password_field()


class LocaleQuery(Tolerant):
    locale = locale_field("Locale of the translation (default: the default translation).")
    preview = preview_field()
    password = password_field()


class WebResponseQuery(Tolerant):
    path = fields.String(
        required=True,
        validate=validate.Length(min=1, error="path query parameter is mandatory"),
        error_messages={"required": "path query parameter is mandatory"},
        metadata={"description": "Resource path of the item; `/` designates the home page."},
    )
    preview = preview_field()
    password = password_field()


class CommonContentQuery(Tolerant):
    locale = locale_field(
        "Locale of the translation to use; else Accept-Language, else the default."
    )
    preview = preview_field()
    password = password_field()


class LanguageHeaders(Tolerant):
    accept_language = fields.String(
        data_key="Accept-Language",
        metadata={"description": "Preferred languages, used when `_locale` is absent."},
    )


class BoundedInteger(fields.Integer):
    """An integer written in ASCII digits within a range; anything else is `message`."""

    def __init__(self, low: int, high: int, message: str, **kwargs: Any):
        super().__init__(validate=validate.Range(low, high, error=message), **kwargs)
        self.low, self.high, self.message = low, high, message

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, str) or not _DIGITS.fullmatch(value):
            raise ValidationError(self.message)
        return int(value)


def _range_message(name: str, low: int, high: int) -> str:
    return f"{name} must be an integer from {low} to {high}"


ORDER = {"type": "string", "enum": ["asc", "desc"]}


class CollectionQuerySchema(Tolerant):
    """The collection parameters, in the order their errors are reported."""

    locale = locale_field("Translation (default: the default translation)")
    tags = fields.String(
        validate=validate.Regexp(SLUGS, error="tags must be comma-separated tag slugs"),
        metadata={"description": "Comma-separated tag slugs; items must carry all of them"},
    )
    visible = fields.String(
        data_key="node.visible",
        validate=validate.OneOf(["true", "false"], error="node.visible must be true or false"),
        metadata={"description": "true or false"},
    )
    order_published_at = fields.String(
        data_key="order[publishedAt]",
        validate=validate.OneOf(["asc", "desc"], error=ORDER_MESSAGE),
        metadata={"description": "asc or desc (default desc)"},
    )
    order_position = fields.String(
        data_key="order[position]",
        validate=validate.OneOf(["asc", "desc"], error=ORDER_MESSAGE),
        metadata={"description": "asc or desc"},
    )
    page = BoundedInteger(
        1, MAX_PAGE, _range_message("page", 1, MAX_PAGE),
        metadata={"description": "Page number, from 1"},
    )  # fmt: skip
    cursor = fields.String(
        validate=validate.Regexp(keyset.TOKEN_PATTERN, error=keyset.MESSAGE),
        metadata={
            "description": "Keyset cursor: empty for the first page, then the one of "
            "hydra:next; such pages cost the same at any depth and carry no hydra:totalItems "
            "(not with page)"
        },
    )
    items_per_page = BoundedInteger(
        1, MAX_ITEMS_PER_PAGE, _range_message("itemsPerPage", 1, MAX_ITEMS_PER_PAGE),
        data_key="itemsPerPage",
        metadata={"description": f"1 to {MAX_ITEMS_PER_PAGE} (default {ITEMS_PER_PAGE})"},
    )  # fmt: skip
    preview = preview_field()
    password = password_field()

    @pre_load
    def _known_orders(self, data: Any, **kwargs: Any) -> Any:
        """`order[<name>]` names one of COLLECTION_ORDERS (an unknown one is an error, not an
        unknown parameter)."""
        for key in data:
            if (
                key.startswith(ORDER_PREFIX)
                and key[len(ORDER_PREFIX) : -1] not in COLLECTION_ORDERS
            ):
                raise ValidationError(ORDER_MESSAGE)
        return data

    @post_load
    def _query(self, data: dict[str, Any], **kwargs: Any) -> CollectionQuery:
        given = {
            "publishedAt": data.get("order_published_at"),
            "position": data.get("order_position"),
        }
        # Sort keys in the order the request gives them.
        keys = [k[len(ORDER_PREFIX) : -1] for k in request.args if k.startswith(ORDER_PREFIX)]
        order = [(key, given[key]) for key in keys if given.get(key)]
        tags = data.get("tags")
        visible = data.get("visible")
        if "cursor" in data and "page" in data:
            raise ValidationError(keyset.COMBINED_MESSAGE)
        return CollectionQuery(
            page=data.get("page", 1),
            per_page=data.get("items_per_page", ITEMS_PER_PAGE),
            locale=data.get("locale"),
            tags=tags.split(",") if tags else [],
            visible=None if visible is None else visible == "true",
            order=order or [("publishedAt", "desc")],
            cursor=data.get("cursor"),
        )
