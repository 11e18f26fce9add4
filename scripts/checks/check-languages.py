#!/usr/bin/env python3
"""Every language in the PNG, against Chromium.

Each label and caption below is drawn by our PNG engine (DejaVu Sans Bold, then Droid Sans
Fallback and NanumGothic Bold, named with --font) and by Chromium (the SVG in an <img>, with
fonts-noto-cjk and DejaVu installed), at 120 and 240 px. For each:
  - the ink bounding boxes agree within 15 % in width and 1.5 px in horizontal centre;
  - our engine draws no .notdef box: `ring render` names every character it draws as one, and
    names none; the emoji sequence draws exactly one box (none for its joiner), so only its
    centre is compared, not its width (Chromium draws the emoji in colour).

Usage: scripts/checks/check-languages.py PATH-TO-ring [OUT-DIR]
Needs chromium + chromedriver (Selenium), pillow, numpy, and the fonts above. A missing tool
or font is a failure, never a skip. OUT-DIR (default a temporary one) keeps every image.
"""
import io
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

import numpy as np
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ring = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
os.makedirs(work, exist_ok=True)
FONTS = [
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf",
]
for tool in ("chromium", "chromedriver", "fc-list"):
    if shutil.which(tool) is None:
        sys.exit(f"check-languages: {tool} is not installed")
for path in FONTS:
    if not os.path.exists(path):
        sys.exit(f"check-languages: {path} is missing (apt-get install fonts-droid-fallback fonts-nanum)")
installed = subprocess.run(["fc-list"], capture_output=True, text=True, check=True).stdout
for family in ("Noto Sans CJK", "DejaVu Sans"):
    if family not in installed:
        sys.exit(f"check-languages: Chromium needs {family} (apt-get install fonts-noto-cjk fonts-dejavu-core)")

TEXTS = [
    "Terminé à 72%", "Œuvre™",
    "Hoàn thành", "Tiến độ 72%", "Cập nhật",
    "완료 72%", "진행률",
    "完成 72%", "进度",
    "完了 72%", "進捗", "ひらがな",
    "łąę řč ğşİ", "Ωμέγα", "Привет", "e\u0301te\u0301",
    # Percentages as locale= writes them: a no-break space, a narrow one, a sign before.
    "72,5\u00a0%", "72,5\u202f%", "%72,5",
    # Long enough to go onto two lines.
    "Đang gửi dữ liệu 72%", "進捗状況を表示中72%",
]
EMOJI = "👩\u200d💻"
failures = []
passed = 0


def check(description, condition):
    global passed
    if condition:
        passed += 1
        print(f"  PASS  {description}")
    else:
        failures.append(description)
        print(f"  FAIL  {description}")


def query(text, part, size):
    # A white bar on white: only the text is ink.
    value = urllib.parse.quote(text, safe="")
    words = f"label={value}" if part == "label" else f"label=none&caption={value}"
    return f"p=0&size={size}&color=fff&track=none&bg=fff&{words}"


def ink_box(image):
    """The columns of dark ink, as (left, right) edges in pixels, or None."""
    dark = image[..., :3].astype(int).min(axis=2) < 150
    columns = np.nonzero(dark.any(axis=0))[0]
    return (columns.min(), columns.max() + 1) if len(columns) else None


def ours(name, q):
    arguments = [ring, "render", q, "-o", os.path.join(work, name + ".png")]
    for path in FONTS:
        arguments += ["--font", path]
    result = subprocess.run(arguments, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"check-languages: ring render {q} failed: {result.stderr}")
    image = np.asarray(Image.open(os.path.join(work, name + ".png")).convert("RGB"))
    return image, result.stderr.strip()


options = webdriver.ChromeOptions()
options.binary_location = shutil.which("chromium")
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--force-device-scale-factor=1", "--window-size=400,400"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def chromium(name, q):
    svg = subprocess.run([ring, "render", q], capture_output=True, check=True).stdout
    with open(os.path.join(work, name + ".svg"), "wb") as handle:
        handle.write(svg)
    page = os.path.join(work, name + ".html")
    with open(page, "w") as handle:
        handle.write(f'<!doctype html><body style="margin:0;background:#fff"><img id="ring" src="{name}.svg"></body>')
    driver.get("file://" + page)
    png = driver.find_element(By.ID, "ring").screenshot_as_png
    with open(os.path.join(work, name + ".chromium.png"), "wb") as handle:
        handle.write(png)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


try:
    index = 0
    for text in TEXTS + [EMOJI]:
        for part in ("label", "caption"):
            for size in (120, 240):
                index += 1
                name = f"{index:02d}-{part}-{size}"
                q = query(text, part, size)
                mine, warning = ours(name, q)
                theirs = chromium(name, q)
                what = f"{part} {text!r} at {size} px"
                if text == EMOJI:
                    check(f"ours: {what} draws one box, for the emoji ({warning or 'no warning'})",
                          "no font has U+1F469 U+200D U+1F4BB;" in warning and warning.count("U+") == 3)
                else:
                    check(f"ours: {what} draws no box{' (' + warning + ')' if warning else ''}", warning == "")
                a, b = ink_box(mine), ink_box(theirs)
                if a is None or b is None:
                    check(f"{what}: ink in both (ours {a}, chromium {b})", False)
                    continue
                width_a, width_b = a[1] - a[0], b[1] - b[0]
                centre_a, centre_b = (a[0] + a[1]) / 2, (b[0] + b[1]) / 2
                if text != EMOJI:
                    ratio = width_a / width_b
                    check(f"{what}: width {width_a} px, Chromium {width_b} px ({ratio:.2f}, within 15 %)",
                          abs(ratio - 1) <= 0.15)
                check(f"{what}: centre {centre_a:.1f} px, Chromium {centre_b:.1f} px (within 1.5 px)",
                      abs(centre_a - centre_b) <= 1.5)
finally:
    driver.quit()

print(f"check-languages: {passed} passed, {len(failures)} failed; images in {work}")
if failures:
    sys.exit(1)
