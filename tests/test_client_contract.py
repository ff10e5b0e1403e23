"""The OpenAPI document is a contract client generators can use: Redocly (recommended rules, no
error), Spectral (`spectral:oas`, no warning), openapi-typescript types compiling under
`tsc --strict` against tests/contract/consumer.ts, and an openapi-python-client client parsing
every response of the demo site.

The Node tools run through npx at the pinned versions below (npm caches them between runs).
Without Node the Node checks skip, saying so, except under CI=true where they fail. The document
is tier-independent: these checks run in the mongomock tier."""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from app.auth import mint_token
from app.errors import ServiceUnavailable
from tests.conftest import JWT_SECRET

REDOCLY = "@redocly/cli@2.77.0"
SPECTRAL = "@stoplight/spectral-cli@6.16.3"
OPENAPI_TYPESCRIPT = "openapi-typescript@7.13.0"
TYPESCRIPT = "typescript@5.9.3"
CONSUMER = Path(__file__).parent / "contract" / "consumer.ts"
CLIENT_PACKAGE = "cms_delivery_client"


@pytest.fixture(scope="module", autouse=True)
def mongomock_only(tier):
    if tier != "mongomock":
        pytest.skip("the client contract is tier-independent: it runs in the mongomock tier")


@pytest.fixture(scope="module")
def contract(app, tmp_path_factory) -> Path:
    """A directory holding the demo site's OpenAPI document (generated once)."""
    directory = tmp_path_factory.mktemp("contract")
    document = app.test_client().get("/api/docs.json").json
    (directory / "openapi.json").write_text(json.dumps(document, indent=1), encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def npx() -> str:
    found = shutil.which("npx")
    if found is None:
        message = "npx (Node.js) is not installed: the Node client-tooling checks cannot run"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (required under CI=true)")
        pytest.skip(message)
    return found


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "NO_UPDATE_NOTIFIER": "1", "npm_config_update_notifier": "false"}
    return subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=600, check=False)  # fmt: skip


def output(result: subprocess.CompletedProcess) -> str:
    return f"exit {result.returncode}\n{result.stdout[-6000:]}\n{result.stderr[-3000:]}"


def test_redocly_recommended_rules_find_no_error(contract, npx):
    result = run([npx, "--yes", REDOCLY, "lint", "--format=stylish", "openapi.json"], contract)
    assert result.returncode == 0, output(result)
    assert "Your API description is valid" in result.stdout + result.stderr, output(result)
    # and no path a request could match twice (/api/{plural}/archives, /api/nodes/{node_id})
    assert "no-ambiguous-paths" not in result.stdout + result.stderr, output(result)


def test_spectral_oas_ruleset_finds_no_warning(contract, npx):
    (contract / ".spectral.yaml").write_text('extends: ["spectral:oas"]\n', encoding="utf-8")
    command = [npx, "--yes", SPECTRAL, "lint", "--ruleset", ".spectral.yaml",
               "--fail-severity", "warn", "openapi.json"]  # fmt: skip
    result = run(command, contract)
    assert result.returncode == 0, output(result)
    assert "No results with a severity of 'warn' or higher found!" in result.stdout, output(result)


def test_typescript_types_are_complete_and_compile_strict(contract, npx):
    result = run([npx, "--yes", OPENAPI_TYPESCRIPT, "openapi.json", "-o", "api.d.ts"], contract)
    assert result.returncode == 0, output(result)
    types = (contract / "api.d.ts").read_text(encoding="utf-8")
    schemas = types[types.index("export interface components {") :]
    schemas = schemas[: schemas.index("\n    responses:")]
    assert "unknown" not in schemas
    assert "Record<string, never>" not in schemas
    shutil.copy(CONSUMER, contract / "consumer.ts")
    config = {"compilerOptions": {"strict": True, "noEmit": True, "target": "es2020",
                                  "module": "es2020", "moduleResolution": "node"},
              "files": ["consumer.ts", "api.d.ts"]}  # fmt: skip
    (contract / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    result = run([npx, "--yes", "-p", TYPESCRIPT, "tsc", "-p", "tsconfig.json"], contract)
    assert result.returncode == 0, output(result)


@pytest.fixture(scope="module")
def python_client(contract):
    """The openapi-python-client package generated from the document, imported."""
    target = contract / CLIENT_PACKAGE
    environment_path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    result = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", "openapi.json",
         "--output-path", str(target), "--meta", "none"],
        cwd=contract, env={**os.environ, "PATH": environment_path}, capture_output=True,
        text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, output(result)
    assert "Warning" not in result.stdout, output(result)  # no schema or operation left out
    sys.path.insert(0, str(contract))
    try:
        yield importlib.import_module(CLIENT_PACKAGE)
    finally:
        sys.path.remove(str(contract))
        for name in [m for m in sys.modules if m.split(".")[0] == CLIENT_PACKAGE]:
            del sys.modules[name]


