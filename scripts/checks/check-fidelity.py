#!/usr/bin/env python3
"""Checks, in pixels, the fidelity defects that only renderers can show (issue "Fidelity").

In librsvg (rsvg-convert), resvg, CairoSVG and our PNG engine:
  2. near-half arcs keep their centre: a circle fitted to a half gauge's track, and to a bar
     of 50 % on a large ring, is centred on the image within 0.25 px;
  3. with fonts-noto-color-emoji installed, "72%" is as wide as our engine draws it (Pango
     took the digits from an emoji font named in the stack), and an emoji label still draws;
  6. the finest segments accepted still read as segments, not a faint wash;
  8. a wide gradient bar's colour runs on through its round start cap, with no step;
 12. an error image fills the 120 px box it was asked for, with text at least 6 px tall;
 13. a bar at a target's or a tick's value ends at the mark, within 1 px, on half gauges,
     slices and near 0, and with laps a target past max sits where the head will be;
 14. a 1 px tick at 12 and 3 o'clock is one dark pixel wide, as dark as a diagonal tick;
 15. a label's descenders and a caption's accents keep at least a pixel apart.
In Chromium, in the dark scheme:
  1. the track, the label, the caption, tick marks, targets and a lap's head compute their
     documented dark colours;
  7. on a light bar, a tick and a target keep 2:1 and 3:1 against the halo drawn under them.

Usage: scripts/checks/check-fidelity.py PATH-TO-ring
Needs rsvg-convert, resvg, cairosvg, chromium + chromedriver (Selenium), pillow, numpy and the
Noto Color Emoji font. A missing tool is a failure, never a skip.
"""
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request

import numpy as np
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

import svg_renderers

ring = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
svg_renderers.require_tools("check-fidelity", "chromium", "chromedriver", "fc-list")
fonts = subprocess.run(["fc-list"], capture_output=True, text=True, check=True).stdout
if "Noto Color Emoji" not in fonts:
    sys.exit("check-fidelity: fonts-noto-color-emoji is not installed")

work = tempfile.mkdtemp()
failures = []
passed = 0
RENDERERS = svg_renderers.RENDERERS + ("ours",)


def check(description, condition):
    global passed
    if condition:
        passed += 1
        print(f"  PASS  {description}")
    else:
        failures.append(description)
        print(f"  FAIL  {description}")


def svg_bytes(query):
    return subprocess.run([ring, "render", query], capture_output=True, check=True).stdout


def rasterize_svg(svg, renderer, name):
    path = os.path.join(work, name + ".svg")
    with open(path, "wb") as handle:
        handle.write(svg)
    return svg_renderers.rasterize(path, renderer).astype(float)


def draw(query, renderer, name):
    """The ring in `renderer`: an SVG renderer, or our engine through `ring render --format png`."""
    if renderer == "ours":
        png = subprocess.run([ring, "render", query, "--format", "png"], capture_output=True, check=True).stdout
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")).astype(float)
    return rasterize_svg(svg_bytes(query), renderer, name)


def fitted_centre(mask_weights):
    """Least-squares circle through weighted pixel centres (Kåsa fit): its centre."""
    ys, xs = np.nonzero(mask_weights > 0)
    w = mask_weights[ys, xs]
    x, y = xs + 0.5, ys + 0.5
    a = np.stack([x, y, np.ones_like(x)], axis=1) * w[:, None]
    b = (x * x + y * y) * w
    cx2, cy2, _ = np.linalg.lstsq(a, b, rcond=None)[0]
    return cx2 / 2, cy2 / 2


# 2. Near-half arcs keep their centre.
print("2. near-half arcs")
for query, centre in [
    ("p=0&size=1024&half&width=1.07&track=ff0000", (512, 512)),
    ("p=0&size=120&half&width=4.25&track=ff0000", (60, 60)),
    ("p=50&size=1000&width=1.25&cap=butt&track=none&color=ff0000", (500, 500)),
]:
    for renderer in RENDERERS:
        image = draw(query, renderer, "centre")
        red = (image[..., 0] > 150) & (image[..., 1] < 110) & (image[..., 2] < 110)
        cx, cy = fitted_centre(image[..., 3] * red)
        off = ((cx - centre[0]) ** 2 + (cy - centre[1]) ** 2) ** 0.5
        check(f"{renderer}: {query} centred within 0.25 px (off by {off:.3f})", off <= 0.25)

# 3. Digits stay in the text face with an emoji font installed; emoji still draw.
print("3. digits and emoji")
ours = draw("p=72&size=160&bg=fff", "ours", "digits")


def label_width(image):
    dark = (image[..., 3] > 128) & (image[..., :3].max(axis=2) < 110)
    xs = np.nonzero(dark.any(axis=0))[0]
    return xs.max() - xs.min() + 1 if len(xs) else 0


