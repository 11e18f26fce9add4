#!/usr/bin/env python3
"""Tests the playground page in a real browser: Debian's chromium and chromium-driver, driven
by Selenium.

  scripts/checks/check-playground.py PATH-TO-ring [--screenshots DIR]

Starts `ring serve`, opens /?p=72&slice=0.45 and checks the controls, the preview, the page URL
and the snippets; changes controls and checks everything follows; checks errors from the
service are shown next to the controls they name and that the snippets refuse an invalid query;
checks the groups, the slider values, the presets, the alt text, the PNG note and the footer,
a live ring (src=) reading a document this script serves on loopback, and a name the page has
no control for kept in the URL with its error in the status line;
then, at 1280 x 900 and at 390 x 844, in the light and the dark scheme, that the preview stays in
view while the controls scroll. Last, that the browser logged no error (a CSP violation would be
one). With --screenshots DIR, saves the four layouts as DIR/playground-{desktop,phone}-{light,dark}.png.
"""
import re
import shutil
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.support.ui import WebDriverWait

ring = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
screenshots = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
browser = shutil.which("chromium") or sys.exit("check-playground: chromium is not installed")
driver_path = shutil.which("chromedriver") or sys.exit("check-playground: chromium-driver is not installed")

# A JSON document for live values, on loopback (hence the development flags).
import http.server
import threading
import urllib.parse


class Document(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'{"coverage": 72.4}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


documents = http.server.HTTPServer(("127.0.0.1", 0), Document)
threading.Thread(target=documents.serve_forever, daemon=True).start()
document_url = f"http://127.0.0.1:{documents.server_address[1]}/coverage.json"

server = subprocess.Popen([ring, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off",
                           "--source-allow", "127.0.0.1", "--source-allow-http", "--source-allow-private"],
                          stderr=subprocess.PIPE, text=True)
port = int(re.search(r":(\d+) ", server.stderr.readline()).group(1))
base = f"http://127.0.0.1:{port}"

options = webdriver.ChromeOptions()
options.binary_location = browser
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
                 "--hide-scrollbars"):
    options.add_argument(argument)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service(driver_path), options=options)
wait = WebDriverWait(driver, 10)
passed = failed = 0


def check(description, condition):
    global passed, failed
    if condition:
        passed += 1
        print(f"  PASS  {description}")
    else:
        failed += 1
        print(f"  FAIL  {description}")


def value(name):
    return driver.find_element(By.ID, "f-" + name).get_attribute("value")


def preview_src():
    return driver.find_element(By.ID, "preview").get_attribute("src")


def preview_loaded():
    return driver.execute_script(
        "const i = document.getElementById('preview'); return i.complete && i.naturalWidth > 0 ? i.naturalWidth : 0;")


def set_field(name, text):
    field = driver.find_element(By.ID, "f-" + name)
    field.clear()
    field.send_keys(text)


def snippet(key):
    return driver.find_element(By.ID, "s-" + key).get_attribute("value")


