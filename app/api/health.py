"""Liveness and readiness probes."""

from __future__ import annotations

from flask import Response
from flask_smorest import Blueprint
from pymongo.errors import PyMongoError

from app.api.encoding import json_response
from app.api.problems import problem
from app.db import get_store

blp = Blueprint("Health", __name__, description="Process and database probes.")


@blp.route("/healthz")
@blp.doc(summary="The process is up.")
def healthz() -> Response:
    return json_response({"status": "ok"}, mimetype="application/json")


@blp.route("/readyz")
@blp.doc(summary="The database answers a ping (503 otherwise).")
def readyz() -> Response:
    try:
        get_store().ping()
    except PyMongoError:
        return problem(503, "Service Unavailable: the database does not answer.")
    return json_response({"status": "ready"}, mimetype="application/json")