def client_of(package, flask_app, **headers: str):
    transport = httpx.WSGITransport(app=flask_app)
    return package.client.Client(base_url="http://localhost", headers=headers,
                                 httpx_args={"transport": transport})  # fmt: skip


def api(package, name: str):
    return importlib.import_module(f"{CLIENT_PACKAGE}.api.{name}")


def parsed(response, model: str, status: int = 200):
    assert response.status_code == status, response.content[:300]
    assert type(response.parsed).__name__ == model, response.content[:300]
    return response.parsed


def test_the_python_client_parses_every_page_and_redirection(app, python_client):
    client = client_of(python_client, app)
    by_path = api(python_client, "web_response.web_response_by_path")
    store = app.extensions["cms.store"]
    paths = store.dump_generation(store.live()["version"])["paths"]
    seen = set()
    for entry in paths:
        response = by_path.sync_detailed(client=client, path=entry["_id"])
        if response.status_code == 200:
            web_response = parsed(response, "WebResponse")
            seen.add(type(web_response.item).__name__)
            assert web_response.head.meta_title
        else:  # a realm denies it, or its translation is not available
            assert response.status_code in (401, 404)
            parsed(response, "Problem", response.status_code)
    assert {"PageWebResponseItem", "BlogPostWebResponseItem", "ArticleWebResponseItem",
            "Redirection"} <= seen  # fmt: skip
    external = by_path.sync_detailed(client=client, path="/elsewhere").parsed.item
    assert external.additional_properties["type"] in (301, 302)


def test_the_python_client_parses_common_content_and_resources(app, python_client):
    client = client_of(python_client, app)
    common = api(python_client, "common_content.common_content")
    for locale in ("en", "fr"):
        body = parsed(common.sync_detailed(client=client, field_locale=locale), "CommonContent")
        assert body.head.meta_title
    resources = "resources.{}"
    collection = api(python_client, resources.format("source_collection"))
    page = parsed(collection.sync_detailed(client=client, plural="articles", items_per_page=3),
                  "NodeSourceCollection")  # fmt: skip
    assert len(page.hydramember) == 3
    article = page.hydramember[0]
    source = api(python_client, resources.format("source_get"))
    item = parsed(source.sync_detailed(client=client, plural="articles", source_id=int(
        article.id.rsplit("/", 1)[1])), "ArticleResource")  # fmt: skip
    assert item.title == article.title
    for name, key, model in (("node_get", "node_id", "NodeResource"),
                             ("document_get", "document_id", "DocumentResource"),
                             ("tag_get", "tag_id", "TagWithParents"),
                             ("realm_get", "realm_id", "RealmResource")):  # fmt: skip
        operation = api(python_client, resources.format(name))
        parsed(operation.sync_detailed(client=client, **{key: 1}), model)


def test_the_python_client_parses_every_error(app, make_app, python_client):
    by_path = api(python_client, "web_response.web_response_by_path")
    client = client_of(python_client, app)
    no_role = mint_token(JWT_SECRET, "eve", [], timedelta(hours=1))
    cases = [
        (400, client, {"path": ""}),
        (401, client, {"path": "/members"}),
        (403, client_of(python_client, app, Authorization=f"Bearer {no_role}"),
         {"path": "/", "field_preview": "1"}),
        (404, client, {"path": "/no-such-page"}),
        (406, client_of(python_client, app, Accept="text/csv"), {"path": "/"}),
        (412, client_of(python_client, app, **{"If-Match": '"nope"'}), {"path": "/"}),
        (414, client, {"path": "/" + "a" * 2100 + "?" + "b" * 2100}),
    ]  # fmt: skip
    for status, with_client, arguments in cases:
        problem = parsed(by_path.sync_detailed(client=with_client, **arguments), "Problem", status)
        assert problem.status == status
        assert problem.additional_properties["@type"] == "hydra:Error"
    unloaded = make_app()

    def no_site():
        raise ServiceUnavailable("No site is loaded: run `make seed`.")

    unloaded.extensions["cms.site"].current = no_site
    response = by_path.sync_detailed(client=client_of(python_client, unloaded), path="/")
    assert parsed(response, "Problem", 503).detail == "No site is loaded: run `make seed`."
    assert re.fullmatch(r"/errors/\d{3}", response.parsed.type_)
