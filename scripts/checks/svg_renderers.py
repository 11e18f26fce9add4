"""The SVG renderers the checks compare: librsvg (rsvg-convert), resvg and CairoSVG, each
turning an SVG file into an RGBA array. Shared by check-renderers.py and check-fidelity.py.
Importing it fails loudly when CairoSVG is missing; `require_tools` does for the others."""
import shutil
import subprocess
import sys

import cairosvg
import numpy as np
from PIL import Image

RENDERERS = ("rsvg", "resvg", "cairosvg")


def require_tools(script, *extra):
    """Exits naming the first of the renderers' programs (and `extra`) that is not installed."""
    for tool in ("rsvg-convert", "resvg") + extra:
        if shutil.which(tool) is None:
            sys.exit(f"{script}: {tool} is not installed")


def rasterize(svg_path, renderer):
    """`svg_path` drawn by `renderer` at its declared size, as an int RGBA array."""
    png = svg_path + f".{renderer}.png"
    if renderer == "rsvg":
        subprocess.run(["rsvg-convert", svg_path, "-o", png], check=True, capture_output=True)
    elif renderer == "resvg":
        subprocess.run(["resvg", svg_path, png], check=True, capture_output=True)
    else:
        cairosvg.svg2png(url=svg_path, write_to=png)
    return np.asarray(Image.open(png).convert("RGBA")).astype(int)
