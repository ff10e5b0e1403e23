"""Domain errors: each carries the HTTP status and a message safe to show to the client; the HTTP
layer (app.api.problems) sends every one of them as application/problem+json."""

from __future__ import annotations


class ApiError(Exception):
    """An error with an HTTP status and a message that is safe to show to the client."""

    status = 500

    def __init__(self, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.headers = headers or {}


class BadRequest(ApiError):
    status = 400


def given_twice(name: str) -> BadRequest:
    """A parameter of one value given more than once (app.api.hygiene, app.listing.params)."""
    return BadRequest(f'"{name}" must be given once')


class Unauthorized(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


# API Platform's detail for an item route whose item does not exist, or may not be seen
# (roadiz-read-surface.md §1, Errors): it does not say which.
ITEM_NOT_FOUND = "Not Found"


def item_not_found() -> NotFound:
    return NotFound(ITEM_NOT_FOUND)


class ServiceUnavailable(ApiError):
    status = 503
