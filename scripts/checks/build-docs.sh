#!/usr/bin/env bash
# Builds the DocC documentation of the library products with the toolchain's `docc` (no plugin,
# no package dependency): symbol graphs of the public API from a build of RingRaster, then one
# archive per module, with warnings treated as errors.
#
#   scripts/checks/build-docs.sh [OUTPUT-DIR]   (default .build/docs)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.build/docs}
command -v docc >/dev/null || { echo "build-docs.sh: docc not found (it ships with the Swift toolchain)" >&2; exit 1; }
mkdir -p "$out"
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
swift build --scratch-path .build/docc-symbols --target RingRaster \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public 2>&1 | tail -n 1
for module in RingCore RingRaster; do
    mkdir -p "$graphs/$module"
    cp "$graphs/$module.symbols.json" "$graphs/$module/"
    if ! docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "ring.$module" \
        --warnings-as-errors --output-path "$out/$module.doccarchive" > "$graphs/$module.log" 2>&1; then
        cat "$graphs/$module.log" >&2
        echo "build-docs.sh: docc reported problems in $module" >&2
        exit 1
    fi
    if grep -q "warning:" "$graphs/$module.log"; then
        cat "$graphs/$module.log" >&2
        echo "build-docs.sh: docc warned in $module" >&2
        exit 1
    fi
    echo "build-docs.sh: $module documented in $out/$module.doccarchive"
done
