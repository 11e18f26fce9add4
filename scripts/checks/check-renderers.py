#!/usr/bin/env python3
"""Checks rings in real SVG renderers: librsvg (rsvg-convert), resvg and CairoSVG.

For every catalogue example: xmllint says the SVG is well-formed, and every renderer draws it
at its declared size. For a set of angle probes (a red butt-capped bar, no track, no label):
the pixels each renderer draws cover exactly the arc the URL contract promises, within 1.5°;
for concentric rings, each ring's arc, told apart by colour and radius, in our PNG engine too.
Then, in pixels, in every renderer: values near 100 % draw visibly more bar and keep a gap;
translucent gradients have even alpha, caps included; gradient rings show no seams; the
outline of an open track encloses its caps; the shadow never moves the bar. Last, with our PNG
too: every target and tick mark at its angle within 1.5° and across its track, and the head of a
ring's top lap at its value's angle, and each stacked part's angle within 1° of its share.

Usage: scripts/checks/check-renderers.py PATH-TO-ring
Needs rsvg-convert (Debian librsvg2-bin), resvg (PyPI resvg-cli), cairosvg (PyPI), xmllint
(libxml2-utils), pillow and numpy. A missing tool is a failure, never a skip.
"""
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

from svg_renderers import RENDERERS, rasterize, require_tools

ring = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
require_tools("check-renderers", "xmllint")

work = tempfile.mkdtemp()
failures = []


def render(query):
    result = subprocess.run([ring, "render", query], capture_output=True, check=True)
    return result.stdout


def draw(query, renderer, name):
    path = os.path.join(work, name + ".svg")
    with open(path, "wb") as handle:
        handle.write(render(query))
    return rasterize(path, renderer)


def red(image):
    return (image[..., 0] > 200) & (image[..., 1] < 60) & (image[..., 2] < 60) & (image[..., 3] > 200)


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
    for renderer in RENDERERS:
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
    for renderer in RENDERERS:
        got = covered(rasterize(path, renderer), size)
        missing = np.nonzero(want & ~got)[0]
        # Anything drawn outside the arc (with 1.5° for anti-aliasing) is a misplaced bar.
        outside = [d for d in np.nonzero(got)[0]
                   if not any(low - 1.5 <= d + 0.5 + s <= high + 1.5 for s in (-360, 0, 360))]
        if len(missing) or len(outside):
            failures.append(f"{query} in {renderer}: missing {list(missing)[:6]}, outside {outside[:6]}")
        angle_checks += 1

# 2b. Concentric rings: each ring's arc measured apart from the others, by its colour and its
# radius, in every SVG renderer and in our own PNG engine. Ring i's centre line lies at
# size/2 - width/2 - i * (width + gap); colours come from `color`, or from `thresholds` by
# each ring's own value.
COLOURS = {"ff0000": (255, 0, 0), "00ff00": (0, 255, 0), "0000ff": (0, 0, 255)}


def colour_mask(image, rgb):
    return np.all([(image[..., c] > 200) if rgb[c] else (image[..., c] < 60) for c in range(3)], axis=0) \
        & (image[..., 3] > 200)


def draw_ring(query, renderer, name):
    """A ring drawn by an SVG renderer, or by our PNG engine (`ring render --format png`)."""
    if renderer != "png":
        return draw(query, renderer, name)
    path = os.path.join(work, name + ".png")
    subprocess.run([ring, "render", query, "-o", path], check=True, capture_output=True)
    return np.asarray(Image.open(path).convert("RGBA")).astype(int)


