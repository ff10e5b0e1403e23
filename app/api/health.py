"""Liveness and readiness probes."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Response
from flask_smorest import Blueprint
from pymongo.errors import PyMongoError

from app.api.encoding import json_response
from app.api.problems import problem
from app.db import get_store
from app.site import current_site
from app.site_status import age_seconds

blp = Blueprint("Health", __name__, description="Process and database probes.")


@blp.route("/healthz")
@blp.doc(summary="The process is up.")
def healthz() -> Response:
    return json_response({"status": "ok"}, mimetype="application/json")


@blp.route("/readyz")
@blp.doc(
    summary="The database answers a ping and a site is loaded (503 otherwise); the generation "
    "this process serves and its age (seconds since it was loaded)."
)
def readyz() -> Response:
    try:
        get_store().ping()
    except PyMongoError:
        return problem(503, "Service Unavailable: the database does not answer.")
    site = current_site()  # 503 when no site is loaded
    body = {
        "status": "ready",
        "generation": site.version,
        "loaded_at": site.loaded_at.isoformat() if site.loaded_at else None,
        "age_seconds": age_seconds(site.loaded_at, datetime.now(UTC)),
    }
    response = json_response(body, mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response
