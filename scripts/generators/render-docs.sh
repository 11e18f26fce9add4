#!/usr/bin/env bash
# Renders the example catalogue into docs/images/ with `ring render`, the same bytes the
# server serves, and the parameter tables of docs/parameters.md with `ring parameters`, from the
# contract's one table. With --check, changes nothing and fails when an image or a table is stale.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product ring >/dev/null
ring="$(swift build --show-bin-path)/ring"
check=false
[ "${1:-}" = "--check" ] && check=true
mkdir -p docs/images
stale=0
produce() { # produce TARGET COMMAND...: writes TARGET from COMMAND's output, or with --check compares
    local target=$1
    shift
    if $check; then
        if ! "$@" | cmp -s - "$target"; then
            echo "stale: $target (from: ${*:2})" >&2
            stale=1
        fi
    else
        "$@" > "$target"
    fi
}
error_image() { # error_image QUERY [FLAGS...]: the error image an invalid query gets, whose render exits 1
    if "$ring" render "$@" --error-image 2>/dev/null; then echo "render-docs.sh: '$1' is valid" >&2; return 1; fi
}
while IFS=$'\t' read -r name query; do
    produce "docs/images/$name.svg" "$ring" render "$query"
done < <("$ring" examples)
# The error images the docs show: invalid queries, rendered as the server answers them.
while IFS=$'\t' read -r name query; do
    produce "docs/images/$name.svg" error_image "$query"
done < <("$ring" examples --errors)
# The PNGs the docs show, from the same engine as /ring.png: rings, and an error image.
while IFS=$'\t' read -r name query; do
    if [ "$name" = png-error ]; then
        produce "docs/images/$name.png" error_image "$query" --format png
    else
        produce "docs/images/$name.png" "$ring" render "$query" --format png
    fi
done < <(printf '%s\n' $'png-default\tp=72&scale=2' $'png-error\tp=1&width=500&scale=2' \
    $'png-laps\tp=230&overflow=lap&scale=2' $'png-laps-gradient\tp=170&overflow=lap&gradient=22c55e,0ea5e9,a855f7&scale=2' \
    $'png-marks\tp=64&target=80&ticks=10&scale=2')
# The seeds' five languages, in SVG and in PNG with the fallback fonts the Dockerfile installs
# (named, so that the PNGs do not depend on what else this machine has).
fonts=(/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf /usr/share/fonts/truetype/nanum/NanumGothicBold.ttf)
for font in "${fonts[@]}"; do
    [ -f "$font" ] || { echo "render-docs.sh: $font is missing (apt-get install fonts-droid-fallback fonts-nanum)" >&2; exit 1; }
done
while IFS=$'\t' read -r name query; do
    produce "docs/images/$name.svg" "$ring" render "$query"
    produce "docs/images/png-$name.png" "$ring" render "$query&scale=2" --format png --font "${fonts[0]}" --font "${fonts[1]}"
done < <("$ring" examples --languages)
# Each `<!-- parameters:GROUP -->` … `<!-- /parameters -->` block is replaced by ring's own.
tables=$(mktemp)
"$ring" parameters > "$tables"
awk -v tables="$tables" '
    BEGIN { while ((getline line < tables) > 0) { if (line ~ /^<!-- parameters:/) g = line; block[g] = block[g] line "\n" } }
    /^<!-- parameters:/ { printf "%s", block[$0]; skip = 1; next }
    skip && /^<!-- \/parameters -->/ { skip = 0; next }
    !skip { print }
' docs/parameters.md > "$tables.md"
if $check; then
    if ! cmp -s "$tables.md" docs/parameters.md; then
        echo "stale: the parameter tables in docs/parameters.md (run scripts/generators/render-docs.sh)" >&2
        diff docs/parameters.md "$tables.md" >&2 || true
        stale=1
    fi
    rm -f "$tables" "$tables.md"
    [ $stale -eq 0 ] && echo "docs: all $(ls docs/images/*.svg | wc -l) SVGs, the PNGs and the parameter tables match ring"
    exit $stale
fi
mv "$tables.md" docs/parameters.md
rm -f "$tables"
echo "rendered $(ls docs/images/*.svg | wc -l) images into docs/images/ and the parameter tables"