# Large enough that a degree spans more than a pixel on every ring, so every degree's bucket
# holds pixel centres.
ring_probes = [
    # query, [(colour, start, sweep), ...] outermost first
    ("p=25,50,75&color=ff0000,00ff00,0000ff", [("ff0000", 0, 90), ("00ff00", 0, 180), ("0000ff", 0, 270)]),
    ("p=72,40&slice=0.45&color=0000ff,ff0000", [("0000ff", 261, 142.56), ("ff0000", 261, 79.2)]),
    ("p=30,64,90&half&color=ff0000,00ff00,0000ff&gap=16",
     [("ff0000", 270, 54), ("00ff00", 270, 115.2), ("0000ff", 270, 162)]),
    ("p=50,20&dir=ccw&start=90&color=00ff00,ff0000", [("00ff00", 90, -180), ("ff0000", 90, -72)]),
    ("p=60,30,90,45&size=960&width=64&gap=24&color=ff0000,00ff00,0000ff,ff0000",
     [("ff0000", 0, 216), ("00ff00", 0, 108), ("0000ff", 0, 324), ("ff0000", 0, 162)]),
    ("p=30,60,90&thresholds=ff0000,50:00ff00,80:0000ff", [("ff0000", 0, 108), ("00ff00", 0, 216), ("0000ff", 0, 324)]),
    ("p=3,6&max=10,20&thresholds=ff0000,5:00ff00", [("ff0000", 0, 108), ("00ff00", 0, 108)]),
]
ring_checks = 0
for query, rings in ring_probes:
    full = query + "&track=none&label=none&cap=butt" + ("" if "size=" in query else "&size=480")
    given = dict(part.split("=") for part in full.split("&") if "=" in part)
    size = int(given["size"])
    width = float(given.get("width", size / 10))
    gap = float(given.get("gap", size / 60))
    for renderer in RENDERERS + ("png",):
        image = draw_ring(full, renderer, f"rings{ring_checks}")
        # A half gauge is cropped below its centre, which stays at size/2.
        ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]]
        distance = np.hypot(xs + 0.5 - size / 2, ys + 0.5 - size / 2)
        theta = np.degrees(np.arctan2(xs + 0.5 - size / 2, -(ys + 0.5 - size / 2))) % 360
        for index, (colour, start, sweep) in enumerate(rings):
            radius = size / 2 - width / 2 - index * (width + gap)
            inside = colour_mask(image, COLOURS[colour]) & (np.abs(distance - radius) < width / 2)
            got = np.bincount(theta[inside].astype(int), minlength=360) >= 2
            want, low, high = expected_buckets(start, sweep)
            missing = np.nonzero(want & ~got)[0]
            outside = [d for d in np.nonzero(got)[0]
                       if not any(low - 1.5 <= d + 0.5 + s <= high + 1.5 for s in (-360, 0, 360))]
            # The ring's own pixels sit at its radius: its colour at any other radius within
            # this ring's band would be a ring drawn in the wrong place.
            spread = np.abs(distance[inside] - radius).max() if inside.any() else 0
            if len(missing) or len(outside) or spread > width / 2:
                failures.append(f"{query} ring {index + 1} in {renderer}: missing {list(missing)[:6]}, "
                                f"outside {outside[:6]}")
            ring_checks += 1

# 3. Fidelity, in pixels.
pixel_checks = 0


def check(condition, message):
    global pixel_checks
    pixel_checks += 1
    if not condition:
        failures.append(message)


def pieces(mask):
    """How many 4-connected pieces `mask` has."""
    seen = np.zeros(mask.shape, dtype=bool)
    count = 0
    for y, x in zip(*np.nonzero(mask)):
        if seen[y, x]:
            continue
        count += 1
        stack = [(y, x)]
        while stack:
            y, x = stack.pop()
            if y < 0 or x < 0 or y >= mask.shape[0] or x >= mask.shape[1] or seen[y, x] or not mask[y, x]:
                continue
            seen[y, x] = True
            stack += [(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)]
    return count


def band(size, width, margin):
    """Pixels whose centres lie inside the ring's bar, `margin` px in from both edges."""
    ys, xs = np.mgrid[0:size, 0:size]
    distance = np.hypot(xs + 0.5 - size / 2, ys + 0.5 - size / 2)
    radius = size / 2 - width / 2
    return (distance > radius - width / 2 + margin) & (distance < radius + width / 2 - margin)


