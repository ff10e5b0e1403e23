"""What is live: the pointer, the previous generation kept, the generations present (the
`site status` command and /readyz)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.fixture.load import pointed_versions
from app.store import Store, layout_of, unreadable_layout


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # pymongo without tz_aware: BSON dates are UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def age_seconds(loaded_at: datetime | None, now: datetime) -> float | None:
    """Seconds since `loaded_at` (None when unknown)."""
    if loaded_at is None:
        return None
    if loaded_at.tzinfo is None:
        loaded_at = loaded_at.replace(tzinfo=UTC)
    return round((now - loaded_at).total_seconds(), 3)


def _entry(entry: dict[str, Any] | None, store: Store, present: list[int]) -> dict | None:
    if not entry:
        return None
    version = entry["version"]
    return {
        "version": version,
        "layout": layout_of(entry),
        # why this version of the service cannot serve it (app.store.LAYOUT), or None
        "unreadable": unreadable_layout(entry),
        "fixture": entry.get("fixture"),
        "sha256": entry.get("sha256"),
        "loaded_at": _iso(entry.get("loaded_at")),
        # counted in the database, not copied from the pointer: what is really there
        "counts": store.counts(version) if version in present else None,
        # the collections of the generation the database lacks (requests answer 503)
        "missing": store.missing_collections(version),
    }


def site_status(store: Store) -> dict[str, Any]:
    """The live generation, the previous one, and every generation present with its role."""
    live = store.live()
    present = store.generations()
    pointed = pointed_versions(live)
    roles = {}
    if live is not None:
        roles[live["version"]] = "live"
        if live.get("previous"):
            roles[live["previous"]["version"]] = "previous"
    return {
        "database": store.db.name,
        "live": _entry(live, store, present),
        "previous": _entry((live or {}).get("previous"), store, present),
        "generations": [
            {
                "version": v,
                "role": roles[v] if v in pointed else "leftover (dropped by the next load)",
            }
            for v in present
        ],
    }


def _describe(entry: dict[str, Any]) -> str:
    sha = (entry["sha256"] or "?")[:12]
    fixture = entry["fixture"] or "?"
    return f"v{entry['version']}, fixture {fixture} (sha256 {sha}), loaded {entry['loaded_at']}"


def servable(status: dict[str, Any]) -> bool:
    """Whether the live generation can be served: it is there, in a layout this version reads."""
    live = status["live"]
    return live is not None and not live["missing"] and not live["unreadable"]


def render_status(status: dict[str, Any]) -> list[str]:
    """The status as lines for a terminal."""
    live = status["live"]
    if live is None:
        return [f"no site is loaded in database {status['database']} (no live pointer): run "
                "`make seed`"]  # fmt: skip
    lines = [f"database:    {status['database']}", f"live:        {_describe(live)}",
             f"  sha256:    {live['sha256']}"]  # fmt: skip
    if live["counts"] is not None:
        counts = ", ".join(f"{kind} {n}" for kind, n in live["counts"].items())
        lines.append(f"  documents: {counts}")
    if live["missing"]:
        lines.append(
            f"  MISSING:   {', '.join(live['missing'])}; requests answer 503 until the site is "
            "loaded again (`make seed`)"
        )
    if live["unreadable"]:
        lines.append(
            f"  layout:    UNREADABLE: {live['unreadable']}; requests answer 503 until the site "
            "is loaded again (`make seed`)"
        )
    previous = status["previous"]
    if previous is None:
        lines.append("previous:    none (rollback is not possible)")
    else:
        if previous["counts"] is None:
            kept = "no longer in the database"
        elif previous["missing"]:
            kept = f"lacks {', '.join(previous['missing'])}: rollback refused"
        else:
            kept = "kept"
        if previous["unreadable"]:
            kept += f" (layout {previous['layout']}: rollback refused)"
        lines.append(f"previous:    {_describe(previous)}, {kept}")
    generations = ", ".join(f"v{g['version']} ({g['role']})" for g in status["generations"])
    lines.append(f"generations: {generations or 'none'}")
    return lines
