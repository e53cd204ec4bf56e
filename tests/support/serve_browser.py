#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""pith-serve's page in a real browser (headless Chromium via selenium).

serve_browser.py BASE_URL STAMPED_PDF TAMPERED_PDF BUNDLE ARTIFACT_DIR [SCREENSHOT_COPY]

Loads the page, uploads the stamped PDF through the file input, reads the
verdict and the title seen on page 1 from the DOM, then does the same with
the tampered copy, with a registry bundle (verified, and the words must
not claim that a paper was shown) and (PITH_ALTERED_PDF, desktop) a copy
whose page 3 was edited after stamping: verdict "altered", the words
naming page 3 and the warnings; then again at phone width. Screenshots go to ARTIFACT_DIR
(and the first one to SCREENSHOT_COPY: docs/img/pith-serve.png). Exit 0 when
every expectation holds, 1 on a failure, 77 when Chromium cannot start (the
test then skips, saying why).
"""
import os
import shutil
import sys
import tempfile
from pathlib import Path

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError as e:
    print(f"SKIP: python3-selenium is not installed ({e})")
    sys.exit(77)

SKIP = 77


def start_browser(profile, width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(driver_path), options=options)


def check_upload(browser, base, pdf, want_verdict, want_title, shot, words_want=(), words_refuse=None):
    browser.get(base + "/")
    browser.find_element(By.ID, "file").send_keys(str(Path(pdf).resolve()))
    try:
        WebDriverWait(browser, 60).until(lambda b: b.find_element(By.ID, "verdict").text.strip() != "")
    except TimeoutException:
        status = browser.find_element(By.ID, "status").text
        return [f"{Path(pdf).name}: no verdict shown within 60 s (status: {status!r})"]
    # The record is looked up after the verdict: wait for it (or its absence) too.
    try:
        WebDriverWait(browser, 30).until(lambda b: "not looked up yet" not in b.find_element(By.ID, "record").text)
    except TimeoutException:
        pass
    problems = []
    verdict = browser.find_element(By.ID, "verdict").text.strip().lower()
    title = browser.find_element(By.ID, "title").text.strip()
    words = browser.find_element(By.ID, "verdict-text").text.strip()
    if verdict != want_verdict:
        problems.append(f"{Path(pdf).name}: verdict {verdict!r} on the page, expected {want_verdict!r}")
    if want_title is not None and want_title not in title:
        problems.append(f"{Path(pdf).name}: title {title!r} on the page, expected {want_title!r}")
    if not words:
        problems.append(f"{Path(pdf).name}: no verdict in words")
    for want in words_want:
        if want not in words:
            problems.append(f"{Path(pdf).name}: the words {words!r} do not say {want!r}")
    if words_refuse is not None and words_refuse in words:
        problems.append(f"{Path(pdf).name}: the words {words!r} claim {words_refuse!r}")
    bindings = browser.find_element(By.ID, "bindings").text
    if words_refuse is not None and "not a PDF with a verified record" in bindings:
        problems.append(f"{Path(pdf).name}: the bindings say {bindings!r}")
    browser.save_screenshot(str(shot))
    print(f"{Path(pdf).name}: verdict {verdict!r}, title {title!r}; {words}")
    return problems


def main():
    if len(sys.argv) < 6:
        print(__doc__)
        return 2
    base, stamped, tampered, bundle, artifacts = sys.argv[1:6]
    copy_to = Path(sys.argv[6]) if len(sys.argv) > 6 else None
    artifacts = Path(artifacts)
    artifacts.mkdir(parents=True, exist_ok=True)
    problems = []
    for name, (width, height) in (("desktop", (1100, 1500)), ("phone", (390, 1600))):
        profile = tempfile.mkdtemp(prefix="pith-chromium-")
        try:
            browser = start_browser(profile, width, height)
        except WebDriverException as e:
            shutil.rmtree(profile, ignore_errors=True)
            print(f"SKIP: Chromium cannot start: {e.msg or e}".splitlines()[0])
            return SKIP
        try:
            shot = artifacts / f"pith-serve-{name}-verified.png"
            problems += check_upload(browser, base, stamped, "verified", "Layered gradient accumulation", shot)
            if name == "desktop" and copy_to is not None and not problems:
                copy_to.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(shot, copy_to)
            problems += check_upload(browser, base, tampered, "failed", None,
                                     artifacts / f"pith-serve-{name}-tampered.png")
            altered = os.environ.get("PITH_ALTERED_PDF")
            if altered and name == "desktop":
                problems += check_upload(browser, base, altered, "altered", "Layered gradient accumulation",
                                         artifacts / "pith-serve-desktop-altered.png",
                                         words_want=("changed after it was stamped", "Changed: page 3.",
                                                     "pdf.bytes.edited_text_changed"))
            problems += check_upload(browser, base, bundle, "verified", None, artifacts / f"pith-serve-{name}-bundle.png",
                                     words_want=("not a PDF, so no paper was shown",), words_refuse="This PDF is the registered paper")
            if name == "phone":
                overflow = browser.execute_script(
                    "return document.documentElement.scrollWidth > window.innerWidth + 1")
                if overflow:
                    problems.append("phone width: the page scrolls sideways")
            logs = [entry for entry in browser.get_log("browser") if entry.get("level") == "SEVERE"]
            for entry in logs:
                problems.append(f"{name}: console error: {entry.get('message')}")
        finally:
            browser.quit()
            shutil.rmtree(profile, ignore_errors=True)
    for p in problems:
        print("FAIL: " + p)
    print(f"screenshots in {artifacts}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
