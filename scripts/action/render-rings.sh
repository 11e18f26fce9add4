#!/usr/bin/env bash
# The action's render step: each line of $RINGS, `FILE: QUERY or URL`, written with
# `ring render` (and `--values $VALUES` when given, for rings not written with p, or from and
# to) into the workspace. Blank lines and lines
# starting with # are skipped. Any ring that cannot be drawn fails the step, naming it; the
# files written are listed in $GITHUB_OUTPUT as `files`.
set -euo pipefail
ring="${GITHUB_ACTION_PATH:-$(dirname "$0")/../..}/.build/release/ring"
[ -x "$ring" ] || { echo "render-rings: $ring is not built" >&2; exit 1; }
cd "${GITHUB_WORKSPACE:-.}"
[ -z "${VALUES:-}" ] || [ -f "$VALUES" ] || { echo "render-rings: values file $VALUES does not exist" >&2; exit 1; }
written=()
failed=0
while IFS= read -r line || [ -n "$line" ]; do
    line="${line#"${line%%[![:space:]]*}"}"
    [ -z "$line" ] || [ "${line:0:1}" = "#" ] && continue
    file="${line%%:*}"
    ring_query="${line#*:}"
    ring_query="${ring_query#"${ring_query%%[![:space:]]*}"}"
    if [ "$file" = "$line" ] || [ -z "$ring_query" ]; then
        echo "render-rings: '$line' is not FILE: QUERY" >&2
        failed=1
        continue
    fi
    case "$file" in
        /* | *..*) echo "render-rings: $file must be a path inside the workspace" >&2; failed=1; continue ;;
    esac
    mkdir -p "$(dirname "$file")"
    arguments=(render "$ring_query" -o "$file")
    # A ring written with its value (p, or from and to) reads no file.
    if [ -n "${VALUES:-}" ] && ! [[ "${ring_query#*\?}" =~ (^|&)(p|from|to)= ]]; then
        arguments+=(--values "$VALUES")
    fi
    if "$ring" "${arguments[@]}"; then
        echo "render-rings: wrote $file"
        written+=("$file")
    else
        echo "render-rings: $file was not written" >&2
        failed=1
    fi
done <<< "${RINGS:-}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
    { echo "files<<RING_FILES"; printf '%s\n' "${written[@]}"; echo "RING_FILES"; } >> "$GITHUB_OUTPUT"
fi
[ "${#written[@]}" -gt 0 ] || { echo "render-rings: no ring to write (input rings)" >&2; exit 1; }
exit "$failed"
