#!/usr/bin/env bash
# Renders the example catalogue into docs/images/ with `ring render`, the same bytes the
# server serves. With --check, changes nothing and fails when a committed image is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product ring >/dev/null
ring="$(swift build --show-bin-path)/ring"
check=false
[ "${1:-}" = "--check" ] && check=true
mkdir -p docs/images
stale=0
while IFS=$'\t' read -r name query; do
    target="docs/images/$name.svg"
    if $check; then
        if ! "$ring" render "$query" | cmp -s - "$target"; then
            echo "stale: $target (query: $query)" >&2
            stale=1
        fi
    else
        "$ring" render "$query" > "$target"
    fi
done < <("$ring" examples)
if $check; then
    [ $stale -eq 0 ] && echo "docs/images: all $(ls docs/images/*.svg | wc -l) images match ring render"
    exit $stale
fi
echo "rendered $(ls docs/images/*.svg | wc -l) images into docs/images/"
