"""The API documentation page (/api/docs) works offline: Swagger UI's assets are served by the
service itself, and a headless Chromium (when installed) renders the operations from them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from werkzeug.serving import make_server

from app.api.docs import ASSETS, SWAGGER_UI_VERSION

_REFERENCE = re.compile(r"""\b(?:src|href|data-url)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
CONTENT_TYPES = {".js": "text/javascript", ".css": "text/css", ".json": "application/json"}
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# As the machine notes ask: no background connections (the network is closed), a fresh profile.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
OPERATIONS = ("/api/web_response_by_path", "/api/common_content")


def _references(html: str) -> list[str]:
    return _REFERENCE.findall(html)


def test_docs_page_is_html_with_same_origin_assets_only(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html
    references = _references(html)
    assert references, html
    for reference in references:
        parts = urlsplit(reference)
        assert not parts.scheme or parts.scheme == "data", reference
        assert not parts.netloc, reference  # no scheme-relative //host either
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    assert "validatorUrl: null" in html
    assert 'data-url="/api/docs.json"' in html


def test_every_asset_of_the_docs_page_is_served(client):
    html = client.get("/api/docs").get_data(as_text=True)
    assets = [r for r in _references(html) if not r.startswith("data:")]
    suffixes = {Path(urlsplit(r).path).suffix for r in assets}
    assert {".js", ".css", ".json"} <= suffixes, assets
    for reference in assets:
        parts = urlsplit(reference)
        response = client.get(reference)
        assert response.status_code == 200, reference
        assert response.mimetype == CONTENT_TYPES[Path(parts.path).suffix], reference
        assert response.data
        if parts.path.startswith("/api/docs/assets/"):
            assert response.headers["Cache-Control"] in (
                "public, max-age=3600",
                "max-age=3600, public",
            )
            assert parts.query == f"v={SWAGGER_UI_VERSION}"


def test_vendored_swagger_ui_is_the_declared_version_with_its_license():
    bundle = (ASSETS / "swagger-ui-bundle.js").read_text(encoding="utf-8")
    assert f'PACKAGE_VERSION:"{SWAGGER_UI_VERSION}"' in bundle
    assert "Apache License" in (ASSETS / "LICENSE").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "path",
    ["/api/docs/assets/missing.js", "/api/docs/assets/../docs.py", "/api/docs/assets/..%2fdocs.py"],
)
def test_docs_assets_outside_the_vendored_files_are_not_found(client, path):
    assert client.get(path).status_code == 404


def _browser() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture
def live_server(app):
    """The demo app on a free loopback port, in a background thread."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


def test_headless_chromium_lists_the_operations(live_server, tmp_path):
    browser = _browser()
    if browser is None:
        message = "no Chromium installed (apt-get install chromium): browser test not run"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (REQUIRE_BROWSER=1)")
        pytest.skip(message)
    command = [
        browser,
        *CHROMIUM_FLAGS,
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=10000",
        "--dump-dom",
        f"{live_server}/api/docs",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    dom = result.stdout
    assert result.returncode == 0, result.stderr[-2000:]
    assert "opblock-summary-path" in dom, dom[-2000:] or result.stderr[-2000:]
    tags = re.findall(r"<[^>]*\bopblock-summary-path\b[^>]*>", dom)
    listed = {m.group(1) for tag in tags if (m := re.search(r'data-path="([^"]*)"', tag))}
    for operation in OPERATIONS:
        assert operation in listed, sorted(listed)
    assert "valid version field" not in dom  # Swagger UI 4 refuses OpenAPI 3.1