reference = label_width(ours)
for renderer in RENDERERS[:3]:
    width = label_width(draw("p=72&size=160&bg=fff", renderer, "digits"))
    ratio = width / reference
    check(f"{renderer}: '72%' is {width} px wide, {ratio:.2f} of our engine's {reference} (≤ 1.12)", ratio <= 1.12)
    emoji = draw("p=72&size=160&bg=fff&label=%F0%9F%8E%89", renderer, "emoji")
    centre = emoji[50:110, 50:110]
    ink = (centre[..., 3] > 128) & (centre[..., :3].min(axis=2) < 200)
    check(f"{renderer}: an emoji label still draws ({int(ink.sum())} px of ink)", ink.sum() > 200)
resvg_emoji = draw("p=72&size=160&bg=fff&label=%F0%9F%8E%89", "resvg", "emoji")[50:110, 50:110]
spread = resvg_emoji[..., :3].max(axis=2) - resvg_emoji[..., :3].min(axis=2)
check(f"resvg: the emoji is in colour ({int((spread > 80).sum())} saturated px)", (spread > 80).sum() > 100)

# 6. The finest segments accepted still read as segments.
print("6. segments")
finest = None
for count in range(100, 1, -1):
    query = f"p=100&size=40&segments={count}&cap=butt&color=ff0000&track=none"
    if subprocess.run([ring, "render", query], capture_output=True).returncode == 0:
        finest = query
        break
check(f"a segment count is accepted at size 40 ({finest})", finest is not None)
refused = subprocess.run([ring, "render", "p=72&size=40&segments=100&cap=butt"], capture_output=True, text=True)
check("p=72&size=40&segments=100&cap=butt is refused with the numbers",
      refused.returncode != 0 and "px long" in refused.stderr)
if finest:
    for renderer in RENDERERS:
        image = draw(finest, renderer, "segments")
        # Along the bar's centre line: what is drawn is opaque red, and the gaps show.
        radius = 40 / 2 - 4 / 2
        samples = []
        for degree in np.arange(0, 360, 0.25):
            x = 20 + radius * np.sin(np.radians(degree))
            y = 20 - radius * np.cos(np.radians(degree))
            samples.append(image[int(y), int(x), 3])
        samples = np.array(samples)
        peak = np.percentile(samples, 95)
        check(f"{renderer}: {finest} draws opaque segments (95th percentile alpha {peak:.0f} ≥ 200)", peak >= 200)

# 8. A wide gradient bar's colour runs on through its start cap.
print("8. gradient caps")
query = "p=80&gradient=22c55e,eab308,ef4444&size=512&width=100&track=none"
for renderer in RENDERERS:
    image = draw(query, renderer, "gradient")
    radius = 512 / 2 - 50
    # From the start cap's far edge, back past 12 o'clock, forward into the bar, along the centre line.
    jumps = []
    previous = None
    for step in range(-45, 120):
        degree = step * 0.25
        x = 256 + radius * np.sin(np.radians(degree))
        y = 256 - radius * np.cos(np.radians(degree))
        pixel = image[int(y), int(x)]
        if pixel[3] < 250:
            previous = None
            continue
        if previous is not None:
            jumps.append(np.abs(pixel[:3] - previous[:3]).max())
        previous = pixel
    worst = max(jumps) if jumps else 999
    check(f"{renderer}: colour through the start cap changes at most {worst:.0f} levels a step (≤ 6)", worst <= 6)

# 13. A bar at a mark's value ends at the mark (issue "Fidelity where features meet", 1 and 2).
print("13. marks where a bar at their value ends")


def relative_angles(mask, start, size):
    """Clockwise degrees from `start` of the pixels in `mask`, in [-90, 270)."""
    ys, xs = np.nonzero(mask)
    x, y = xs + 0.5 - size / 2, ys + 0.5 - size / 2
    return (np.degrees(np.arctan2(x, -y)) - start + 90) % 360 - 90


