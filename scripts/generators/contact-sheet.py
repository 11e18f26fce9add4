#!/usr/bin/env python3
"""Renders the example catalogue in librsvg, resvg, CairoSVG, headless Chromium and our own PNG
engine (`ring render --format png`), side by side, into one PNG, so a person can look at what
the code draws in every renderer.

    python scripts/generators/contact-sheet.py RING_BINARY OUT.png [--only=laps,ticks]

--only keeps the examples whose names start with one of the comma-separated prefixes.

Needs rsvg-convert, resvg, cairosvg and Pillow; Chromium too, unless --no-chromium. Fails when
a renderer is missing rather than leaving its column out."""
import os
import shutil
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw

args = [a for a in sys.argv[1:] if not a.startswith("--")]
if len(args) != 2:
    sys.exit(__doc__)
ring, out = args
with_chromium = "--no-chromium" not in sys.argv
CELL = 96
renderers = ["rsvg", "resvg", "cairosvg"] + (["chromium"] if with_chromium else []) + ["ring png"]
for tool in ["rsvg-convert", "resvg"] + (["chromium"] if with_chromium else []):
    if shutil.which(tool) is None:
        sys.exit(f"contact-sheet: {tool} is not installed")
import cairosvg  # noqa: E402  (fails loudly when missing)

examples = [line.split("\t", 1) for line in
            subprocess.run([ring, "examples"], capture_output=True, text=True, check=True).stdout.splitlines()]
only = [a.split("=", 1)[1].split(",") for a in sys.argv[1:] if a.startswith("--only=")]
if only:
    examples = [e for e in examples if any(e[0].startswith(prefix) for prefix in only[0])]
work = tempfile.mkdtemp()


def rasterize(name, svg_path, renderer):
    png = os.path.join(work, f"{name}-{renderer}.png")
    if renderer == "rsvg":
        subprocess.run(["rsvg-convert", svg_path, "-o", png], check=True)
    elif renderer == "resvg":
        subprocess.run(["resvg", svg_path, png], check=True, capture_output=True)
    elif renderer == "cairosvg":
        cairosvg.svg2png(url=svg_path, write_to=png)
    elif renderer == "ring png":
        with open(png, "wb") as handle:
            handle.write(subprocess.run([ring, "render", queries[name], "--format", "png"],
                                        capture_output=True, check=True).stdout)
    return png


svgs = {}
queries = dict(examples)
for name, query in examples:
    path = os.path.join(work, f"{name}.svg")
    with open(path, "wb") as handle:
        handle.write(subprocess.run([ring, "render", query], capture_output=True, check=True).stdout)
    svgs[name] = path

chromium_shots = {}
if with_chromium:
    # One page per example, each screenshotted at the image's own size on white.
    for name, path in svgs.items():
        page = os.path.join(work, f"{name}.html")
        with open(page, "w") as handle:
            handle.write(f'<html><body style="margin:0;background:#fff"><img src="file://{path}"></body></html>')
        shot = os.path.join(work, f"{name}-chromium.png")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-prefers-reduced-motion",
                        f"--virtual-time-budget=4000", f"--screenshot={shot}", "--window-size=1100,1100",
                        f"file://{page}"],
                       check=True, capture_output=True)
        chromium_shots[name] = shot

label_height = 14
sheet = Image.new("RGB", (CELL * len(renderers) + 150, (CELL + label_height) * len(examples) + 20), "white")
draw = ImageDraw.Draw(sheet)
for column, renderer in enumerate(renderers):
    draw.text((150 + column * CELL + 4, 4), renderer, fill="black")
for row, (name, _) in enumerate(examples):
    y = 20 + row * (CELL + label_height)
    draw.text((4, y + CELL // 2), name, fill="black")
    for column, renderer in enumerate(renderers):
        if renderer == "chromium":
            # The screenshot is the page; the image sits at its top left, at its own size.
            size = Image.open(rasterize(name, svgs[name], "rsvg")).size
            image = Image.open(chromium_shots[name]).convert("RGB").crop((0, 0, *size))
        else:
            image = Image.open(rasterize(name, svgs[name], renderer)).convert("RGBA")
            flat = Image.new("RGB", image.size, "white")
            flat.paste(image, mask=image.split()[3])
            image = flat
        image.thumbnail((CELL - 8, CELL - 8))
        sheet.paste(image, (150 + column * CELL + 4, y + 4))
sheet.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(out, optimize=True)
print(f"contact-sheet: {len(examples)} examples in {', '.join(renderers)} -> {out}")
