"""Process and database probes."""

from __future__ import annotations


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json == {"status": "ok"}


def test_readyz_pings_the_database(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json["status"] == "ready"
    assert response.json["generation"] == 1  # the demo site, loaded once
    # the full body (loaded_at, age_seconds) is checked in test_site_status.py
