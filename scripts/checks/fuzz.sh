#!/usr/bin/env bash
# Runs a libFuzzer target for SECONDS (default 60) with AddressSanitizer.
#
#   scripts/checks/fuzz.sh http|query|raster|font|json|deflate [SECONDS]
#
# The harness in Tests/Fuzz/ is compiled together with the module's own sources (libFuzzer
# provides main), starting from the seed corpus in Tests/Fuzz/corpus/TARGET. ByteGrammar (and
# for raster, font and json, RingCore) is built first as an instrumented module of its own; for those
# two the embedded font data and zlib are linked in too. An input that takes more than 10 s is a
# failure (a hang). Findings land in
# .build/fuzz/TARGET/; a crash makes the script fail and leaves the input to add as a regression
# test.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: scripts/checks/fuzz.sh http|query|raster|font|json|deflate [SECONDS]}
seconds=${2:-60}
out=.build/fuzz/$target
mkdir -p "$out/corpus"
# ByteGrammar, which both the HTTP and the query parser import, as an instrumented module of its own.
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name ByteGrammar -package-name ring \
    -emit-module -emit-module-path "$out/ByteGrammar.swiftmodule" -emit-library -static \
    -o "$out/libByteGrammar.a" Sources/ByteGrammar/*.swift
extra=(-I "$out")
# The lock box and the calendar, for the HTTP parser's files, RingCore and the font cache.
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name Primitives -package-name ring \
    -emit-module -emit-module-path "$out/Primitives.swiftmodule" -emit-library -static \
    -o "$out/libPrimitives.a" Sources/Primitives/*.swift
case "$target" in
    http)
        # The parser's files, against the Primitives module (the lock box).
        sources=(Sources/HTTPServer/HTTP/*.swift Sources/HTTPServer/ServerConfiguration.swift
                 Sources/HTTPServer/Socket/ClientAddress.swift
                 Tests/Fuzz/HTTPRequestParserFuzz.swift)
        extra+=("$out/libPrimitives.a") ;;
    query)
        sources=($(find Sources/RingCore -name '*.swift') Tests/Fuzz/RingQueryFuzz.swift)
        extra+=("$out/libPrimitives.a") ;;
    raster|font)
        harness=Tests/Fuzz/RingRasterFuzz.swift
        [ "$target" = font ] && harness=Tests/Fuzz/FontReaderFuzz.swift
        sources=($(find Sources/RingRaster -name '*.swift') "$harness")
        swiftc -O -sanitize=fuzzer,address -parse-as-library \
            -module-name RingCore -package-name ring -emit-module -emit-module-path "$out/RingCore.swiftmodule" \
            -I "$out" -emit-library -static -o "$out/libRingCore.a" $(find Sources/RingCore -name '*.swift')
        for data in font normalization; do
            clang -O1 -fsanitize=address -c Sources/RingFontData/$data.c -I Sources/RingFontData/include \
                -o "$out/$data.o"
        done
        printf 'module RingFontData {\n    header "%s"\n    export *\n}\n' \
            "$PWD/Sources/RingFontData/include/RingFontData.h" > "$out/module.modulemap"
        extra+=(-I Sources/CZlib "$out/libRingCore.a" "$out/libPrimitives.a" "$out/font.o" "$out/normalization.o" -lz) ;;
    json)
        # The source documents' parser, against RingCore for the field paths.
        sources=(Sources/RingService/Live/JSONDocument.swift Tests/Fuzz/JSONDocumentFuzz.swift)
        swiftc -O -sanitize=fuzzer,address -parse-as-library \
            -module-name RingCore -package-name ring -emit-module -emit-module-path "$out/RingCore.swiftmodule" \
            -I "$out" -emit-library -static -o "$out/libRingCore.a" $(find Sources/RingCore -name '*.swift')
        extra+=("$out/libRingCore.a" "$out/libPrimitives.a") ;;
    deflate)
        # Our own deflate alone, judged by the system zlib's inflate.
        sources=(Sources/RingRaster/PNG/Deflate/*.swift Tests/Fuzz/RunLengthDeflateFuzz.swift)
        extra+=(-I Sources/CZlib -lz) ;;
    *) echo "fuzz.sh: unknown target '$target' (http, query, raster, font, json or deflate)" >&2; exit 2 ;;
esac
binary=$out/fuzz-$target
rm -f "$binary"  # a failed build must not leave the last one to run
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name Fuzz"${target^}" -package-name ring \
    "${sources[@]}" "${extra[@]}" "$out/libByteGrammar.a" -o "$binary" 2>&1 | grep -v "Cannot export local symbol" || true
[ -x "$binary" ] || { echo "fuzz.sh: build failed" >&2; exit 1; }
# Findings of earlier runs go aside, into $out/earlier, so that this run's verdict is its own.
findings() { find "$out" -maxdepth 1 \( -name "crash-*" -o -name "leak-*" -o -name "timeout-*" -o -name "oom-*" \) "$@"; }
if [ -n "$(findings -print -quit)" ]; then
    mkdir -p "$out/earlier"
    findings -exec mv -t "$out/earlier/" {} +
fi
# Let libFuzzer, not the Swift runtime, handle crashes, so it writes the crashing input.
export SWIFT_BACKTRACE=enable=no
"$binary" "$out/corpus" "Tests/Fuzz/corpus/$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -max_len=$(case "$target" in font|deflate) echo 16384 ;; *) echo 4096 ;; esac) -artifact_prefix="$out/" -print_final_stats=1 2>&1 | tee "$out/log" | grep -E "^#[0-9]+ *DONE|stat::|ERROR|Test unit written" || true
if [ -n "$(findings -print -quit)" ]; then
    echo "fuzz.sh: $target found a failure; inputs in $out" >&2
    exit 1
fi
runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$out/log")
echo "fuzz.sh: $target ran $runs inputs in ${seconds}s without a failure"
