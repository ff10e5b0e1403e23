"""Per-query server time of each endpoint (pymongo command monitoring), and the `explain` of the
slowest query, so that a slow page shows which of its queries grows with the site."""

from __future__ import annotations

import json
import statistics
from typing import Any

from pymongo import monitoring

READS = {"find", "aggregate", "count", "getMore", "distinct"}
# Keys of a command that say nothing about its plan (session, cluster time, database...).
NOISE = {"lsid", "$db", "$clusterTime", "$readPreference", "txnNumber", "batchSize"}


class QueryRecorder(monitoring.CommandListener):
    """Every read command with its reply time (CommandSucceededEvent.duration_micros: the round
    trip the driver measured, over loopback the server's time)."""

    def __init__(self) -> None:
        self.pending: dict[int, dict[str, Any]] = {}
        self.log: list[dict[str, Any]] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name in READS:
            command = {k: v for k, v in event.command.items() if k not in NOISE}
            self.pending[event.request_id] = command

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        command = self.pending.pop(event.request_id, None)
        if command is not None:
            self.log.append({"command": command, "us": event.duration_micros})

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        self.pending.pop(event.request_id, None)


def _condition(value: Any) -> str:
    if isinstance(value, dict) and value and all(str(k).startswith("$") for k in value):
        return ",".join(sorted(value))
    return "="


def describe(command: dict[str, Any]) -> str:
    """`sources.find[feed] {locale =, node_id $in} sort published_at:-1,_id:-1`: the shape only,
    with the index the query names (`-` when none)."""
    name = next(iter(command))
    collection = str(command[name]).rsplit("_v", 1)[0]
    if name == "aggregate":  # count_documents: $match then $group
        stages = command.get("pipeline") or [{}]
        filter_ = stages[0].get("$match", {})
    else:
        filter_ = command.get("filter") or command.get("query") or {}
    shape = ", ".join(f"{k} {_condition(v)}" for k, v in filter_.items())
    method = "count" if name == "aggregate" else name
    text = f"{collection}.{method}[{command.get('hint', '-')}] {{{shape}}}"
    if command.get("sort"):
        text += " sort " + ",".join(f"{k}:{v}" for k, v in command["sort"].items())
    if command.get("limit"):
        text += f" limit {command['limit']}"
    return text


def timings(samples: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Per query of a request (same order in every sample), its median time in ms."""
    width = min(len(s) for s in samples)
    out = []
    for position in range(width):
        runs = [s[position] for s in samples]
        out.append(
            {
                "query": describe(runs[0]["command"]),
                "ms": round(statistics.median(r["us"] for r in runs) / 1000, 3),
                "command": runs[0]["command"],
            }
        )
    return out


def explain(db: Any, command: dict[str, Any]) -> dict[str, Any]:
    """The engine's explain of one recorded command (executionStats when it has them)."""
    try:
        return db.command("explain", command, verbosity="executionStats")
    except Exception:  # noqa: BLE001 - engines that know only queryPlanner
        return db.command("explain", command, verbosity="queryPlanner")


def render_explain(plan: dict[str, Any], lines: int = 60) -> str:
    """The interesting part of an explain, at most `lines` lines."""
    keep = {k: plan[k] for k in ("queryPlanner", "executionStats", "command") if k in plan}
    text = json.dumps(_short(keep or plan), indent=1, default=str).splitlines()
    if len(text) > lines:
        text = [*text[:lines], f"... ({len(text) - lines} more lines)"]
    return "\n".join(text)


def _short(value: Any) -> Any:
    """`value` with long lists cut to their first 5 items (the `$in` of a walker level)."""
    if isinstance(value, dict):
        return {k: _short(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [_short(v) for v in value[:5]]
        return items + [f"... {len(value) - 5} more"] if len(value) > 5 else items
    return value