# Segments on several rings: each ring its own pieces, filled by its own value.
for renderer in RENDERERS + ("png",):
    image = draw_ring("p=50,100&segments=5&color=ff0000,0000ff&track=none&label=none&size=240", renderer,
                      "ring-segments")
    found = (pieces(colour_mask(image, COLOURS["ff0000"])), pieces(colour_mask(image, COLOURS["0000ff"])))
    if found != (3, 5):
        failures.append(f"{renderer}: p=50,100&segments=5 draws {found} filled pieces, not (3, 5)")
    ring_checks += 1

for renderer in RENDERERS:
    # Values near 100 % look different, and an open ring keeps a gap (width 40, round caps).
    counts = []
    for value in (82, 90, 95, 99, 99.9):
        image = draw(f"p={value}&width=40&color=ff0000&track=none&label=none", renderer, f"near-{value}")
        counts.append(int(red(image).sum()))
        if value == 99.9:
            check(covered(image, 120).sum() < 360, f"{renderer}: p=99.9 at width 40 draws a closed ring")
    check(all(a < b for a, b in zip(counts, counts[1:])),
          f"{renderer}: bar pixels from p=82 to 99.9 at width 40 do not grow: {counts}")

    # The smallest value shows the same small mark everywhere (no zero-length path).
    for query in ("p=0.001", "p=0.001&cap=butt", "p=0.001&half", "p=0.001&gradient=ff0000,ff0000"):
        image = draw(query + "&color=ff0000&track=none&label=none", renderer, "tiny")
        check(red(image).sum() >= 10, f"{renderer}: {query} shows no mark ({red(image).sum()} pixels)")

    # Translucent gradient stops: alpha even along the bar, caps included.
    image = draw("p=80&gradient=ff000080,0000ff80&width=20&track=none&label=none", renderer, "alpha")
    # The bar's interior, caps included: its clearly covered pixels, less two more pixels of
    # edge. A doubled overlap or cap would show there as about 191.
    inside = image[..., 3] >= 100
    for _ in range(2):
        inside = inside & np.roll(inside, 1, 0) & np.roll(inside, -1, 0) & np.roll(inside, 1, 1) & np.roll(inside, -1, 1)
    alphas = image[..., 3][inside]
    even = ((alphas >= 122) & (alphas <= 134)).mean() if len(alphas) else 0
    check(len(alphas) > 500 and alphas.max() <= 134 and even >= 0.99,
          f"{renderer}: translucent gradient alpha runs {alphas.min()}…{alphas.max()}, "
          f"{even:.1%} within 128 ± 6")

    # No seam between gradient segments: on a red page, a grey ramp must never turn reddish.
    for query, size, width in (("p=100&gradient=000000,ffffff&width=40", 120, 40),
                               ("p=100&gradient=000000,ffffff&size=16&width=5.33", 16, 5.33)):
        image = draw(query + "&track=none&label=none&bg=ff0000", renderer, f"seam-{size}")
        inside = band(size, width, 1)
        leak = (image[..., 0] - (image[..., 1] + image[..., 2]) / 2)[inside]
        check(leak.max() <= 12, f"{renderer}: {query} leaks the background by {leak.max():.0f}/255")

    # The outline of an open track encloses it, caps included: flooding from the image's
    # border through everything but the outline never reaches the track.
    image = draw("p=97&slice=0.5&outline=000000&trackWidth=30&track=00ff00&color=00ff00&label=none&size=240",
                 renderer, "outline")
    wall = (image[..., 3] > 60) & (image[..., 0] < 90) & (image[..., 1] < 90) & (image[..., 2] < 90)
    green = (image[..., 1] > 150) & (image[..., 0] < 120) & (image[..., 3] > 128)
    seen = np.zeros(wall.shape, dtype=bool)
    stack = [(y, x) for y in range(240) for x in (0, 239)] + [(y, x) for x in range(240) for y in (0, 239)]
    reached = 0
    while stack:
        y, x = stack.pop()
        if y < 0 or x < 0 or y >= 240 or x >= 240 or seen[y, x] or wall[y, x]:
            continue
        seen[y, x] = True
        reached += green[y, x]
        stack += [(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)]
    check(green.sum() > 1000 and reached == 0,
          f"{renderer}: the outline leaves {reached} track pixels outside it")

    # Thresholds: the bar takes the colour of the last step at or below the value, the base below
    # the first; labelColor=bar paints the label in it. Measured at the bar's middle.
    for value, expected in ((10, (255, 0, 0)), (50, (0, 0, 255)), (79.9, (0, 0, 255)), (80, (0, 255, 0))):
        query = f"p={value}&thresholds=ff0000,50:0000ff,80:00ff00&track=none&label=none"
        image = draw(query, renderer, f"thresholds-{value}")
        radius = 60 - 6
        angle = math.radians(value / 100 * 360 / 2)
        x, y = int(60 + radius * math.sin(angle)), int(60 - radius * math.cos(angle))
        got = tuple(int(c) for c in image[y, x, :3])
        check(max(abs(a - b) for a, b in zip(got, expected)) <= 8 and image[y, x, 3] > 240,
              f"{renderer}: {query} paints the bar {got}, not {expected}")
    image = draw("p=90&thresholds=ff0000,80:00ff00&labelColor=bar&track=none&size=240", renderer, "label-bar")
    ink = (image[..., 3] > 200) & (np.hypot(*np.mgrid[-120:120, -120:120]) < 70)
    greens = image[ink][:, :3]
    check(len(greens) > 100 and (greens[:, 1] > 200).mean() > 0.95 and (greens[:, 0] < 60).mean() > 0.95,
          f"{renderer}: labelColor=bar does not paint the label the bar's green")

    # Segments: as many separate pieces as asked, the gaps visible with round caps too, and the
    # bar filling across them (p=50 of 5 is three pieces, the last half a segment).
    for query, track_pieces, bar_pieces in (("p=100&segments=6&width=20", 6, 6), ("p=50&segments=5", 5, 3),
                                            ("p=80&segments=8&slice=0.3&cap=butt", 8, 7)):
        image = draw(f"{query}&color=ff0000&track=0000ff&label=none&size=240", renderer, "segments")
        blue = (image[..., 2] > 200) & (image[..., 0] < 60) & (image[..., 3] > 200)
        found = (pieces(red(image) | blue), pieces(red(image)))
        check(found == (track_pieces, bar_pieces),
              f"{renderer}: {query} draws {found[0]} segments with {found[1]} filled, not {track_pieces} and {bar_pieces}")


    # The caption: its ink (red here) lies under the label's (black) and inside the ring.
    image = draw("p=72&caption=coverage&captionColor=ff0000&labelColor=000000&track=none&color=00ff00&size=240",
                 renderer, "caption")
    ys, xs = np.nonzero(red(image))
    dark = (image[..., 3] > 200) & (image[..., :3].max(axis=2) < 60)
    label_rows = np.nonzero(dark.any(axis=1))[0]
    check(len(ys) > 40 and len(label_rows) > 0 and ys.min() > label_rows.max() - 2
          and np.hypot(xs - 120, ys - 120).max() < 100,
          f"{renderer}: the caption's ink is not under the label inside the ring")

    # The shadow never moves the bar: its red pixels sit where they sit without a shadow.
    # Compared with the same SVG with its shadow element taken out.
    svg = render("p=72&size=480&color=ff0000&track=none&label=none&shadow=1").decode()
    without = re.sub(r'<g filter="url\(#[^"]+\)"[^>]*>.*?</g>', "", svg, count=1)
    check(without != svg, "the shadowed SVG has no shadow element to take out")
    masks = []
    for name, text in (("shadowed", svg), ("unshadowed", without)):
        path = os.path.join(work, f"{name}.svg")
        with open(path, "w") as handle:
            handle.write(text)
        masks.append(red(rasterize(path, renderer)))
    moved = int((masks[0] ^ masks[1]).sum())
    check(moved <= masks[1].sum() * 0.01, f"{renderer}: the shadow changes {moved} of the bar's pixels")

