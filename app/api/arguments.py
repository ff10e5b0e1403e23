"""Query parameters of the routes with a fixed set: each operation's parameters are one
marshmallow schema, which parses them (`@blp.arguments(..., location="query")`) and documents
them, so the two cannot drift. A malformed value is a 400 whose detail is the field's message
(app.api.problems). `unknown = EXCLUDE`: the routes that refuse unknown parameters check them
themselves (collections and search: app.listing.params, app.search, with their OpenAPI
parameters beside them)."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, validate
from webargs.flaskparser import FlaskParser

from app.errors import BadRequest
from app.paths import PATH_REQUIRED
from schemas import shared


class QueryParser(FlaskParser):
    """webargs' Flask parser whose validation errors are the service's 400 problem: the message
    of the first failing parameter, in the schema's order. One instance per argument schema class
    (webargs builds one per request: a tenth of a cold page's CPU); `load` keeps no state on it."""

    def _get_schema(self, argmap, req):  # noqa: ANN001, ANN202 - webargs' signature
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            return shared(argmap)
        return super()._get_schema(argmap, req)

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
        validate=validate.Length(min=1, error=PATH_REQUIRED),
        error_messages={"required": PATH_REQUIRED},
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
