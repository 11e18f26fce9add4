#!/usr/bin/env bash
# The action's cache key: a digest of what the release build of ring is made from, as
# `key=HEX` for $GITHUB_OUTPUT, so a new source builds anew and the same source never does.
set -euo pipefail
cd "${GITHUB_ACTION_PATH:-$(dirname "$0")/../..}"
digest=$(find Package.swift Sources -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-32)
swift=$(swift --version 2>/dev/null | head -n 1 | sha256sum | cut -c1-8)
echo "key=$digest-$swift"