# 4. Targets, ticks and laps, in every SVG renderer and in our PNG engine. Marks are found by
# their colour: each expected mark's pixels centred within 1.5° of its angle and spanning the
# track's width, and no pixel of a mark's colour outside the track or far from every mark.
COLOURS["ffff00"] = (255, 255, 0)
mark_checks = 0


def circular(a, b):
    return np.abs((np.asarray(a) - b + 180) % 360 - 180)


def check_marks(image, colour, angles, radii, track_width, mark_width, what, inward=0.0):
    """`angles` the marks' angles; `radii` the centre lines of the rings they cross; `inward`
    how far past the track's inner edge a mark may reach (a target among ticks)."""
    global mark_checks
    size = 480
    ys, xs = np.nonzero(colour_mask(image, COLOURS[colour]))
    distance = np.hypot(xs + 0.5 - size / 2, ys + 0.5 - size / 2)
    theta = np.degrees(np.arctan2(xs + 0.5 - size / 2, -(ys + 0.5 - size / 2))) % 360
    problems = []
    if len(xs) == 0:
        problems.append("no pixels")
    else:
        outside = np.min([np.maximum(r - track_width / 2 - inward - distance, distance - r - track_width / 2)
                          for r in radii], axis=0)
        if outside.max() > 1:
            problems.append(f"a pixel {outside.max():.1f} px outside the track")
        slack = 1.5 + np.degrees((mark_width / 2 + 1) / (min(radii) - track_width / 2))
        nearest_mark = np.min([circular(theta, a) for a in angles], axis=0)
        if nearest_mark.max() > slack:
            problems.append(f"a pixel {nearest_mark.max():.1f}° from every mark")
        for angle in angles:
            for radius in radii:
                mine = (circular(theta, angle) <= slack) & (np.abs(distance - radius) <= track_width / 2 + 1)
                if mine.sum() < 2:
                    problems.append(f"no mark at {angle:.1f}° on radius {radius:.0f}")
                    continue
                offsets = (theta[mine] - angle + 180) % 360 - 180
                if abs(offsets.mean()) > 1.5:
                    problems.append(f"the mark at {angle:.1f}° sits at {angle + offsets.mean():.1f}°")
                extent = distance[mine]
                if extent.min() > radius - track_width / 2 + 1.5 or extent.max() < radius + track_width / 2 - 1.5:
                    problems.append(f"the mark at {angle:.1f}° spans {extent.min():.1f}…{extent.max():.1f} px, "
                                    f"not the track's {radius - track_width / 2:.1f}…{radius + track_width / 2:.1f}")
    mark_checks += 1
    if problems:
        failures.append(f"{what}: " + "; ".join(problems[:4]))


