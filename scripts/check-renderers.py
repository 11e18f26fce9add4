#!/usr/bin/env python3
"""Checks rings in real SVG renderers: librsvg (rsvg-convert) and resvg.

For every catalogue example: xmllint says the SVG is well-formed, and both renderers draw it
at its declared size. For a set of angle probes (a red butt-capped bar, no track, no label):
the pixels each renderer draws cover exactly the arc the URL contract promises, within 1.5°.

Usage: scripts/check-renderers.py PATH-TO-ring
Needs rsvg-convert (Debian librsvg2-bin), resvg (PyPI resvg-cli), xmllint (libxml2-utils),
pillow and numpy. A missing tool is a failure, never a skip.
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

ring = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
for tool in ("rsvg-convert", "resvg", "xmllint"):
    if shutil.which(tool) is None:
        sys.exit(f"check-renderers: {tool} is not installed")

work = tempfile.mkdtemp()
failures = []


def render(query):
    result = subprocess.run([ring, "render", query], capture_output=True, check=True)
    return result.stdout


def rasterize(svg_path, renderer):
    png = svg_path + f".{renderer}.png"
    if renderer == "rsvg":
        cmd = ["rsvg-convert", svg_path, "-o", png]
    else:
        cmd = ["resvg", svg_path, png]
    subprocess.run(cmd, check=True, capture_output=True)
    return np.asarray(Image.open(png).convert("RGBA")).astype(int)


def covered(image, size):
    """Degree buckets (clockwise from 12 o'clock) holding red pixels."""
    mask = (image[..., 0] > 200) & (image[..., 1] < 60) & (image[..., 2] < 60) & (image[..., 3] > 200)
    ys, xs = np.nonzero(mask)
    cx = cy = size / 2
    theta = np.degrees(np.arctan2(xs + 0.5 - cx, -(ys + 0.5 - cy))) % 360
    return np.bincount(theta.astype(int), minlength=360) >= 2


def expected_buckets(start, sweep):
    buckets = np.zeros(360, dtype=bool)
    low, high = (start, start + sweep) if sweep >= 0 else (start + sweep, start)
    for degree in range(360):
        centre = degree + 0.5
        for shift in (-360, 0, 360):
            if low + 1.5 <= centre + shift <= high - 1.5:
                buckets[degree] = True
    return buckets, low, high


# 1. Every catalogue image: well-formed, drawn at its size by both renderers.
examples = subprocess.run([ring, "examples"], capture_output=True, text=True, check=True).stdout
count = 0
for line in examples.strip().split("\n"):
    name, query = line.split("\t")
    path = os.path.join(work, name + ".svg")
    with open(path, "wb") as handle:
        handle.write(render(query))
    lint = subprocess.run(["xmllint", "--noout", path], capture_output=True, text=True)
    if lint.returncode != 0:
        failures.append(f"{name}: xmllint: {lint.stderr.strip()}")
    for renderer in ("rsvg", "resvg"):
        image = rasterize(path, renderer)
        if image[..., 3].max() == 0:
            failures.append(f"{name}: {renderer} drew nothing")
    count += 1

# 2. Angle probes: where the bar really lands.
probes = [
    ("p=25", 0, 90), ("p=72", 0, 259.2), ("p=50&start=90", 90, 180), ("p=40&dir=ccw", 0, -144),
    ("p=72&slice=0.45", 261, 142.56), ("p=50&slice=0.25&dir=ccw", 135, -135),
    ("p=30&half", 270, 54), ("p=64&half&dir=ccw", 90, -115.2), ("p=80&start=-45&slice=0.2", 171, 230.4),
    ("p=10&start=200", 200, 36), ("p=95&size=300&width=20", 0, 342),
]
angle_checks = 0
for query, start, sweep in probes:
    full = query + "&color=ff0000&track=none&label=none&cap=butt"
    path = os.path.join(work, f"probe{angle_checks}.svg")
    with open(path, "wb") as handle:
        handle.write(render(full))
    size = int(dict(part.split("=") for part in full.split("&") if "=" in part).get("size", 120))
    want, low, high = expected_buckets(start, sweep)
    for renderer in ("rsvg", "resvg"):
        got = covered(rasterize(path, renderer), size)
        missing = np.nonzero(want & ~got)[0]
        # Anything drawn outside the arc (with 1.5° for anti-aliasing) is a misplaced bar.
        outside = [d for d in np.nonzero(got)[0]
                   if not any(low - 1.5 <= d + 0.5 + s <= high + 1.5 for s in (-360, 0, 360))]
        if len(missing) or len(outside):
            failures.append(f"{query} in {renderer}: missing {list(missing)[:6]}, outside {outside[:6]}")
        angle_checks += 1

for failure in failures:
    print("FAIL", failure)
print(f"check-renderers: {count} catalogue images in rsvg and resvg, {angle_checks} angle checks: "
      f"{count * 3 + angle_checks - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
