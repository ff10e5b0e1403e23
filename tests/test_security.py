"""Realms, preview, tokens: nothing protected or unpublished reaches a request without rights."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta

import jwt
import pytest

from app.auth import mint_token
from app.config import ConfigError
from tests.conftest import JWT_SECRET, demo_site
from tests.helpers import TOKEN_LIFE, get_path, node, problem_detail

SITE = demo_site()
ALL_ROLES = ["ROLE_BACKEND_USER", "ROLE_PREMIUM"]


def title(name: str, locale: str = "en") -> str:
    return node(SITE, name)["sources"][locale]["title"]


PROTECTED = {"members": [title("members"), title("members-text")],
             "premium": [title("premium-report"), title("premium-interview")]}  # fmt: skip
UNPUBLISHED = [title(n) for n in ("draft-page", "future-page", "future-article", "draft-article",
                                  "home-draft-block", "menu-draft")]  # fmt: skip


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def tampered() -> str:
    header, payload, signature = mint_token(JWT_SECRET, "eve", [], TOKEN_LIFE).split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    claims["roles"] = ALL_ROLES
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"{header}.{forged}.{signature}"


def alg_none() -> str:
    claims = {"sub": "eve", "roles": ALL_ROLES,
              "exp": int((datetime.now(UTC) + TOKEN_LIFE).timestamp())}  # fmt: skip
    return jwt.encode(claims, key=None, algorithm="none")


CREDENTIALS = {
    "anonymous": {},
    "wrong password": {"Authorization": "PasswordQuery nope"},
    "right password": {"Authorization": "PasswordQuery letmein"},
    "token without role": bearer(mint_token(JWT_SECRET, "bob", [], TOKEN_LIFE)),
    "token with role": bearer(mint_token(JWT_SECRET, "ann", ALL_ROLES, TOKEN_LIFE)),
    "expired token": bearer(mint_token(JWT_SECRET, "ann", ALL_ROLES, timedelta(seconds=-5))),
    "tampered token": bearer(tampered()),
    "alg none": bearer(alg_none()),
}
PREVIEW_STATUS = {"anonymous": 401, "wrong password": 401, "right password": 401,
                  "token without role": 403, "token with role": 200, "expired token": 401,
                  "tampered token": 401, "alg none": 401}  # fmt: skip

# endpoint -> (url, {credential: status}, realm protecting it or None, preview?)
ENDPOINTS = {
    "members": ("/api/web_response_by_path?path=/members",
                {c: 200 if c == "right password" else 401 for c in CREDENTIALS}, "members", False),
    "premium": ("/api/web_response_by_path?path=/premium", dict.fromkeys(CREDENTIALS, 200),
                "premium", False),
    "home": ("/api/web_response_by_path?path=/", dict.fromkeys(CREDENTIALS, 200), None, False),
    "draft page": ("/api/web_response_by_path?path=/draft-page",
                   dict.fromkeys(CREDENTIALS, 404), None, False),
    "draft page preview": ("/api/web_response_by_path?path=/draft-page&_preview=1",
                           PREVIEW_STATUS, None, True),
    "home preview": ("/api/web_response_by_path?path=/&_preview=true", PREVIEW_STATUS, None, True),
    "blog": ("/api/web_response_by_path?path=/blog", dict.fromkeys(CREDENTIALS, 200), None, False),
    "common content": ("/api/common_content", dict.fromkeys(CREDENTIALS, 200), None, False),
    "common content preview": ("/api/common_content?_preview=yes", PREVIEW_STATUS, None, True),
}  # fmt: skip

GRANTED = {"members": {"right password"}, "premium": {"token with role"}}


@pytest.mark.parametrize("credential", list(CREDENTIALS))
@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_matrix(client, endpoint, credential):
    url, statuses, realm, preview = ENDPOINTS[endpoint]
    response = client.get(url, headers=CREDENTIALS[credential])
    assert response.status_code == statuses[credential], response.data
    body = response.get_data(as_text=True)
    previewing = preview and response.status_code == 200
    if not previewing:
        for unpublished in UNPUBLISHED:
            assert unpublished not in body
    for protected_realm, titles in PROTECTED.items():
        if credential not in GRANTED[protected_realm]:
            for protected in titles:
                assert protected not in body, (protected_realm, protected)
    if response.status_code != 200:
        assert response.mimetype == "application/problem+json"
        assert response.headers["Cache-Control"] == "no-store"


def test_deny_realm_answers_401_with_its_challenge(client):
    response = get_path(client, "/members")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'PasswordQuery realm="Members"'
    assert problem_detail(response) == (
        "WebResponse was denied by Realm authorization, check Www-Authenticate header"
    )


@pytest.mark.parametrize(
    "how", [{"headers": {"Authorization": "PasswordQuery letmein"}}, {"query": "&password=letmein"}]
)
def test_right_password_opens_the_realm_privately(client, how):
    url = "/api/web_response_by_path?path=/members" + how.get("query", "")
    response = client.get(url, headers=how.get("headers", {}))
    assert response.status_code == 200
    assert response.json["item"]["title"] == title("members")
    assert [b["item"]["title"] for b in response.json["blocks"]] == [title("members-text")]
    assert response.json["realms"] == [
        {"@type": "Realm", "@id": "/api/realms/1", "name": "Members", "behaviour": "deny",
         "type": "plain_password", "authenticationScheme": "PasswordQuery"}
    ]  # fmt: skip
    assert response.headers["Cache-Control"] == "private, max-age=60"


def test_hide_blocks_realm(client):
    anonymous = get_path(client, "/premium").json
    assert anonymous["hidingBlocks"] is True
    assert anonymous["blocks"] == []
    assert anonymous["realms"][0]["authenticationScheme"] == "Bearer"
    granted = get_path(client, "/premium", headers=CREDENTIALS["token with role"])
    assert granted.json["hidingBlocks"] is False
    assert [b["item"]["title"] for b in granted.json["blocks"]] == PROTECTED["premium"]
    assert granted.headers["Cache-Control"] == "private, max-age=60"


def test_preview_headers_and_forbidden_message(client):
    response = client.get(
        "/api/web_response_by_path?path=/draft-page&_preview=1",
        headers=CREDENTIALS["token with role"],
    )
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "private, no-store"
    assert response.headers["X-Preview"] == response.headers["X-Roadiz-Preview"] == "1"
    forbidden = client.get(
        "/api/web_response_by_path?path=/&_preview=1", headers=CREDENTIALS["token without role"]
    )
    assert problem_detail(forbidden) == "You are not granted to use preview mode."
    unauthorized = client.get("/api/web_response_by_path?path=/&_preview=1")
    assert unauthorized.headers["WWW-Authenticate"] == "Bearer"


def preview_get(client, path: str):
    return client.get(
        "/api/web_response_by_path", query_string={"path": path, "_preview": "1"},
        headers=CREDENTIALS["token with role"],
    )  # fmt: skip


def test_preview_shows_unpublished_content_in_every_part(client):
    home = preview_get(client, "/").json
    assert title("home-draft-block") in [b["item"]["title"] for b in home["blocks"]]
    assert title("home-hidden-block") not in [b["item"]["title"] for b in home["blocks"]]
    about_feed = preview_get(client, "/about").json["blocks"][1]
    assert "/api/articles/2901" in [c["item"]["@id"] for c in about_feed["children"]]  # draft
    assert preview_get(client, "/future-page").status_code == 200
    assert preview_get(client, "/de/about").status_code == 200  # unavailable translation


@pytest.mark.parametrize("value", ["maybe", "2", "tru"])
def test_bogus_preview_values_are_400(client, value):
    response = client.get(f"/api/web_response_by_path?path=/&_preview={value}")
    assert response.status_code == 400
    assert problem_detail(response) == (
        "_preview must be one of 1, true, on, yes, y (or 0, false, off, no, n)"
    )


@pytest.mark.parametrize("value", ["0", "false", "off", "no", "n"])
def test_preview_off_values_are_public(client, value):
    response = client.get(f"/api/web_response_by_path?path=/&_preview={value}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"].startswith("public")


def test_deny_protected_content_is_withheld_from_feeds_lists_and_references(make_app):
    site = demo_site()
    site["realms"][0]["nodes"].append({"node": 19, "inheritance": "auto"})  # first-article
    client = make_app(site).test_client()
    protected = "/api/articles/1901"
    about = get_path(client, "/about").json
    assert about["item"]["nodeReferences"] == []
    blog = get_path(client, "/blog").json
    assert protected not in [b["item"]["@id"] for b in blog["blocks"]]
    assert get_path(client, "/blog/first-article").status_code == 401
    opened = get_path(client, "/about", headers={"Authorization": "PasswordQuery letmein"})
    assert [r["@id"] for r in opened.json["item"]["nodeReferences"]] == [protected]
    assert opened.headers["Cache-Control"] == "private, max-age=60"


def test_token_command_mints_a_verifiable_token(app):
    result = app.test_cli_runner().invoke(args=["token", "--sub", "ann", "--role", "ROLE_X"])
    assert result.exit_code == 0
    claims = jwt.decode(result.output.strip(), JWT_SECRET, algorithms=["HS256"])
    assert (claims["sub"], claims["roles"]) == ("ann", ["ROLE_X"])


def test_production_refuses_to_start_without_a_secret(make_app):
    message = "JWT_SECRET must be set to at least 32 bytes in production (CMS_PRODUCTION=true)"
    for secret in (None, "short"):
        with pytest.raises(ConfigError) as raised:
            make_app(PRODUCTION=True, JWT_SECRET=secret)
        assert raised.value.message == message