# (query, tick angles, target angles per ring or None, number of rings)
mark_probes = [
    ("p=50&ticks=8&target=30", [i * 45 for i in range(8)], [108.0], 1),
    ("p=50&ticks=6&target=80&slice=0.25&start=20", [20 + 180 + 45 + i * 45 for i in range(7)],
     [20 + 225 + 0.8 * 270], 1),
    ("p=50&ticks=4&target=60&half", [270 + i * 45 for i in range(5)], [378.0], 1),
    ("p=50&ticks=5&target=25&dir=ccw&start=90", [90 - i * 72 for i in range(5)], [0.0], 1),
    ("p=50,40&ticks=3&target=75,none&gap=24", [0, 120, 240], [270.0], 2),
    # Outside min…max, at the nearer end (on an arc that is where the end tick is: no ticks).
    # With segments, 0 is where the first segment starts: half the 12 px gap past the start.
    ("p=50&ticks=10&target=-5&segments=4", None, [math.degrees(6 / 220)], 1),
    ("p=50&ticks=10&target=150&slice=0.5", None, [450.0], 1),
]
for query, ticks, targets, rings in mark_probes:
    if ticks is None:
        query = query.replace("&ticks=10", "")  # a probe of the target alone
    full = f"{query}&size=480&width=40&color=ff0000&track=0000ff&label=none&targetColor=00ff00&tickColor=ffff00&cap=butt"
    given = dict(part.split("=") for part in full.split("&") if "=" in part)
    gap = float(given.get("gap", 8))
    radii = [240 - 20 - i * (40 + gap) for i in range(rings)]
    for renderer in RENDERERS + ("png",):
        image = draw_ring(full, renderer, f"marks{mark_checks}")
        if ticks is not None:
            check_marks(image, "ffff00", ticks, radii, 40, 4, f"{renderer}: ticks of {query}")
        # Each target crosses only its own ring's track; among ticks it reaches a quarter of the
        # track further in.
        check_marks(image, "00ff00", targets, radii[:1], 40, 8, f"{renderer}: target of {query}",
                    inward=10 if ticks is not None else 0)

