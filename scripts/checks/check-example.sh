#!/usr/bin/env bash
# Builds Examples/RingExample, a package that depends on this repository by path and imports the
# library products RingCore and RingRaster, runs it, and checks that the SVG and PNG it renders
# through the library are byte for byte what `ring render` writes, and that a bad query is
# refused with the parameter's message.
#
#   scripts/checks/check-example.sh PATH-TO-ring
set -euo pipefail
cd "$(dirname "$0")/../.."
ring=${1:?usage: scripts/checks/check-example.sh PATH-TO-ring}
swift build --package-path Examples/RingExample 2>&1 | tail -n 1
example="$(swift build --package-path Examples/RingExample --show-bin-path)/ring-example"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
for query in 'p=72&slice=0.45' 'p=72,45,90&scale=2' 'p=64&half&caption=of+budget&theme=dark'; do
    "$example" "$query" "$out" >/dev/null
    if "$ring" render "$query" | cmp -s - "$out/ring.svg" && "$ring" render "$query" --format png | cmp -s - "$out/ring.png"; then
        echo "  PASS  $query: the library's SVG and PNG are ring render's"
    else
        echo "  FAIL  $query: the library's bytes differ from ring render's"
        failed=1
    fi
done
if message=$("$example" 'p=1&size=100000' "$out" 2>&1); then
    echo "  FAIL  a bad query was accepted"
    failed=1
elif [ "$message" = 'ring-example: size: "100000" is out of range 16…1024' ]; then
    echo "  PASS  a bad query is refused with its parameter's message"
else
    echo "  FAIL  a bad query said: $message"
    failed=1
fi
exit $failed
