"""The shipped WebResponse decoration: a `fooBar` string property (seed.md's example)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import fields

from app.request_context import RequestContext
from app.resolution import Resolution
from app.web_response import WebResponse
from schemas.web_response import WebResponseSchema


@dataclass
class FooBarWebResponse(WebResponse):
    foo_bar: str = ""


class FooBarWebResponseSchema(WebResponseSchema):
    foo_bar = fields.String(data_key="fooBar")


class FooBarTransformer:
    """Wraps the built-in transformer: creates the custom WebResponse, lets the built-in
    transformation fill item, blocks and realms, then fills `fooBar`."""

    web_response_class = FooBarWebResponse
    schema_class = FooBarWebResponseSchema
    #: Added to the WebResponse schema of the OpenAPI document.
    openapi_properties: dict[str, Any] = {"fooBar": {"type": "string"}}

    def __init__(self, inner: Any):
        self.inner = inner

    def create_web_response(self) -> FooBarWebResponse:
        return self.web_response_class()

    def transform(
        self, data: Resolution, context: RequestContext, output: WebResponse | None = None
    ) -> WebResponse | None:
        output = output if output is not None else self.create_web_response()
        result = self.inner.transform(data, context, output)
        if isinstance(result, FooBarWebResponse) and data.source is not None:
            result.foo_bar = f"{data.source['type']}:{data.source['slug']}"
        return result