# Laps: the top lap's head sits at the value's angle, where its shadow starts darkening the
# lap beneath; p=130 and p=160 differ only from 108° (p=130's head) to past 216° (p=160's
# head and its shadow).
def head_angle(image, radius, sign):
    """Where, going the ring's way from the start, the bar's red first darkens on its centre line."""
    angles = np.arange(0, 360, 0.25) * sign
    for angle in angles:
        x = 240 + radius * math.sin(math.radians(angle))
        y = 240 - radius * math.cos(math.radians(angle))
        pixel = image[int(y), int(x)]
        if pixel[3] > 200 and pixel[0] < 225:
            return angle % 360
    return None


lap_images = {}
for renderer in RENDERERS + ("png",):
    for value, cap, direction in ((130, "butt", "cw"), (160, "butt", "cw"), (160, "round", "cw"),
                                  (245, "butt", "ccw")):
        query = f"p={value}&overflow=lap&size=480&width=48&color=ff0000&track=none&label=none&cap={cap}&dir={direction}"
        image = draw_ring(query, renderer, f"lap{mark_checks}")
        sign = 1 if direction == "cw" else -1
        want = (sign * (value % 100) / 100 * 360) % 360
        got = head_angle(image, 240 - 24, sign)
        mark_checks += 1
        if got is None or circular(got, want) > 1.5:
            failures.append(f"{renderer}: p={value} cap={cap} dir={direction} has its head at {got}, not {want:.1f}°")
        lap_images[(renderer, value, cap, direction)] = image
    a, b = lap_images[(renderer, 130, "butt", "cw")], lap_images[(renderer, 160, "butt", "cw")]
    # Premultiplied, so an edge pixel's faint alpha does not count as a change of colour.
    def premultiplied(image):
        return np.concatenate([image[..., :3] * image[..., 3:] / 255, image[..., 3:]], axis=2)
    # Inside the band only: renderers flatten arcs of other lengths a little differently, so
    # edge pixels may differ by a few levels of coverage anywhere along the ring.
    yy, xx = np.mgrid[0:a.shape[0], 0:a.shape[1]]
    inside = np.abs(np.hypot(xx + 0.5 - 240, yy + 0.5 - 240) - 216) < 24 - 1.5
    ys, xs = np.nonzero((np.abs(premultiplied(a) - premultiplied(b)).max(axis=2) > 16) & inside)
    theta = np.degrees(np.arctan2(xs + 0.5 - 240, -(ys + 0.5 - 240))) % 360
    reach = math.degrees(72 / 216)  # the shadow's reach past a butt head: a width and a half
    mark_checks += 1
    if len(theta) == 0 or theta.min() < 108 - 1.5 or theta.max() > 216 + reach + 1.5 \
            or circular(theta.min(), 108) > 1.5 or theta.max() < 216:
        failures.append(f"{renderer}: p=130 and p=160 with laps differ over "
                        f"{theta.min() if len(theta) else None}…{theta.max() if len(theta) else None}°, "
                        f"not 108°…{216 + reach:.0f}°")

