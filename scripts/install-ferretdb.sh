#!/usr/bin/env bash
# Installs FerretDB 1.24.2 (the real MongoDB-protocol server of the test tier) into $(go env GOPATH)/bin.
# `go install ...@v1.24.2` is tried first; when the module proxy refuses its version-list lookup
# (403 on @v/list, seen here), the module is downloaded, copied and built with its version file.
set -euo pipefail
VERSION=v1.24.2
export GOTOOLCHAIN="${GOTOOLCHAIN:-go1.24.3}"
BIN="$(go env GOPATH)/bin/ferretdb"

if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "${VERSION}"; then
  echo "ferretdb ${VERSION} already installed at ${BIN}"
  exit 0
fi

echo "installing ferretdb ${VERSION} (first build takes a few minutes)..."
if go install "github.com/FerretDB/FerretDB/cmd/ferretdb@${VERSION}"; then
  "$BIN" --version | head -1
  exit 0
fi

echo "go install refused; building from the downloaded module instead"
dir=$(go mod download -json "github.com/FerretDB/FerretDB@${VERSION}" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
work=$(mktemp -d)
cp -r "$dir"/. "$work"
chmod -R u+w "$work"
echo "${VERSION}" > "$work/build/version/version.txt"
(cd "$work" && GOFLAGS=-mod=mod go build -o "$BIN" ./cmd/ferretdb)
rm -rf "$work"
"$BIN" --version | head -1
