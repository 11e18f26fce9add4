#!/usr/bin/env python3
"""Tests the playground page in a real browser: Debian's chromium and chromium-driver, driven
by Selenium.

  scripts/check-playground.py PATH-TO-ring [--screenshots DIR]

Starts `ring serve`, opens /?p=72&slice=0.45 and checks the controls, the preview, the page URL
and the snippets; changes controls and checks everything follows; checks an error from the
service is shown next to the control it names; checks the browser logged no error (a CSP
violation would be one). With --screenshots, saves the page in light and dark schemes.
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

server = subprocess.Popen([ring, "serve", "--host", "127.0.0.1", "--port", "0", "--access-log", "off"],
                          stderr=subprocess.PIPE, text=True)
port = int(re.search(r":(\d+) ", server.stderr.readline()).group(1))
base = f"http://127.0.0.1:{port}"

options = webdriver.ChromeOptions()
options.binary_location = browser
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1100"):
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


try:
    driver.get(base + "/?p=72&slice=0.45")
    wait.until(lambda d: preview_loaded() > 0)
    check("controls show the page's query (p=72, slice=0.45)", value("p") == "72" and value("slice") == "0.45")
    check("other controls show their defaults", value("size") == "120" and value("cap") == "round")
    check("preview src is /ring.svg for the query", preview_src() == base + "/ring.svg?p=72&slice=0.45")
    check("preview image loaded (natural width > 0)", preview_loaded() == 120)
    check("every control has a label", driver.execute_script(
        "return [...document.querySelectorAll('#controls input:not([type=color]), #controls select')]"
        ".every(e => document.querySelector('label[for=\"' + e.id + '\"]'))"))

    set_field("size", "200")
    wait.until(lambda d: "size=200" in preview_src())
    wait.until(lambda d: preview_loaded() == 200)
    check("changing size updates the preview", "size=200" in preview_src() and preview_loaded() == 200)
    check("the page URL follows (history.replaceState)", driver.current_url == base + "/?p=72&slice=0.45&size=200")
    markdown = driver.find_element(By.ID, "s-markdown").get_attribute("value")
    check("the Markdown snippet follows", markdown == f"![Progress: 72]({base}/ring.svg?p=72&slice=0.45&size=200)")
    html = driver.find_element(By.ID, "s-html").get_attribute("value")
    check("the HTML snippet follows", 'width="200"' in html and "size=200" in html)
    picture = driver.find_element(By.ID, "s-picture").get_attribute("value")
    check("the <picture> pair has dark and light sources", "theme=dark" in picture and "theme=light" in picture)

    driver.find_element(By.ID, "f-half").click()
    wait.until(lambda d: "half=1" in preview_src())
    wait.until(lambda d: driver.find_element(By.ID, "e-half").text != "")
    check("an error from the service shows next to the control it names",
          driver.find_element(By.ID, "e-half").text == "half: cannot be combined with slice"
          and driver.find_element(By.ID, "f-half").get_attribute("aria-invalid") == "true")
    driver.find_element(By.ID, "f-half").click()
    wait.until(lambda d: driver.find_element(By.ID, "e-half").text == "")
    check("the error clears when fixed", driver.find_element(By.ID, "f-half").get_attribute("aria-invalid") is None)

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

    driver.find_element(By.ID, "format-png").click()
    wait.until(lambda d: "/ring.png?" in preview_src())
    wait.until(lambda d: preview_loaded() > 0)
    check("PNG: the preview is /ring.png and loads at the ring's size", preview_loaded() == 200)
    check("PNG: the snippets use /ring.png",
          "/ring.png?" in driver.find_element(By.ID, "s-markdown").get_attribute("value")
          and "/ring.png?" in driver.find_element(By.ID, "s-html").get_attribute("value")
          and "/ring.svg" not in driver.find_element(By.ID, "s-picture").get_attribute("value"))
    check("PNG: the choice is kept in the page's #fragment", driver.current_url.endswith("#png"))
    Select(driver.find_element(By.ID, "f-scale")).select_by_value("2")
    wait.until(lambda d: "scale=2" in preview_src())
    wait.until(lambda d: preview_loaded() == 400)
    check("PNG: scale=2 doubles the pixels and the preview still shows 200 px",
          driver.execute_script("return document.getElementById('preview').getBoundingClientRect().width") == 200)
    Select(driver.find_element(By.ID, "f-scale")).select_by_value("1")
    driver.find_element(By.ID, "format-svg").click()
    wait.until(lambda d: "/ring.svg?" in preview_src() and "scale" not in preview_src())

    check("only non-default values appear in the URL",
          driver.current_url == base + "/?p=72&slice=0.45&size=200&color=e5534b&labelColor=rebeccapurple")

    # Concentric rings: the value field takes a list, and so do the colours.
    driver.get(base + "/?p=72,45,90&color=ff2d55,a2ff00,00e5ff")
    wait.until(lambda d: preview_loaded() > 0)
    check("the value field is text and holds the list", value("p") == "72,45,90"
          and driver.find_element(By.ID, "f-p").get_attribute("type") == "text")
    check("the preview draws the three rings", preview_src() == base + "/ring.svg?p=72,45,90&color=ff2d55,a2ff00,00e5ff")
    check("a colour list's swatch shows its first colour",
          driver.execute_script("return document.querySelector('#f-color + input[type=color]').value") == "#ff2d55")
    set_field("p", "72,45,90,10,5")
    time.sleep(0.5)
    check("five values are refused, by name", "p:" in driver.find_element(By.ID, "status").text
          or "1 to 4" in driver.find_element(By.ID, "e-p").text)

    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(f"no browser errors (CSP violations, script errors): {errors[:2]}", not errors)

    if screenshots:
        driver.get(base + "/?p=72&slice=0.45&gradient=22c55e,eab308,ef4444&label=%7Bp%7D+done")
        wait.until(lambda d: preview_loaded() > 0)
        time.sleep(0.3)
        driver.save_screenshot(f"{screenshots}/playground-light.png")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        time.sleep(0.3)
        driver.save_screenshot(f"{screenshots}/playground-dark.png")
finally:
    driver.quit()
    server.terminate()
    server.wait(timeout=15)

print(f"check-playground: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
