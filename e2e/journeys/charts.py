"""Reading charts: a runner imports a FIT file with heart rate and reads her heart rate on the
workout page by keyboard (focus the chart, arrow keys, the readout and the slider's value) and by
pointer (moving over the chart and tapping it: the readout, and the reading line on every chart
that shares the workout's time), zooms into a range by dragging and by Shift+arrows, and shows all
again; the map layer hears each reading as fieldhouse:chart-point and each range as chart-range."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser import FIXTURES, JourneyFailed
from words import words

# What the page dispatched for the map, and the state of each linked chart as a person sees it.
LISTEN = """
window.__chartEvents = [];
["fieldhouse:chart-point", "fieldhouse:chart-range"].forEach(function (name) {
  document.addEventListener(name, function (e) { window.__chartEvents.push([name, e.detail]); });
});"""
STATE = """
return [...document.querySelectorAll('.chart-read')].map(function (box) {
  const svg = [...box.querySelectorAll('svg.chart')].find(s => s.getBoundingClientRect().width > 0);
  const line = svg && svg.querySelector('g.chart-cursor line');
  const tools = box.nextElementSibling;
  return {
    name: box.getAttribute('aria-label'), role: box.getAttribute('role'), link: JSON.parse(box.dataset.chart).link || null,
    now: box.getAttribute('aria-valuenow'), text: box.getAttribute('aria-valuetext'),
    line: !!line && line.getAttribute('visibility') === 'visible',
    readout: tools.querySelector('.chart-readout').textContent, live: tools.querySelector('.chart-readout').getAttribute('aria-live'),
    caption: tools.querySelector('.chart-caption').hidden ? '' : tools.querySelector('.chart-caption').textContent,
    reset: !tools.querySelector('button').hidden,
    path: svg ? svg.querySelector('path.cl').getAttribute('d').length : 0};
});"""


def run(r):
    runner = r.newcomer(f"Rhea Reader {r.size}", r.unique("reader"))
    runner.visit("/").follow("Import files", within="main").sees("Import workouts")
    runner.choose_file("Files", FIXTURES / "fit" / "activity-small-fenix2-run.fit")
    runner.press("Import")
    created = runner.driver.find_elements(By.CSS_SELECTOR, ".import-results .import-created a")
    if not created:
        raise JourneyFailed(f"the import did not link the new workout: {runner.text[:400]!r}")
    runner.visit(created[0].get_attribute("href")).sees("Heart rate", "Pace", "Elevation")
    driver = runner.driver
    heart_name = words("Heart rate over time, in beats per minute")
    runner.wait_until("the charts to become readable", lambda d: d.execute_script(
        "return document.querySelectorAll('.chart-read[role=slider]').length") >= 4)
    driver.execute_script(LISTEN)

    def state():
        charts = {c["name"]: c for c in driver.execute_script(STATE)}
        if heart_name not in charts:
            raise JourneyFailed(f"no readable heart-rate chart among {list(charts)}")
        return charts

    def look(what):
        # The chart and its readout in view for the screenshot.
        driver.execute_script("arguments[0].nextElementSibling.scrollIntoView({block: 'end'})", heart)
        runner.landed(what)

    def linked(charts):
        return [c for c in charts.values() if c["link"] == "workout"]

    heart = driver.find_element(By.CSS_SELECTOR, f'.chart-read[aria-label="{heart_name}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", heart)

    # By keyboard: Tab reaches the chart (focus it as Tab would), Home and the arrows read it aloud.
    driver.execute_script("arguments[0].focus()", heart)
    ActionChains(driver).send_keys(Keys.HOME).send_keys(Keys.ARROW_RIGHT * 5).perform()
    charts = state()
    reading = charts[heart_name]
    if "bpm" not in reading["readout"] or reading["readout"] != reading["text"] or reading["live"] != "polite":
        raise JourneyFailed(f"the arrow keys should read a heart rate aloud under the chart: {reading!r}")
    if int(reading["now"]) <= 0 or not all(c["line"] for c in linked(charts)):
        raise JourneyFailed(f"five steps from the start, with the line on every linked chart: {charts!r}")
    ActionChains(driver).send_keys(Keys.END).perform()
    if int(state()[heart_name]["now"]) <= 5:
        raise JourneyFailed("End should read the last point")
    look("heart rate read by keyboard")

    # By pointer: moving reads quietly (no announcement on every move), a tap reads aloud.
    svg = [s for s in heart.find_elements(By.CSS_SELECTOR, "svg.chart") if s.is_displayed()][0]
    width = svg.size["width"]
    ActionChains(driver).move_to_element_with_offset(svg, int(-width * 0.2), 0).perform()
    moved = state()
    if moved[heart_name]["live"] != "off" or "bpm" not in moved[heart_name]["readout"]:
        raise JourneyFailed(f"moving over the chart should show the value quietly: {moved[heart_name]!r}")
    if not all(c["line"] for c in linked(moved)) or len(linked(moved)) < 3:
        raise JourneyFailed(f"the reading line should cross heart rate, speed or pace and elevation: {moved!r}")
    ActionChains(driver).move_to_element_with_offset(svg, int(width * 0.1), 0).click().perform()
    tapped = state()[heart_name]
    if tapped["live"] != "polite" or tapped["readout"] == moved[heart_name]["readout"]:
        raise JourneyFailed(f"a tap further on should read another value aloud: {tapped!r}")
    points = [e for e in driver.execute_script("return window.__chartEvents") if e[0] == "fieldhouse:chart-point"]
    if not points or not isinstance(points[-1][1]["seconds"], (int, float)):
        raise JourneyFailed(f"the map should hear the reading's elapsed seconds: {points[-3:]!r}")
    look("heart rate read by pointer")

    # Zoom by dragging across a third of the chart; every linked chart follows; Show all undoes it.
    full = state()[heart_name]["path"]
    ActionChains(driver).move_to_element_with_offset(svg, int(-width * 0.3), 0).click_and_hold() \
        .move_by_offset(int(width * 0.15), 0).move_by_offset(int(width * 0.15), 0).release().perform()
    zoomed = state()
    if not all(c["caption"] and c["reset"] for c in linked(zoomed)) or zoomed[heart_name]["path"] >= full:
        raise JourneyFailed(f"the drag should zoom every linked chart, with a caption and Show all: {zoomed!r}")
    ranges = [e for e in driver.execute_script("return window.__chartEvents") if e[0] == "fieldhouse:chart-range"]
    if not ranges or ranges[-1][1] is None or not ranges[-1][1]["from"] < ranges[-1][1]["to"]:
        raise JourneyFailed(f"the map should hear the zoomed range: {ranges!r}")
    look("heart rate zoomed by dragging")
    runner.press("Show all", within=".chart-tools", in_place=True)
    shown = state()
    if any(c["caption"] or c["reset"] for c in linked(shown)) or shown[heart_name]["path"] != full:
        raise JourneyFailed(f"Show all should draw the whole workout again: {shown[heart_name]!r}")
    ranges = [e for e in driver.execute_script("return window.__chartEvents") if e[0] == "fieldhouse:chart-range"]
    if ranges[-1][1] is not None:
        raise JourneyFailed("the map should hear that the range was reset")

    # Zoom by keyboard: Shift with the arrows chooses a range; Escape shows all again.
    driver.execute_script("arguments[0].focus()", heart)
    ActionChains(driver).send_keys(Keys.HOME).key_down(Keys.SHIFT).send_keys(Keys.PAGE_UP * 3).key_up(Keys.SHIFT).perform()
    zoomed = state()[heart_name]
    if not zoomed["caption"] or not zoomed["reset"]:
        raise JourneyFailed(f"Shift and the arrows should zoom into the chosen range: {zoomed!r}")
    look("heart rate zoomed by keyboard")
    driver.execute_script("arguments[0].focus()", heart)  # the page checks move the focus
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    if state()[heart_name]["caption"]:
        raise JourneyFailed("Escape should show the whole chart again")

    # The other charts read the same way: Maya's continuous heart rate (a band, whose drag still
    # opens the range as a new page) and her statistics (a column per period).
    maya = r.person()
    maya.sign_in("maya")
    for path in ["/heart-rate", "/stats"]:
        maya.visit(path)
        maya.wait_until("a readable chart", lambda d: d.execute_script("return document.querySelectorAll('.chart-read[role=slider]').length") > 0)
        box = maya.driver.find_element(By.CSS_SELECTOR, ".chart-read[role=slider]")
        maya.driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", box)
        ActionChains(maya.driver).send_keys(Keys.END).send_keys(Keys.ARROW_LEFT).perform()
        readout = maya.driver.execute_script("return arguments[0].nextElementSibling.querySelector('.chart-readout').textContent", box)
        if not readout or readout != box.get_attribute("aria-valuetext"):
            raise JourneyFailed(f"the chart on {path} should read by keyboard: {readout!r}")
        maya.landed(f"{path} read by keyboard")

    # A coach reads an athlete's training load (two lines over days) and zooms into it.
    coach = r.person()
    coach.sign_in("jonas")
    coach.visit("/coach/athletes/maya")
    load_name = words("Training load: last 7 days (solid) against the 28-day weekly average (dashed)")
    coach.wait_until("a readable load chart", lambda d: d.find_elements(By.CSS_SELECTOR, f'.chart-read[role=slider][aria-label="{load_name}"]'))
    box = coach.driver.find_element(By.CSS_SELECTOR, f'.chart-read[aria-label="{load_name}"]')
    coach.driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", box)
    ActionChains(coach.driver).send_keys(Keys.END).key_down(Keys.SHIFT).send_keys(Keys.PAGE_DOWN * 3).key_up(Keys.SHIFT).perform()
    tools = box.find_element(By.XPATH, "following-sibling::div[1]")
    caption, readout = tools.find_element(By.CSS_SELECTOR, ".chart-caption"), tools.find_element(By.CSS_SELECTOR, ".chart-readout")
    dashed = coach.driver.execute_script("return [...arguments[0].querySelectorAll('path.c2')].map(p => p.getAttribute('d').length)", box)
    # Days on this axis: the caption names days, not a clock ("14 Sep", never "1224:00:00").
    if "TRIMP" not in (box.get_attribute("aria-valuetext") or "") or not caption.is_displayed() or ":" in caption.text or min(dashed) == 0:
        raise JourneyFailed(f"the load chart should read by keyboard and zoom both lines: {box.get_attribute('aria-valuetext')!r}, {caption.text!r}, {dashed!r}")
    coach.driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", tools)
    coach.landed("training load zoomed by keyboard")
