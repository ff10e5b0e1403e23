"""The official Roadiz JavaScript client works against the demo site, unchanged.

npm `@roadiz/abstract-api-client` 3.1.4 (and its dependencies, pinned) is installed in a temporary
directory and run by Node against the service on a loopback port: getWebResponseByPath with
getAlternateLinks, fetchAllUrlsForLocale (its sitemap crawl), getNodesSources,
getArchivesForType and searchNodesSourcesByPath. Without Node or npm the test is skipped with a
message, except under CI=true, where it fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CLIENT = "@roadiz/abstract-api-client@3.1.4"
# The client's dependencies, pinned to versions its ranges admit (axios ^0.21.1, qs ^6.10.1,
# deepmerge ^4.2.2): a run does not depend on what the registry publishes next.
PINNED = ["axios@0.21.4", "qs@6.10.1", "deepmerge@4.2.2"]
SCRIPT = Path(__file__).parent / "js" / "roadiz_client.js"


def _require(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        message = f"{tool} is not installed: the Roadiz JS client test needs Node and npm"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (required under CI=true)")
        pytest.skip(message)
    return found


@pytest.fixture(scope="module")
def client_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    node, npm = _require("node"), _require("npm")
    del node
    directory = tmp_path_factory.mktemp("roadiz-client")
    (directory / "package.json").write_text(
        '{"name": "check", "version": "1.0.0", "private": true}'
    )
    print(f"installing {CLIENT} with npm (pinned: {', '.join(PINNED)})")
    subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--save-exact", CLIENT, *PINNED],
        cwd=directory, check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    shutil.copy(SCRIPT, directory / SCRIPT.name)
    return directory


@pytest.fixture(scope="module")
def served(app) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/api"
    server.shutdown()
    thread.join()


def test_the_roadiz_js_client_reads_the_demo_site(client_dir: Path, served: str):
    run = subprocess.run(
        [_require("node"), SCRIPT.name, served],
        cwd=client_dir, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert seen["webResponse"] == {"title": "About us", "type": "WebResponse"}
    assert seen["alternates"] == [
        {"url": "/about", "locale": "en", "title": "English"},
        {"url": "/a-propos", "locale": "fr", "title": "Français"},
    ]
    urls = seen["urls"]  # every reachable, published English url, over several pages
    assert len(urls) == len(set(urls)) > 15
    assert {"/", "/about", "/blog/jazz-night", "/archive/jazz-quartet"} <= set(urls)
    assert "/members" not in urls and "/blog/future-article" not in urls
    assert seen["nodesSources"] == {
        "total": 8,
        "ids": ["/api/articles/3001", "/api/articles/2701", "/api/articles/2501"],
        "next": seen["nodesSources"]["next"],
    }
    assert seen["nodesSources"]["next"].endswith("&page=2")
    assert seen["archives"] == [[2024, 9], [2023, 3], [2022, 3]]
    assert [hit[0] for hit in seen["search"]] == [
        "/api/articles/2101", "/api/articles/6501", "/api/articles/6201"
    ]  # fmt: skip
    assert all("title_txt_en" in hit[1] for hit in seen["search"])