MARK_STYLE = "&size=240&color=ff0000&track=none&targetColor=00ff00&tickColor=00ff00"
RADIUS = 108  # the bar's centre line at size 240, width 24
for mark_query, bar_query, start in [
    ("p=90&half&target=90", "p=90&half", 270),
    ("p=25&half&target=25", "p=25&half", 270),
    ("p=80&slice=0.3&target=80", "p=80&slice=0.3", 234),
    ("p=5&target=5", "p=5", 0),
    ("p=75&half&ticks=4", "p=75&half", 270),
    # With laps, a target past max sits where the head will be: 150 % where a bar of 50 % ends.
    ("p=130&overflow=lap&target=150", "p=50", 0),
]:
    for renderer in RENDERERS:
        bar = draw(bar_query + MARK_STYLE, renderer, "bar")
        red = (bar[..., 3] > 128) & (bar[..., 0] > 150) & (bar[..., 1] < 110) & (bar[..., 2] < 110)
        end = relative_angles(red, start, 240).max()
        marked = draw(mark_query + MARK_STYLE, renderer, "mark")
        green = (marked[..., 3] > 128) & (marked[..., 1] > 150) & (marked[..., 0] < 110) & (marked[..., 2] < 110)
        angles = relative_angles(green, start, 240)
        near = angles[np.abs(angles - end) < 15]  # the tick nearest the bar's end
        mark = near.mean() if near.size else float("nan")
        off = abs(mark - end) * np.pi / 180 * RADIUS
        check(f"{renderer}: {mark_query}: mark at {mark:.1f}°, bar of {bar_query} ends at {end:.1f}° "
              f"({off:.2f} px apart, ≤ 1)", off <= 1.0)

# 14. Every tick is as crisp as a diagonal one (issue "Fidelity where features meet", 6).
print("14. upright and level ticks are crisp")
for renderer in RENDERERS:
    image = draw("p=0&ticks=8&track=ffffff&bg=ffffff", renderer, "ticks")
    alpha = image[..., 3:4] / 255
    luminance = (image[..., :3] * alpha + 255 * (1 - alpha)).mean(axis=2)
    # At 12 o'clock the tick spans the track's band (y 0…12) around x = 60; at 3 o'clock the band
    # x 108…120 around y = 60; the diagonal tick at 45° lies near (98, 22).
    upright = luminance[2:10, 54:67].min(axis=0)
    level = luminance[54:67, 110:118].min(axis=1)
    diagonal = luminance[14:30, 90:106].min()
    for name, profile in (("12 o'clock", upright), ("3 o'clock", level)):
        darkest = profile.min()
        grey = int(((profile > darkest + 10) & (profile < 200)).sum())  # half-strength neighbours
        check(f"{renderer}: the tick at {name} reads {darkest:.0f} with {grey} grey neighbours "
              f"(diagonal {diagonal:.0f}; ≤ diagonal + 20 and none grey)", darkest <= diagonal + 20 and grey == 0)

# 15. The label's descenders never reach the caption (issue "Fidelity where features meet", 3).
print("15. label and caption apart")
for query in ("p=72&size=200&label=Daily&caption=Steps+{p}", "p=64&half&size=200&label=Energy&caption=Today+{p}",
              "p=72&size=200&label=%C4%90ang+g%E1%BB%ADi&caption=%E1%BB%94n+%C4%91%E1%BB%8Bnh+{p}",
              "p=72&size=200&label=qypg&caption=%C3%89%C3%80%C3%8E%C3%94"):
    for renderer in RENDERERS:
        image = draw(query + "&labelColor=ff0000&captionColor=0000ff&color=00ff00&track=none", renderer, "lines")
        ink = image[..., 3] > 64
        red = ink & (image[..., 0] > 120) & (image[..., 1] < 110) & (image[..., 2] < 110)
        blue = ink & (image[..., 2] > 120) & (image[..., 0] < 110) & (image[..., 1] < 110)
        red_rows, blue_rows = np.nonzero(red.any(axis=1))[0], np.nonzero(blue.any(axis=1))[0]
        gap = int(blue_rows.min() - red_rows.max() - 1) if red_rows.size and blue_rows.size else -99
        check(f"{renderer}: {query}: {gap} px between the label's ink and the caption's (≥ 1)", gap >= 1)

