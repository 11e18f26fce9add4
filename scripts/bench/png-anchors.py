#!/usr/bin/env python3
"""The anchors of the PNG benchmark: libvips (pyvips, svgload_buffer + pngsave_buffer) and resvg
(its Python binding) rasterising ring's own SVGs in process, against ring's own PNG bytes.

    python scripts/bench/png-anchors.py RING [COUNT] [--interleaved]

Renders COUNT (default 200) default rings with distinct values of p, as scripts/bench/bench.sh asks
the server for (with --interleaved, slice=0.1 to 0.9 in turn as well, as its interleaved round does), and prints one line: "vips_us resvg_us vips_bytes resvg_bytes ring_bytes",
the median time per image of each anchor in microseconds and the mean PNG size of each.
"""
import statistics
import subprocess
import sys
import time

import pyvips
import resvg


def main():
    arguments = [a for a in sys.argv[1:] if a != "--interleaved"]
    ring = arguments[0]
    count = int(arguments[1]) if len(arguments) > 1 else 200
    queries = [f"p=1.{1000000 + i}" for i in range(count)]
    if "--interleaved" in sys.argv:
        queries = [f"{q}&slice=0.{i % 9 + 1}" for i, q in enumerate(queries)]
    svgs = [subprocess.run([ring, "render", q], capture_output=True, check=True).stdout for q in queries]
    ours = [len(subprocess.run([ring, "render", q, "--format", "png"], capture_output=True, check=True).stdout)
            for q in queries[:20]]
    options = resvg.usvg.Options.default()
    options.load_system_fonts()

    def vips(svg):
        return pyvips.Image.svgload_buffer(svg).pngsave_buffer()

    def rust(svg):
        return resvg.render(resvg.usvg.Tree.from_str(svg.decode(), options), (1, 0, 0, 0, 1, 0))

    results = []
    for render in (vips, rust):
        for svg in svgs[:10]:  # warm up
            render(svg)
        times, sizes = [], []
        for svg in svgs:
            start = time.perf_counter()
            png = render(svg)
            times.append(time.perf_counter() - start)
            sizes.append(len(png))
        results.append((statistics.median(times) * 1e6, statistics.mean(sizes[:20])))
    (vips_us, vips_bytes), (resvg_us, resvg_bytes) = results
    print(f"{vips_us:.0f} {resvg_us:.0f} {vips_bytes:.0f} {resvg_bytes:.0f} {statistics.mean(ours):.0f}")


if __name__ == "__main__":
    main()
