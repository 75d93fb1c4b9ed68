"""Maps you can move: a runner imports a FIT file with a GPS track and, on the workout page, zooms
its map with the + button and with the keyboard, drags it, and sees the point of a heart-rate reading
on the map; then she finds a partner place on the places map, opens it from its marker, and asks
the map "where I am" (geolocation emulated; the position stays in the page)."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser import FIXTURES, JourneyFailed
from words import words

# A demo partner place (Places/DemoPlaces.swift), and a spot in the demo city near it.
PARTNER = "Kaffe & Kæde"
HERE = (55.6790, 12.5650)

# The zoomable map as a person sees it: its zoom, its centre, the tiles shown and whether the
# server's SVG gave way to it.
STATE = """
const box = document.querySelector(arguments[0] + ' .map-live');
if (!box || !box.fieldhouseMap) return null;
const map = box.fieldhouseMap, centre = map.getCenter();
return {zoom: map.getZoom(), lat: centre.lat, lng: centre.lng,
        tiles: box.querySelectorAll('img.leaflet-tile-loaded').length,
        broken: [...box.querySelectorAll('img.leaflet-tile')].filter(i => i.complete && i.naturalWidth === 0).length,
        svgHidden: getComputedStyle(box.parentNode.querySelector('svg.map')).display === 'none',
        reading: !!box.querySelector('.map-reading'),
        drawn: [...box.querySelectorAll('.leaflet-overlay-pane path')].filter(p => p.getBoundingClientRect().width > 20).length,
        label: box.getAttribute('aria-label')};"""


def run(r):
    runner = r.newcomer(f"Mara Mapper {r.size}", r.unique("mapper"))
    driver = runner.driver
    runner.visit("/").follow("Import files", within="main").sees("Import workouts")
    runner.choose_file("Files", FIXTURES / "fit" / "activity-small-fenix2-run.fit")
    runner.press("Import")
    created = driver.find_elements(By.CSS_SELECTOR, ".import-results .import-created a")
    if not created:
        raise JourneyFailed(f"the import did not link the new workout: {runner.text[:400]!r}")
    runner.visit(created[0].get_attribute("href"))

    def state(scope="main"):
        return driver.execute_script(STATE, scope)

    def shot(what, selector="main .map-live"):
        """A screenshot with the map in view (each step's checks scroll the page back to the top)."""
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", driver.find_element(By.CSS_SELECTOR, selector))
        runner.landed(what)

    runner.wait_until("the workout's map to become zoomable, with its tiles", lambda d: (state() or {}).get("tiles", 0) >= 2)
    first = state()
    if not first["svgHidden"] or first["broken"] or words("Zoom with + and −, move with the arrow keys.") not in first["label"]:
        raise JourneyFailed(f"the zoomable map should replace the SVG, with every tile and a name that says how to use it: {first!r}")
    if first["drawn"] < 2:
        raise JourneyFailed(f"the route should be drawn on the zoomable map (its casing and its line): {first!r}")
    box = driver.find_element(By.CSS_SELECTOR, "main .map-live")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)

    # Zoom in with the + button.
    box.find_element(By.CSS_SELECTOR, ".leaflet-control-zoom-in").click()
    runner.wait_until("the map to zoom in", lambda d: state()["zoom"] == first["zoom"] + 1 and state()["tiles"] >= 2)
    shot("workout map zoomed in")

    # Drag it: the centre moves, new tiles come through the proxy.
    zoomed = state()
    ActionChains(driver).move_to_element(box).click_and_hold().move_by_offset(-40, -20).move_by_offset(-40, -20) \
        .release().perform()
    runner.wait_until("the map to move", lambda d: abs(state()["lng"] - zoomed["lng"]) > 1e-6)
    dragged = state()
    if dragged["zoom"] != zoomed["zoom"] or not dragged["lng"] > zoomed["lng"] or dragged["broken"]:
        raise JourneyFailed(f"dragging left should move the map east, same zoom, every tile shown: {zoomed!r} → {dragged!r}")
    shot("workout map dragged")

    # By keyboard: the map takes focus, − zooms out, an arrow moves it.
    driver.execute_script("arguments[0].focus()", box)
    ActionChains(driver).send_keys("-").perform()
    runner.wait_until("the keyboard to zoom the map out", lambda d: state()["zoom"] == dragged["zoom"] - 1)
    before = state()
    ActionChains(driver).send_keys(Keys.ARROW_UP).perform()
    runner.wait_until("an arrow key to move the map", lambda d: state()["lat"] > before["lat"])
    shot("workout map moved by keyboard")

    # A heart-rate reading shows where on the route it was taken.
    heart = driver.find_element(By.CSS_SELECTOR, f'.chart-read[aria-label="{words("Heart rate over time, in beats per minute")}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", heart)
    ActionChains(driver).send_keys(Keys.HOME).send_keys(Keys.ARROW_RIGHT * 20).perform()
    runner.wait_until("the reading's point on the map", lambda d: state()["reading"])
    shot("heart-rate reading on the map")

    # The places map: a partner place, found on the map and opened from its marker.
    runner.visit("/places")
    runner.wait_until("the places map to become zoomable", lambda d: (state() or {}).get("tiles", 0) >= 1)
    places = driver.find_element(By.CSS_SELECTOR, "main .map-live")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", places)
    partner = PARTNER
    markers = places.find_elements(By.CSS_SELECTOR, f'.leaflet-marker-icon[aria-label*="{partner}"]')
    if not markers:
        titles = [m.get_attribute("aria-label") for m in places.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon")]
        raise JourneyFailed(f"no marker for {partner!r} on the places map; it has {titles!r}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", markers[0])
    driver.execute_script("arguments[0].focus()", markers[0])
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    runner.wait_until("the marker's link", lambda d: places.find_elements(By.CSS_SELECTOR, ".leaflet-popup a"))
    shot("partner place found on the places map")
    places.find_element(By.CSS_SELECTOR, ".leaflet-popup a").click()
    runner.landed("partner place opened from the map").sees(partner)

    # "Where I am": the emulated position appears on the map; the page asks the server nothing.
    runner.visit("/places")
    runner.wait_until("the places map", lambda d: (state() or {}).get("tiles", 0) >= 1)
    driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": runner.base})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": HERE[0], "longitude": HERE[1], "accuracy": 20})
    asked = driver.execute_script("return performance.getEntriesByType('resource').filter(e => !e.name.includes('/tiles/')).length")
    button = driver.find_element(By.CSS_SELECTOR, "main .map-locate button")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    runner.wait_until("the map to show where she is", lambda d: d.execute_script(
        "return document.querySelector('main .map-locate').dataset.located || ''") == "inside")
    after = driver.execute_script("return performance.getEntriesByType('resource').filter(e => !e.name.includes('/tiles/')).length")
    if after != asked:
        raise JourneyFailed("finding where she is should ask the server nothing")
    shot("where I am on the places map")