# 5. Stacks: each part's angle, in every SVG renderer and in our PNG engine, within 1° of its
# share of the whole. The whole is the bar's visible length when full: the circle, or the
# usable arc and, with round caps, the two half caps past its ends (docs/parameters.md).
stack_probes = [
    "p=120,12,5&stack&max=sum&cap=butt",
    "p=40,25,15&stack&slice=0.25&cap=butt",
    "p=30,20,10&stack&half&dir=ccw",
    "p=10,20,30,5&stack&start=90&dir=ccw&cap=butt",
    "p=35,35,20&stack&slice=0.3&start=60",
]
stack_colours = ["ff0000", "00ff00", "0000ff", "ffff00"]
stack_checks = 0


def stack_parts(query, size=480):
    """Each part's visible (start, end) in degrees clockwise from 12 o'clock, as the contract
    defines them: from the bar's visible start, each part's value over the whole of the full
    bar's visible length."""
    given = dict(part.split("=") if "=" in part else (part, "1") for part in query.split("&"))
    values = [float(v) for v in given["p"].split(",")]
    whole = sum(values) if given.get("max") == "sum" else float(given.get("max", 100))
    sign = -1 if given.get("dir") == "ccw" else 1
    width = size / 10
    radius = size / 2 - width / 2
    half = "half" in given
    slice_ = float(given.get("slice", 0))
    start = float(given.get("start", 0))
    total = 180 if half else 360 * (1 - slice_)
    if half:
        bar_start = 270 if sign > 0 else 90
    elif slice_ > 0:
        bar_start = start + 180 + 180 * slice_ if sign > 0 else start + 180 - 180 * slice_
    else:
        bar_start = start
    cap = width * 180 / (math.pi * radius) if given.get("cap", "round") == "round" and total < 360 else 0
    full = total + cap
    visible_start = bar_start - sign * cap / 2
    parts, running = [], 0.0
    for value in values:
        begin = visible_start + sign * full * min(running / whole, 1)
        running += value
        parts.append((begin, visible_start + sign * full * min(running / whole, 1)))
    return parts, radius, width


def measured_extent(mask, theta, begin, end):
    """The part's pixels' angular extent, unwrapped about the expected middle."""
    middle = (begin + end) / 2
    offsets = (theta[mask] - middle + 180) % 360 - 180
    return middle + offsets.min(), middle + offsets.max()


for query in stack_probes:
    parts, radius, width = stack_parts(query)
    full = query + "&track=none&label=none&size=480&color=" + ",".join(stack_colours[:len(parts)])
    for renderer in RENDERERS + ("png",):
        image = draw_ring(full, renderer, f"stack{stack_checks}")
        ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]]
        distance = np.hypot(xs + 0.5 - 240, ys + 0.5 - 240)
        theta = np.degrees(np.arctan2(xs + 0.5 - 240, -(ys + 0.5 - 240))) % 360
        # Along the centre line, where a round cap reaches exactly half a cap past its end.
        band = np.abs(distance - radius) < 2
        for index, (begin, end) in enumerate(parts):
            stack_checks += 1
            low, high = min(begin, end), max(begin, end)
            mask = colour_mask(image, COLOURS[stack_colours[index]]) & band
            if not mask.any():
                failures.append(f"stack {query} part {index + 1} in {renderer}: not drawn")
                continue
            got_low, got_high = measured_extent(mask, theta, low, high)
            # Pixel centres lie up to half a pixel inside the edges: 0.12° at this radius.
            slack = math.degrees(0.5 / radius)
            if abs(got_low - low) > 1 + slack or abs(got_high - high) > 1 + slack:
                failures.append(f"stack {query} part {index + 1} in {renderer}: {got_low:.2f}…{got_high:.2f}°, "
                                f"not {low:.2f}…{high:.2f}°")

for failure in failures:
    print("FAIL", failure)
total = count * len(RENDERERS) + angle_checks + ring_checks + pixel_checks + mark_checks + stack_checks
print(f"check-renderers: {count} catalogue images in {', '.join(RENDERERS)}, {angle_checks} angle checks, "
      f"{ring_checks} concentric-ring checks (with our PNG), {pixel_checks} pixel checks, "
      f"{mark_checks} mark and lap checks (with our PNG), {stack_checks} stacked part angles (with our PNG): "
      f"{total - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
