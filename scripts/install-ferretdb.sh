#!/usr/bin/env bash
# Installs FerretDB 1.24.2 (the real MongoDB-protocol server of the test tier) into $(go env GOPATH)/bin.
# `go install ...@v1.24.2` is tried first. The module as the proxy serves it has no
# build/version/version.txt, so that binary can panic at start ("Invalid build/version/version.txt
# file content", seen here on 2026-11-24); when it does not start, or when the proxy refuses the
# version-list lookup (403 on @v/list, seen before), the module is downloaded, copied and built
# with its version file, over the broken binary.
set -euo pipefail
VERSION=v1.24.2
export GOTOOLCHAIN="${GOTOOLCHAIN:-go1.24.3}"
BIN="$(go env GOPATH)/bin/ferretdb"

# The first line of `ferretdb --version` when the binary starts, else nothing. Read whole, then
# matched: `--version | grep -q` or `| head -1` can end the pipe early (SIGPIPE, status 141).
installed_version() {
  local out
  out="$("$BIN" --version 2>/dev/null || true)"
  printf '%s\n' "${out%%$'\n'*}"
}

if [ -x "$BIN" ] && [[ "$(installed_version)" == *"${VERSION}"* ]]; then
  echo "ferretdb ${VERSION} already installed at ${BIN}"
  exit 0
fi

echo "installing ferretdb ${VERSION} (first build takes a few minutes)..."
if go install "github.com/FerretDB/FerretDB/cmd/ferretdb@${VERSION}" \
    && [[ "$(installed_version)" == *"${VERSION}"* ]]; then
  installed_version
  exit 0
fi

echo "go install refused, or its binary does not start; building from the downloaded module instead"
dir=$(go mod download -json "github.com/FerretDB/FerretDB@${VERSION}" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
work=$(mktemp -d)
cp -r "$dir"/. "$work"
chmod -R u+w "$work"
echo "${VERSION}" > "$work/build/version/version.txt"
(cd "$work" && GOFLAGS=-mod=mod go build -o "$BIN" ./cmd/ferretdb)
rm -rf "$work"
version="$(installed_version)"
echo "${version}"
[[ "${version}" == *"${VERSION}"* ]] || { echo "the built ferretdb does not start" >&2; exit 1; }
