"""The operator documentation is true to the commands: mongosh snippets say which database,
the make targets and flask commands it names exist, and its configuration names are settings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.config import DEFAULTS
from app.query_plan import INDEXES

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
MAKE_TARGETS = set(re.findall(r"^([a-z-]+):", (ROOT / "Makefile").read_text(), re.M))


def js_blocks(text: str) -> list[str]:
    return re.findall(r"```js\n(.*?)```", text, re.S)


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_mongosh_snippet_says_which_database(doc):
    for block in js_blocks(doc.read_text(encoding="utf-8")):
        assert block.startswith("use "), f"{doc.name}: a mongosh snippet without `use <db>`"


def test_there_are_mongosh_snippets_to_check():
    assert js_blocks((ROOT / "docs" / "collections.md").read_text())
    assert js_blocks((ROOT / "docs" / "operations.md").read_text())


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_make_target_named_exists(doc):
    text = doc.read_text(encoding="utf-8")
    code = re.findall(r"```sh\n(.*?)```", text, re.S) + re.findall(r"`([^`\n]+)`", text)
    named = {t for c in code for t in re.findall(r"\bmake ([a-z][a-z-]+)", c)}
    assert named <= MAKE_TARGETS, named - MAKE_TARGETS


def test_the_flask_commands_of_the_operations_doc_exist(app):
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    commands = set(re.findall(r"flask --app app:create_app ([a-z]+(?: [a-z]+)?)", text))
    assert commands == {"site status", "site rollback", "seed"}
    runner = app.test_cli_runner()
    for command in commands:
        result = runner.invoke(args=[*command.split(), "--help"])
        assert result.exit_code == 0, (command, result.output)
    assert "--json" in runner.invoke(args=["site", "status", "--help"]).output
    assert "--force" in runner.invoke(args=["seed", "--help"]).output


def test_the_settings_of_the_operations_doc_exist():
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    names = set(re.findall(r"`CMS_([A-Z_]+)", text))
    assert names and names <= set(DEFAULTS), names - set(DEFAULTS)


def test_the_index_check_of_the_operations_doc_lists_every_index_of_sources():
    """The mongosh check an operator runs before switching by hand names what the loader builds."""
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    block = next(b for b in js_blocks(text) if "getIndexes()" in b)
    listed = re.findall(r'"([a-z_]+)"', block.split("getIndexes()", 1)[1])
    assert listed == ["_id_", *(name for name, _, _ in INDEXES["sources"])]