# 12. Error images fill the box they were asked for, legibly.
print("12. error images")
server = subprocess.Popen([ring, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                          stderr=subprocess.PIPE, text=True)
try:
    port = int(re.search(r":(\d+) ", server.stderr.readline()).group(1))

    def fetch(path):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
            return response.read()

    def tallest_ink_run(image):
        ink = (image[..., 3] > 128) & (image[..., 0] < 180) & (image[..., 1] < 100)
        ink[:3, :] = ink[-3:, :] = False  # the border
        ink[:, :3] = ink[:, -3:] = False
        rows = ink.any(axis=1)
        best = run = 0
        for value in rows:
            run = run + 1 if value else 0
            best = max(best, run)
        return best

    for query, box, scale in [("p=1&size=100000", 120, 1), ("p=abc&scale=2", 120, 2), ("p=1&width=500&size=64", 64, 1)]:
        svg = fetch(f"/ring.svg?{query}")
        png = np.asarray(Image.open(io.BytesIO(fetch(f"/ring.png?{query}"))).convert("RGBA")).astype(float)
        check(f"ours: error PNG for {query} is {png.shape[1]}x{png.shape[0]} (box {box * scale})",
              png.shape[:2] == (box * scale, box * scale))
        run = tallest_ink_run(png)
        check(f"ours: its text stands {run} px tall (≥ {6 * scale})", run >= 6 * scale)
        for renderer in RENDERERS[:3]:
            image = rasterize_svg(svg, renderer, "error")
            run = tallest_ink_run(image)
            check(f"{renderer}: error SVG for {query} is {image.shape[1]}x{image.shape[0]}, text {run} px tall",
                  image.shape[:2] == (box, box) and run >= 6)
finally:
    server.terminate()
    server.wait()

# 1. Chromium computes the documented dark colours.
print("1. dark scheme in Chromium")
options = webdriver.ChromeOptions()
options.binary_location = shutil.which("chromium")
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
try:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    expected = {"track": "rgb(48, 54, 61)", "label": "rgb(230, 237, 243)", "caption": "rgb(139, 148, 158)",
                "ticks": "rgb(201, 209, 217)", "target": "rgb(230, 237, 243)", "head": None,
                "second line": "rgb(230, 237, 243)"}
    for query, parts in [("p=72&caption=coverage", ("track", "label", "caption")),
                         ("p=64&target=80&ticks=10", ("track", "ticks", "target")),
                         # The palette is one colour for both schemes: no dark rule for the second
                         # ring's green, nor for its lap's head.
                         ("p=50,230&overflow=lap", ("track", "head")),
                         ("p=72&half&caption=of+budget", ("track", "label", "caption")),
                         ("p=72&label=none&caption=coverage", ("track", "caption")),
                         ("p=72&labelColor=cf222e&caption=coverage", ("track", "caption")),
                         # A label on two lines switches on both.
                         ("p=72&label=Hoàn+thành+{p}", ("track", "label", "second line"))]:
        path = os.path.join(work, "dark.svg")
        with open(path, "wb") as handle:
            handle.write(svg_bytes(query))
        driver.get("file://" + path)
        computed = driver.execute_script("""
            const texts = [...document.querySelectorAll('text')];
            const track = document.querySelector('[class$="-t"]');
            const ticks = document.querySelector('[class$="-k"]');
            const target = document.querySelector('[class$="-x"]');
            const head = document.querySelector('[class$="-b1d"]');
            return {
              ticks: ticks ? getComputedStyle(ticks).stroke : null,
              target: target ? getComputedStyle(target).stroke : null,
              head: head ? getComputedStyle(head).fill : null,
              track: track ? getComputedStyle(track).stroke : null,
              label: texts.length > 1 ? getComputedStyle(texts[0]).fill : null,
              caption: texts.length ? getComputedStyle(texts[texts.length - 1]).fill : null,
              "second line": texts.length > 1 ? getComputedStyle(texts[1]).fill : null,
            };""")
        for part in parts:
            check(f"chromium dark: {query} {part} is {computed[part]} (want {expected[part]})",
                  computed[part] == expected[part])

    # 7. Marks stay visible on a light bar in the dark scheme: a halo of the contrasting colour
    # under them keeps a tick at 2:1 and a target at 3:1 (issue "Fidelity where features meet").
    def luminance(rgb):
        def channel(value):
            value /= 255
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
        r, g, b = (channel(float(v)) for v in re.findall(r"\d+", rgb)[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    def contrast(a, b):
        high, low = sorted((luminance(a), luminance(b)), reverse=True)
        return (high + 0.05) / (low + 0.05)

    for query in ("p=60&color=eab308&target=40&ticks=4&theme=auto", "p=60&color=eab308&target=40&ticks=4&theme=dark"):
        path = os.path.join(work, "halo.svg")
        with open(path, "wb") as handle:
            handle.write(svg_bytes(query))
        driver.get("file://" + path)
        paths = driver.execute_script("""
            return [...document.querySelectorAll('path')].map(p => [p.getAttribute('d'), getComputedStyle(p).stroke]);""")
        # A halo is the same lines as its marks, drawn just before them: ticks', then target's.
        pairs = [(paths[i][1], paths[i + 1][1]) for i in range(len(paths) - 1) if paths[i][0] == paths[i + 1][0]]
        check(f"chromium dark: {query} draws a halo under the ticks and under the target ({len(pairs)})",
              len(pairs) == 2)
        if len(pairs) != 2:
            continue
        (tick_halo, tick), (target_halo, target) = pairs
        for name, mark, halo, least in (("tick", tick, tick_halo, 2), ("target", target, target_halo, 3)):
            ratio = contrast(mark, halo)
            check(f"chromium dark: {query} {name} {mark} on its halo {halo}: {ratio:.2f}:1 (≥ {least})",
                  ratio >= least and contrast(mark, "rgb(234, 179, 8)") < least)
finally:
    driver.quit()

print(f"check-fidelity: {passed} passed, {len(failures)} failed")
if failures:
    sys.exit(1)