def emulate(width, height, scheme):
    """The viewport of a desktop window or a phone, and the colour scheme the page sees."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def rect(script):
    return driver.execute_script("const r = (" + script + ").getBoundingClientRect();"
                                 "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};")


try:
    emulate(1280, 900, "light")
    driver.get(base + "/?p=72&slice=0.45")
    wait.until(lambda d: preview_loaded() > 0)
    wait.until(lambda d: snippet("url") != "")
    check("controls show the page's query (p=72, slice=0.45)", value("p") == "72" and value("slice") == "0.45")
    check("other controls show their defaults", value("size") == "120" and value("cap") == "round")
    check("preview src is /ring.svg for the query", preview_src() == base + "/ring.svg?p=72&slice=0.45")
    check("preview image loaded (natural width > 0)", preview_loaded() == 120)
    check("every control has a label", driver.execute_script(
        "return [...document.querySelectorAll('#controls input:not([type=color]), #controls select')]"
        ".every(e => document.querySelector('label[for=\"' + e.id + '\"]'))"))

    # Controls in groups, each gap named for what it spaces.
    legends = driver.execute_script("return [...document.querySelectorAll('#controls fieldset > legend')].map(l => l.textContent)")
    check(f"controls are grouped: {legends}", legends == [
        "Value and range", "Shape", "Size and thickness", "Colours", "Text", "Effects"])
    placement = driver.execute_script(
        "return Object.fromEntries(['p', 'max', 'slice', 'cap', 'segmentGap', 'size', 'gap', 'color', 'label', 'shadow']"
        ".map(n => [n, document.getElementById('f-' + n).closest('fieldset').id]))")
    check(f"each control sits in its group: {placement}", placement == {
        "p": "g-value", "max": "g-value", "slice": "g-shape", "cap": "g-shape", "segmentGap": "g-shape",
        "size": "g-size", "gap": "g-size", "color": "g-colour", "label": "g-text", "shadow": "g-effects"})
    labels = {name: driver.find_element(By.CSS_SELECTOR, f"label[for=f-{name}]").text for name in ("slice", "gap", "segmentGap")}
    check(f"each gap is named for what it spaces: {labels}", labels == {
        "slice": "Gap of the slice (slice)", "gap": "Gap between rings (gap)",
        "segmentGap": "Gap between segments (segmentGap)"})

    # A slider shows its value, and follows it.
    check("the slice slider shows its value", driver.find_element(By.ID, "o-slice").text == "0.45")
    driver.execute_script("const s = document.getElementById('f-slice'); s.value = '0.3';"
                          "s.dispatchEvent(new Event('input'));")
    wait.until(lambda d: "slice=0.3" in preview_src())
    check("moving the slider moves its value", driver.find_element(By.ID, "o-slice").text == "0.3")
    driver.execute_script("const s = document.getElementById('f-slice'); s.value = '0.45';"
                          "s.dispatchEvent(new Event('input'));")
    wait.until(lambda d: "slice=0.45" in preview_src())

    set_field("size", "200")
    wait.until(lambda d: "size=200" in preview_src())
    wait.until(lambda d: preview_loaded() == 200)
    wait.until(lambda d: "size=200" in snippet("markdown"))
    check("changing size updates the preview", "size=200" in preview_src() and preview_loaded() == 200)
    check("the page URL follows (history.replaceState)", driver.current_url == base + "/?p=72&slice=0.45&size=200")
    check("the Markdown snippet follows, its alt text the percentage",
          snippet("markdown") == f"![72%]({base}/ring.svg?p=72&slice=0.45&size=200)")
    check("the HTML snippet follows", 'width="200" height="200"' in snippet("html") and "size=200" in snippet("html"))
    check("the preview's alt text is the percentage", driver.find_element(By.ID, "preview").get_attribute("alt") == "72%")
    picture = snippet("picture")
    check("the <picture> pair has dark and light sources", "theme=dark" in picture and "theme=light" in picture)
    fits = driver.execute_script("const a = document.getElementById('s-picture');"
                                 "return [a.scrollHeight <= a.clientHeight + 1, a.getBoundingClientRect().height];")
    check(f"the <picture> snippet shows every line down to </picture> ({fits[1]:.0f} px)",
          picture.endswith("\n</picture>") and picture.count("\n") == 3 and fits[0])
    json_link = driver.find_element(By.ID, "json-link").get_attribute("href")
    check("the footer links this ring's /ring.json", json_link == base + "/ring.json?p=72&slice=0.45&size=200")
    check("the footer links the parameter reference, one row per control", driver.execute_script(
        "return document.querySelector('footer a[href=\"#reference\"]') !== null &&"
        " document.querySelectorAll('#reference tr[id^=r-]').length === document.querySelectorAll('#controls [id^=f-]').length"))

    # An invalid query: every error beside its control, and snippets that refuse to be copied.
    driver.find_element(By.ID, "f-half").click()
    wait.until(lambda d: "half=1" in preview_src())
    wait.until(lambda d: driver.find_element(By.ID, "e-half").text != "")
    check("an error from the service shows next to the control it names",
          driver.find_element(By.ID, "e-half").text == "half: cannot be combined with slice"
          and driver.find_element(By.ID, "f-half").get_attribute("aria-invalid") == "true")
    check("the snippets say the query is invalid and offer nothing to copy", driver.execute_script(
        "const m = document.getElementById('invalid');"
        "return !m.hidden && m.textContent.startsWith('This query is invalid') && m.textContent.includes('half: cannot')"
        " && [...document.querySelectorAll('#snippets textarea')].every(a => a.disabled && a.value === '')"
        " && [...document.querySelectorAll('#snippets button')].every(b => b.disabled)"))
    driver.find_element(By.ID, "f-half").click()
    wait.until(lambda d: driver.find_element(By.ID, "e-half").text == "")
    wait.until(lambda d: snippet("url") != "")
    check("the error clears when fixed, and the snippets come back",
          driver.find_element(By.ID, "f-half").get_attribute("aria-invalid") is None
          and driver.find_element(By.ID, "invalid").get_attribute("hidden") is not None
          and driver.find_element(By.ID, "copy-url").is_enabled())
    set_field("p", "abc")
    set_field("size", "9999")
    wait.until(lambda d: driver.find_element(By.ID, "e-size").text != "")
    check("two errors at once: each beside its own control",
          driver.find_element(By.ID, "e-p").text.startswith("p: \"abc\" is not a decimal number")
          and driver.find_element(By.ID, "e-size").text.startswith("size: \"9999\" is out of range"))
    set_field("p", "72")
    set_field("size", "200")
    wait.until(lambda d: snippet("url") != "" and driver.find_element(By.ID, "e-size").text == "")

    def swatch(name):
        return driver.execute_script(
            "const s = document.querySelector('#f-" + name + "').parentElement.querySelector('input[type=color]');"
            "return [s.value, s.classList.contains('none')];")

    check("an empty colour field's swatch shows the ring's default colour",
          swatch("color") == ["#2f81f7", False] and swatch("track") == ["#e1e4e8", False])
    check("a colour the ring does not draw shows a dimmed swatch", swatch("fill")[1] is True)
    set_field("color", "e5534b")
    wait.until(lambda d: "color=e5534b" in preview_src())
    check("a typed colour moves the swatch", swatch("color") == ["#e5534b", False])
    set_field("labelColor", "rebeccapurple")
    wait.until(lambda d: "labelColor=rebeccapurple" in preview_src())
    check("a named colour moves the swatch", swatch("labelColor") == ["#663399", False])

    check("SVG: no PNG note", driver.find_element(By.ID, "png-note").get_attribute("hidden") is not None)
    driver.find_element(By.ID, "format-png").click()
    wait.until(lambda d: "/ring.png?" in preview_src())
    wait.until(lambda d: preview_loaded() > 0)
    wait.until(lambda d: "/ring.png?" in snippet("markdown"))
    check("PNG: the preview is /ring.png and loads at the ring's size", preview_loaded() == 200)
    check("PNG: the snippets use /ring.png",
          "/ring.png?" in snippet("markdown") and "/ring.png?" in snippet("html") and "/ring.svg" not in snippet("picture"))
    check("PNG: the choice is kept in the page's #fragment", driver.current_url.endswith("#png"))
    note = driver.find_element(By.ID, "png-note")
    check("PNG under theme=auto: a note says it draws the light scheme and offers theme=dark",
          note.is_displayed() and "light scheme" in note.text and "theme=dark" in note.text)
    driver.find_element(By.ID, "use-dark").click()
    wait.until(lambda d: "theme=dark" in preview_src())
    check("the offer sets theme=dark, and the note goes", value("theme") == "dark" and not note.is_displayed())
    Select(driver.find_element(By.ID, "f-theme")).select_by_value("auto")
    wait.until(lambda d: note.is_displayed())
    Select(driver.find_element(By.ID, "f-scale")).select_by_value("2")
    wait.until(lambda d: "scale=2" in preview_src())
    wait.until(lambda d: preview_loaded() == 400)
    wait.until(lambda d: "scale=2" in snippet("html"))
    check("PNG: scale=2 doubles the pixels and the preview still shows 200 px",
          driver.execute_script("return document.getElementById('preview').getBoundingClientRect().width") == 200
          and 'width="200" height="200"' in snippet("html"))
    Select(driver.find_element(By.ID, "f-scale")).select_by_value("1")
    driver.find_element(By.ID, "format-svg").click()
    wait.until(lambda d: "/ring.svg?" in preview_src() and "scale" not in preview_src())
    check("SVG again: the note goes", not note.is_displayed())

    check("only non-default values appear in the URL",
          driver.current_url == base + "/?p=72&slice=0.45&size=200&color=e5534b&labelColor=rebeccapurple")

    # Concentric rings: the value field takes a list, and so do the colours; the alt text
    # reads every value.
    driver.get(base + "/?p=72,45.5,90&color=ff2d55,a2ff00,00e5ff")
    wait.until(lambda d: preview_loaded() > 0)
    wait.until(lambda d: snippet("markdown") != "")
    check("the value field is text and holds the list", value("p") == "72,45.5,90"
          and driver.find_element(By.ID, "f-p").get_attribute("type") == "text")
    check("the preview draws the three rings", preview_src() == base + "/ring.svg?p=72,45.5,90&color=ff2d55,a2ff00,00e5ff")
    check(f"the alt text reads every ring as its label would: {snippet('markdown')[:22]}",
          snippet("markdown").startswith("![72%, 46%, 90%](")
          and driver.find_element(By.ID, "preview").get_attribute("alt") == "72%, 46%, 90%")
    check("a colour list's swatch shows its first colour",
          driver.execute_script("return document.querySelector('#f-color + input[type=color]').value") == "#ff2d55")
    set_field("title", "Move, exercise, stand")
    wait.until(lambda d: snippet("markdown").startswith("![Move"))
    check("a title is the alt text", 'alt="Move, exercise, stand"' in snippet("html"))
    set_field("p", "72,45,90,10,5")
    wait.until(lambda d: driver.find_element(By.ID, "e-p").text != "")
    check("five values are refused, by name", driver.find_element(By.ID, "e-p").text.startswith("p:"))

    # A live ring: no value in the p field, the document's value in the alt text and the status.
    driver.get(base + "/?src=" + urllib.parse.quote(document_url, safe="") + "&field=coverage")
    wait.until(lambda d: preview_loaded() > 0)
    wait.until(lambda d: snippet("markdown") != "")
    check("a live ring: p stays empty, and src and field fill their controls",
          value("p") == "" and value("src") == document_url and value("field") == "coverage")
    check(f"a live ring: the alt text is the fetched value ({snippet('markdown')[:8]})",
          snippet("markdown").startswith("![72%](") and "field=coverage" in snippet("markdown"))
    live_status = driver.find_element(By.ID, "status").text
    check(f"a live ring: the status says where the value came from: {live_status}",
          live_status.startswith("Values read from " + document_url + ": 72.4 (fresh"))

    # Presets: each loads its query into the controls and the preview.
    buttons = driver.find_elements(By.CSS_SELECTOR, "#presets button")
    check(f"a row of presets: {[b.text for b in buttons]}", len(buttons) >= 5)
    activity = next(b for b in buttons if b.text == "Activity rings")
    activity.click()
    wait.until(lambda d: "p=420,24,10" in preview_src())
    wait.until(lambda d: snippet("markdown") != "")
    check("a preset fills the controls and draws its ring",
          value("p") == "420,24,10" and value("max") == "500,30,12" and value("title") == ""
          and snippet("markdown").startswith("![84%, 80%, 83%]("))
    for button in driver.find_elements(By.CSS_SELECTOR, "#presets button"):
        button.click()
        query = button.get_attribute("data-query")
        wait.until(lambda d: driver.find_element(By.ID, "copy-url").is_enabled() or
                   not driver.find_element(By.ID, "invalid").get_attribute("hidden"))
        wait.until(lambda d: preview_loaded() > 0)
    check("every preset is a valid ring", driver.execute_script(
        "return document.getElementById('invalid').hidden"))

    # A name the page has no control for is kept, in the URL, the preview and the snippets,
    # with the service's error for it in the status line; a change to a control keeps it too.
    driver.get(base + "/?p=72&colour=red")
    wait.until(lambda d: driver.find_element(By.ID, "status").text != "")
    check("an unknown name stays in the page's URL, the preview and /ring.json's link",
          "colour=red" in driver.current_url and "colour=red" in preview_src()
          and "colour=red" in driver.find_element(By.ID, "json-link").get_attribute("href"))
    check("its error is beside the form, in the status line",
          "colour: is not a parameter" in driver.find_element(By.ID, "status").text)
    set_field("size", "150")
    wait.until(lambda d: "size=150" in preview_src())
    check("a change to a control keeps the unknown name", "colour=red" in driver.current_url
          and driver.current_url.index("size=150") < driver.current_url.index("colour=red"))

    # Layout: the preview in view beside the controls on a desktop, above them and following on
    # a phone; light and dark.
    layouts = [("desktop", 1280, 900), ("phone", 390, 844)]
    for layout, width, height in layouts:
        for scheme in ("light", "dark"):
            emulate(width, height, scheme)
            driver.get(base + "/?p=72&slice=0.45&gradient=22c55e,eab308,ef4444&label=%7Bp%7D+done")
            wait.until(lambda d: preview_loaded() > 0)
            wait.until(lambda d: snippet("url") != "")
            time.sleep(0.3)
            where = f"{layout} {width}x{height} {scheme}"
            background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
            check(f"{where}: the page follows the scheme ({background})",
                  background == ("rgb(255, 255, 255)" if scheme == "light" else "rgb(13, 17, 23)"))
            check(f"{where}: nothing wider than the screen", driver.execute_script(
                "return document.documentElement.scrollWidth <= innerWidth"))
            stage = rect("document.getElementById('stage')")
            first = rect("document.querySelector('#controls input, #controls select')")
            if screenshots:
                driver.save_screenshot(f"{screenshots}/playground-{layout}-{scheme}.png")
            if layout == "desktop":
                check(f"{where}: the preview is beside the controls, in the first screen",
                      stage["left"] >= rect("document.getElementById('controls')")["right"] and stage["bottom"] <= height)
            else:
                check(f"{where}: the preview is above the first control, in the first screen "
                      f"(stage {stage['top']:.0f}-{stage['bottom']:.0f}, control at {first['top']:.0f})",
                      stage["bottom"] <= first["top"] and stage["bottom"] <= height * 0.5)
            driver.execute_script("document.getElementById('f-shadow').scrollIntoView({block: 'end'})")
            time.sleep(0.2)
            scrolled = driver.execute_script("return scrollY")
            stage = rect("document.getElementById('stage')")
            image = rect("document.getElementById('preview')")
            last = rect("document.getElementById('f-shadow')")
            check(f"{where}: scrolled {scrolled} px to the last control, the preview is still in view "
                  f"(image {image['top']:.0f}-{image['bottom']:.0f})",
                  scrolled > 300 and image["top"] >= 0 and image["bottom"] <= height and image["bottom"] > image["top"])
            if layout == "phone":
                check(f"{where}: the last control is not under the preview", last["top"] >= stage["bottom"])

    # An invalid query's 400 from /ring.json is the answer the page asked for, not an error.
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              and not (entry["source"] == "network" and entry["message"].startswith(base + "/ring.json?")
                       and "status of 400" in entry["message"])]
    check(f"no browser errors (CSP violations, script errors): {errors[:2]}", not errors)
finally:
    driver.quit()
    server.terminate()
    server.wait(timeout=15)

print(f"check-playground: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
