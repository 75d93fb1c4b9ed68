"""Recording in the browser (issue 43): a new cyclist whose coach watches live keeps a privacy zone
round home, pairs a heart-rate strap (emulated through WebDriver BiDi, e2e/bidi.py), starts a ride
shared with their coaches and rides away from home along a real track (geolocation emulated fix by
fix). On the way the network goes offline and the tab is reloaded; the recording goes on where it
was, the strap comes back by itself, and when the network returns what waited is sent (the answer to the
first batch is lost on the way, so the page sends it again). Later the strap drops out for a few
seconds and reconnects by itself. Then Finish.

The coach's browser watches the live page and sees the points arrive; a stranger gets 404; no point
inside the privacy zone ever reaches the coach's browser (every event its EventSource received is
kept). Others never see the zone's own circle but a larger one round it, drawn at random when the
zone is made (PrivacyZone.hiding: up to 1,050 m from home), so the ride goes on until the coach has
seen it for a while, and the points the coach got are checked against that circle, read from the
rider's account export. The saved workout, read through the device API with a token made in
Settings → Devices and through the export, has the ridden distance (within 2 %), the emitted heart
rate's average and maximum, and exactly the samples emitted: nothing lost, nothing stored twice.
The page's heart-rate decoder reads every payload of Tests/Fixtures/heart-rate-measurements.json as
the server's does (Tests/FieldhouseKitTests/HeartRateFixtureTests.swift).

Phone size only: the recorder is a page for a phone in a hand, and a run takes about two minutes of
wall time (the ride 70-110 s, longer the further the hidden circle reaches); at both sizes and again
in Portuguese it would add some six minutes to CI. `E2E_PROCESSES` ("URL_A URL_B", set by scripts/cluster-check.sh) puts the rider on one
app process and the coach on the other, so the live events cross processes."""

import csv
import datetime
import io
import json
import math
import os
import re
import time
import urllib.error
import urllib.request
import zipfile

from selenium.webdriver.common.by import By

import devtools
from bidi import Strap
from browser import FIXTURES, JourneyFailed
from words import found_in, words

sizes = ("phone",)

ROUTE = FIXTURES / "gpx" / "fenix2-run-with-hr.gpx"
ROUTE_FROM = 102            # the track's point where a straight stretch starts
ROUTE_LENGTH = 1800         # metres at most: by 1,350 m the rider is past any circle hiding home
SPACING = 5.0               # metres at least between two fixes fed
SPEED = 13.0                # m/s, 47 km/h: a fast descent, far under cycling's top speed (Plausible.topSpeed, 36 m/s)
ZONE_RADIUS = 200           # metres, the smallest the privacy-zone form offers
OFFLINE_AT, RELOAD_AT, ONLINE_AT, DROP_AT = 250, 400, 560, 680  # metres into the ride
DROP_SECONDS = 6
HEART_EVERY = 1.0           # seconds between two heart-rate notifications
BPMS = [128, 134, 141, 147, 152, 158, 163, 156, 149, 143, 137, 131]
EARTH_RADIUS = 6371008.8


def run(r):
    processes = os.environ.get("E2E_PROCESSES", "").split()
    rider_base, coach_base = (processes[0], processes[1]) if len(processes) >= 2 else (None, None)
    coach_user, rider_user = r.unique("rccoach"), r.unique("rcrider")
    coach_name, rider_name = f"Rhea Coach {r.size}", f"Remy Rider {r.size}"
    fixes = route_fixes()
    home, zone_name = home_of(fixes), f"Home {r.unique('')}"

    coach = r.newcomer(coach_name, coach_user, base=coach_base)
    rider = r.newcomer(rider_name, rider_user, sensors=True, base=rider_base)
    # The rider's phone knows where it is (the route's start) and may tell this site.
    place(rider.driver, fixes[0])
    rider.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": rider.base})

    # The rider asks the coach; the coach accepts.
    rider.visit("/settings/profile").follow("Coaches", within="main")
    rider.fill("Your coach's username", coach_user).press("Ask them")
    rider.sees(f"Asked {coach_name}.")
    coach.from_menu("Coaching").press("Accept", within="main").sees(f"You now coach {rider_name}.")

    # A privacy zone round home, where the ride starts.
    rider.visit("/settings/profile").follow("Privacy zones", within="nav.tabs")
    rider.fill("Name", zone_name).fill("Latitude", f"{home[0]:.5f}").fill("Longitude", f"{home[1]:.5f}")
    rider.fill("Radius", f"{ZONE_RADIUS} m").press("Add zone").sees(f"Added the zone “{zone_name}”")

    # The recorder, from Workouts.
    rider.visit("/workouts").follow("Record a workout")
    if rider.path != "/record":
        raise JourneyFailed(f"“Record a workout” led to {rider.path}, not /record")
    rider.sees("Record a workout", "Start recording", "Heart-rate strap")
    d = rider.driver
    recorder = Recorder(rider)

    # The page's decoder reads every fixture payload as the server's decoder does
    # (Tests/FieldhouseKitTests/HeartRateFixtureTests.swift reads the same file).
    same_decoder(d)

    # The strap: paired through the browser's chooser, then notifications.
    strap = Strap(d)
    rider.press("Connect heart-rate strap", in_place=True)
    try:
        recorder.strap_connected(strap)
    except JourneyFailed as first:
        # Chromium's emulated chooser now and then never answers the first request (seen on the
        # cluster's busy runs); a person would press again, and the second must connect.
        print(f"    recorder: the strap did not connect at the first press ({first}); pressing again")
        strap.power_on()
        rider.press("Connect heart-rate strap", in_place=True)
        recorder.strap_connected(strap, seconds=30)
    if "87" not in rider.driver.find_element(By.CSS_SELECTOR, "[data-strap-battery]").text:
        raise JourneyFailed(f"the strap's battery (87 %) should show: {rider.text[:400]!r}")

    # Cycling, shared live with the coaches; Start.
    rider.fill("Sport", "Cycling").fill("Pause by itself when I stand still", False).fill("My coaches", True)
    rider.press("Start recording", in_place=True)
    recorder.wait("the recording to start", lambda s: s["state"] == "recording")
    live_url = rider.wait_until("the live page's link after Start", lambda _: rider.driver.execute_script(
        "const a = document.querySelector('[data-share-status] a'); return a ? a.getAttribute('href') : null;"), seconds=20)
    rider.sees("Shared live.")
    workout_id = live_url.rstrip("/").split("/")[-1]

    # The coach opens the live page (keeping every event the page's EventSource receives); a
    # stranger gets 404, the page and its events alike.
    coach.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": KEEP_EVENTS})
    coach.from_menu("Coaching").sees("Live now")
    coach.follow(rider_name, within=".live-now").sees(f"{rider_name}, live", "Live now")
    if coach.path != live_url:
        raise JourneyFailed(f"the coach's “Live now” link led to {coach.path}, not {live_url}")
    stranger = r.person("jonas")
    stranger.visit(live_url)
    stranger.sees("Page not found").does_not_see(rider_name)
    if stranger.fetch(live_url + "/events")[0] != 404:
        raise JourneyFailed("a stranger must get 404 for the live page's events")
    stranger.quit()
    r.browsers.remove(stranger)

    # The ride.
    ride = Ride(r, rider, coach, strap, recorder, fixes, home)
    try:
        ride.go()
    finally:
        # What the strap and the browser said to each other, for a run that went wrong.
        (r.folder / "bluetooth.log").write_text("\n".join(f"{t:8.2f} {way} {method} {detail}" for t, way, method, detail in strap.bidi.log))

    # Everything sent, then Finish (confirmed).
    recorder.wait("everything to be sent before Finish", lambda s: s["pending"] == 0, seconds=30)
    rider.sees("Everything recorded has been sent.")
    time.sleep(2)  # the last batch's points reach the coach within a second or two
    snap(rider, "recorder-before-finish")
    rider.driver.execute_script("document.querySelector('[data-map]').scrollIntoView({block: 'center'})")
    snap(rider, "recorder-map")
    snap(coach, "live-page-before-finish")
    rider.press("Finish recording", in_place=True)
    rider.sees("Finish and save this workout?")
    rider.press("Finish and save")
    rider.wait_until("the saved workout's page", lambda _: rider.path == f"/workouts/{workout_id}", seconds=30)
    rider.landed("the saved workout")
    rider.sees("Cycling", "Heart rate")

    # The coach's page says the recording finished and links the workout (or, reloaded after the
    # end, the live address leads to the workout itself).
    coach.wait_until("the live page to say the recording finished", lambda _: coach.path == f"/workouts/{workout_id}"
                     or found_in(coach.text, "Recording finished"), seconds=20)
    coach.landed("live page, finished")
    if coach.path == live_url and not coach.driver.find_elements(By.LINK_TEXT, words("See the workout")):
        raise JourneyFailed(f"the finished live page should link the workout: {coach.text[:400]!r}")

    # What was saved, as the rider's own device API and export tell it; what the coach got.
    samples, hidden = check_saved(rider, workout_id, ride)
    ride.check_coach_got(samples, hidden)
    circle = f"the circle hidden round home: {hidden[2]:.0f} m" if hidden else "no hidden circle in the export"
    print(f"    recorder: rode {ride.metres:.0f} m in {ride.seconds:.0f} s ({len(ride.stored)} fixes, {len(ride.bpms)} heart rates, "
          f"{ride.rr} RR intervals); {circle}; the coach's page held {[c for _, c, _ in ride.coach_counts]}")


class Recorder:
    """The recorder page as the journey reads it: what a person sees, and the page's own summary
    (`window.fieldhouseRecorder.state()`) for what waits to be sent."""

    def __init__(self, browser):
        self.b = browser

    def state(self):
        return self.b.driver.execute_script("return window.fieldhouseRecorder && window.fieldhouseRecorder.state ? window.fieldhouseRecorder.state() : null")

    def wait(self, what, test, seconds=15):
        return self.b.wait_until(what, lambda _: (lambda s: s and test(s))(self.state()), seconds)

    def strap_status(self):
        return self.b.driver.find_element(By.CSS_SELECTOR, "[data-strap-status]").text

    def strap_connected(self, strap, seconds=20):
        self.b.wait_until("the strap to connect", lambda _: connected(self.strap_status()) and strap.subscriptions > 0, seconds)

    def queue_line(self):
        return self.b.driver.find_element(By.CSS_SELECTOR, "[data-queue]").text


class Ride:
    """The ride along the route: a fix whenever the rider has covered the distance to it at SPEED,
    a heart-rate notification every HEART_EVERY seconds, a look at the coach's map every few
    seconds, and the events at their share of the way. One thread drives all of it, so a slow step
    only makes the rider slower, never faster. What must follow an event (the strap back, the queue
    drained) is an expectation, looked at while the ride goes on."""

    def __init__(self, r, rider, coach, strap, recorder, fixes, zone):
        self.r, self.rider, self.coach, self.strap, self.recorder, self.fixes = r, rider, coach, strap, recorder, fixes
        self.zone = zone
        self.d = rider.driver
        self.stored = []          # the positions the recording keeps: every fix fed while recording,
                                  # and the one a reloaded page's watch starts from
        self.bpms = []            # heart rates that count (contact detected, while recording)
        self.rr = 0               # RR intervals that count
        self.notifications = 0
        self.coach_counts = []    # (seconds into the ride, points the coach's page holds, points its map draws)
        self.strap_ready = True
        self.expectations = []    # [what, test, deadline, then]
        self.coach_photographed = False

    def go(self):
        marks = {OFFLINE_AT: self.go_offline, RELOAD_AT: self.reload, ONLINE_AT: self.go_online, DROP_AT: self.drop_strap}
        self.started = started = time.monotonic()
        self.next_heart = started + 2.0  # the first beat a little after Start (RR times count back from it)
        next_look = started + 3.0
        last_fix_at, along = started, 0.0
        for i in range(1, len(self.fixes)):
            step = metres(self.fixes[i - 1], self.fixes[i])
            due = last_fix_at + step / SPEED
            while time.monotonic() < due:
                if time.monotonic() >= next_look:
                    self.look()
                    next_look = time.monotonic() + 3.0
                self.tick()
                time.sleep(min(0.05, max(0, due - time.monotonic())))
            place(self.d, self.fixes[i])
            self.stored.append(self.fixes[i])
            last_fix_at, along = time.monotonic(), along + step
            for at in [m for m in marks if along >= m]:
                marks.pop(at)()
                last_fix_at = time.monotonic()  # the rider waited for whatever happened
            if not marks and not self.expectations and self.coach_saw_enough():
                break
        else:
            raise JourneyFailed(f"the route ended before the coach saw the ride arrive; the coach's page held {self.coach_counts}")
        self.look()
        self.seconds = time.monotonic() - started
        self.metres = along

    def coach_saw_enough(self):
        """Points arriving on the coach's map for a while: four different counts, the last 15 or more."""
        drawn = [count for _, _, count in self.coach_counts if count > 0]
        return len(set(drawn)) >= 4 and drawn[-1] >= 15

    def tick(self):
        """A heart beat when one is due, and a look at what is expected."""
        now = time.monotonic()
        if now >= self.next_heart:
            self.heart_beat()
            self.next_heart = now + HEART_EVERY
        for expectation in list(self.expectations):
            what, test, deadline, then = expectation
            if test():
                self.expectations.remove(expectation)
                if then:
                    then()
            elif now > deadline:
                raise JourneyFailed(f"{self.rider.who} waited in vain for {what}; the recorder says: {self.rider.text[:500]!r}")

    def expect(self, what, test, seconds, then=None):
        self.expectations.append([what, test, time.monotonic() + seconds, then])

    def wait_for(self, what, test, seconds):
        """Heart beats go on until `test()`; the fixes wait (the rider stands still)."""
        self.expect(what, test, seconds)
        while self.expectations:
            self.tick()
            time.sleep(0.1)

    # -- the strap ---------------------------------------------------------------------------------

    def heart_beat(self):
        if not self.strap_ready:
            return
        i = self.notifications
        self.notifications += 1
        if i == 5:
            # The strap slipped: contact not detected. Neither the rate nor its interval is stored.
            self.strap.notify(measurement(61, contact=False, rr=[1000]))
            return
        bpm = BPMS[len(self.bpms) % len(BPMS)]
        rr = [round(60 / bpm * 1024)] * (2 if i % 4 == 0 else 1)
        self.strap.notify(measurement(bpm, wide=i % 10 == 3, energy=(i * 7) if i % 10 == 6 else None, rr=rr))
        self.bpms.append(bpm)
        self.rr += len(rr)

    def drop_strap(self):
        """The strap out of range for a few seconds while the ride goes on: the page shows the gap,
        reconnects by itself, and then says how long the gap was."""
        self.strap_ready = False
        made, subscribed = self.strap.connections, self.strap.subscriptions
        self.strap.drop(DROP_SECONDS)

        def dropped():
            snap(self.rider, "recorder-strap-dropped")
            # Back when the strap took a new connection and the page no longer says it dropped out
            # (until the next beat, it says how long heart rate has been missing).
            self.expect("the strap to reconnect by itself", lambda: self.strap.connections > made and self.strap.subscriptions > subscribed
                        and "dropped out" not in self.gap_line(), DROP_SECONDS + 25, back)

        def back():
            self.strap_ready = True
            self.next_heart = time.monotonic()
            self.expect("the page to say how long heart rate was missing", lambda: found_in(self.gap_line(), "Last gap in heart rate"), 10)

        self.expect("the page to show the strap dropped out", lambda: found_in(self.gap_line(), "the strap dropped out"), 10, dropped)

    def gap_line(self):
        return self.d.execute_script("const p = document.querySelector('[data-strap-gap]'); return p && !p.hidden ? p.textContent : '';")

    # -- the network and the tab -------------------------------------------------------------------

    def go_offline(self):
        devtools.offline(self.d, True)  # the page and its service worker (see e2e/devtools.py)
        self.expect("readings to wait while offline", lambda: self.waiting() >= 10, 30)

    def reload(self):
        """Mid-way, offline, the tab is reloaded: the page comes from the service worker and the
        recording goes on from IndexedDB. The rider stands still meanwhile, so every fix fed reaches a page."""
        self.wait_for("readings to wait while offline", lambda: self.waiting() >= 10, 30)
        snap(self.rider, "recorder-offline-waiting")
        before = self.recorder.state()
        self.strap_ready = False
        self.d.refresh()
        self.rider.wait.until(lambda d: d.execute_script("return document.readyState") == "complete")
        if self.rider.path != "/record" or not self.d.find_elements(By.CSS_SELECTOR, "[data-recorder]"):
            raise JourneyFailed(f"reloaded offline, /record should come from the service worker; the tab shows {self.rider.text[:300]!r}")
        self.strap.power_on()  # a navigation ends Chromium's Bluetooth emulation (see e2e/bidi.py)
        self.recorder.wait("the recording to resume after the reload", lambda s: s["state"] == "recording" and s["externalID"] == before["externalID"])
        # The same recording goes on: its clock and distance carry on from before the reload.
        shown = figure(self.d, "elapsed"), figure(self.d, "distance")
        if shown[0] in ("0:00", "–") or shown[1] in ("–", "0.00 km"):
            raise JourneyFailed(f"after the reload the recording should go on from where it was; it shows {shown}")
        self.recorder.strap_connected(self.strap, seconds=30)
        # The new page's watch may start with where the rider stands (if it came after the recording
        # was read back): a position of its own, at the same place.
        if self.recorder.state()["kept"]["locations"] == before["kept"]["locations"] + 1:
            self.stored.append(self.stored[-1])
        self.strap_ready = True
        if self.waiting() < before["pending"]:
            raise JourneyFailed(f"after the reload {self.waiting()} readings wait to be sent; before it {before['pending']} did")
        snap(self.rider, "recorder-resumed-offline")

    def go_online(self):
        # Back online, the first batch of what waited reaches the server but its answer is lost on
        # the way back (the tunnel's end): the page sends it again, and nothing may be stored twice.
        tools = devtools.tools(self.d)
        tools.arm(self.d, "/api/v1/samples")
        tools.offline(False)
        if tools.lose(self.d, 15) not in (200, 201):
            raise JourneyFailed("back online, the recorder should send what waited at once (no batch of samples came in 15 s)")
        # What waited goes within a batch or two, while the ride goes on; the failed requests of the
        # offline stretch and of the lost answer are the browser's console errors of that time.
        self.expect("the readings that waited to be sent", lambda: self.recorder.state()["pending"] < 15, 30,
                    lambda: drain_console(self.rider, ("net::ERR_INTERNET_DISCONNECTED", "net::ERR_CONNECTION_RESET")))

    def waiting(self):
        """The count the recorder shows as waiting (its “Offline: recording goes on, N readings wait”)."""
        line = self.recorder.queue_line()
        match = re.search(r"\d[\d,.\s]*", line)
        return int(re.sub(r"\D", "", match.group(0))) if match and found_in(line, "Offline") else 0

    # -- the coach ---------------------------------------------------------------------------------

    def look(self):
        """How many points the coach's live page holds, and how many its map draws."""
        self.coach_counts.append((round(time.monotonic() - self.started), self.coach_points(), self.coach.driver.execute_script(COUNT_DRAWN)))
        if self.coach_counts[-1][2] >= 15 and not self.coach_photographed:
            self.coach_photographed = True
            snap(self.coach, "live-page-riding")
            snap(self.rider, "recorder-riding")

    def coach_points(self):
        return self.coach.driver.execute_script(
            "return window.fieldhouseRecorder && window.fieldhouseRecorder.liveState ? window.fieldhouseRecorder.liveState().points : -1")

    def check_coach_got(self, samples, hidden):
        """The coach's browser got no point inside the zone nor inside the circle hidden round it, and
        every stored point outside that circle; it saw them arrive while the rider rode."""
        received = self.coach.driver.execute_script("return JSON.parse(sessionStorage.getItem('journey-live') || '[]')")
        (self.r.folder / "coach-events.json").write_text(json.dumps(received, indent=1))
        got = {}
        for entry in received:
            data = json.loads(entry["data"]) if entry["data"] else {}
            for point in data if isinstance(data, list) else data.get("points", []):
                got[int(point[2])] = (point[0], point[1])
        # How far outside the hidden circle a point lies (negative: inside); within a metre of its
        # edge the server's arithmetic and this one may differ, so such a point may go either way.
        def beyond(p):
            return metres(p, hidden[:2]) - hidden[2] if hidden else metres(p, self.zone) - 1050
        inside = [t for t, p in got.items() if metres(p, self.zone) < ZONE_RADIUS or (hidden and beyond(p) < -1)]
        if inside:
            raise JourneyFailed(f"{len(inside)} points inside the privacy zone reached the coach's browser, e.g. {[got[t] for t in inside[:3]]}")
        # Without the hidden circle, at least what lies beyond any circle that could hide home.
        visible = {t for t, p in samples.items() if beyond(p) > 1}
        unsure = {t for t, p in samples.items() if abs(beyond(p)) <= 1}
        if not visible <= set(got) or not set(got) <= set(samples):
            raise JourneyFailed(f"the coach's browser should get the {len(visible)} stored points outside the hidden circle; "
                                f"it got {len(got)}, {len(visible - set(got))} of them missing, {len(set(got) - set(samples))} never stored")
        if hidden and set(got) - visible - unsure:
            raise JourneyFailed(f"the coach's browser got {len(set(got) - visible - unsure)} points the hidden circle should have kept back")


# -- what was saved ------------------------------------------------------------------------------------

def check_saved(rider, workout_id, ride):
    # A token for checking, made as a person would in Settings → Devices; the recorder's own is listed.
    rider.visit("/settings/devices")
    rider.sees("Recorder · Chrome")
    rider.fill("Device name", "Journey check").press("Create token")
    token = rider.driver.find_element(By.ID, "token").get_attribute("value")

    workout = api(rider, token, f"/api/v1/workouts/{workout_id}")["workout"]
    fed_metres = sum(metres(a, b) for a, b in zip(ride.stored, ride.stored[1:]))
    if not workout.get("distance_m") or abs(workout["distance_m"] - fed_metres) > 0.02 * fed_metres:
        raise JourneyFailed(f"the workout's distance should be within 2 % of the {fed_metres:.0f} m ridden; it is {workout.get('distance_m')}")
    average = math.floor(sum(ride.bpms) / len(ride.bpms) + 0.5)
    if (workout.get("avg_hr"), workout.get("max_hr")) != (average, max(ride.bpms)):
        raise JourneyFailed(f"the workout's heart rate should average {average} and peak at {max(ride.bpms)} (as emitted); "
                            f"it says {workout.get('avg_hr')} and {workout.get('max_hr')}")
    if workout.get("sport") != "cycling" or workout.get("status") != "finished":
        raise JourneyFailed(f"the workout should be a finished ride: {workout}")
    day = api(rider, token, "/api/v1/workouts?since=2000-01-01T00:00:00Z")
    listed = day.get("workouts", day if isinstance(day, list) else [])
    if len(listed) != 1:
        raise JourneyFailed(f"the rider recorded one workout; the API lists {len(listed)}: {[w.get('id') for w in listed]}")
    streams = api(rider, token, f"/api/v1/workouts/{workout_id}/streams?keys=latlng,heartrate&resolution=full")
    locations = len(ride.stored)
    if len(streams.get("latlng") or []) != locations:
        raise JourneyFailed(f"the workout's track should hold the {locations} fixes fed; it holds {len(streams.get('latlng') or [])}")

    # Every raw sample, from the account export: as many as emitted, none twice.
    rider.visit("/settings/profile").follow("Export", within="nav.tabs")
    rider.press("Prepare my export")
    link = rider.wait_until("the export to be ready", lambda d: d.execute_script(
        "const a = [...document.querySelectorAll('main a')].find(a => a.textContent.includes(arguments[0])); return a ? a.href : null;",
        words("Download your export")), seconds=60)
    status, _, body = rider.fetch(link)
    if status != 200:
        raise JourneyFailed(f"downloading the export answered {status}")
    archive = zipfile.ZipFile(io.BytesIO(body))
    for table, wanted in (("heart_rate_samples", len(ride.bpms)), ("rr_intervals", ride.rr), ("location_samples", locations)):
        rows = list(csv.DictReader(io.StringIO(archive.read(f"samples/{table}.csv").decode())))
        times = [row["time"] for row in rows]
        if len(rows) != wanted or len(set(times)) != len(times):
            raise JourneyFailed(f"samples/{table}.csv should hold the {wanted} emitted, each once; it holds {len(rows)} ({len(set(times))} times)")
    rates = [int(row["bpm"]) for row in csv.DictReader(io.StringIO(archive.read("samples/heart_rate_samples.csv").decode()))]
    if rates != ride.bpms:
        raise JourneyFailed(f"the stored heart rates should be those emitted, in order: {rates[:12]} … against {ride.bpms[:12]} …")
    samples = {milliseconds(row["time"]): (float(row["lat"]), float(row["lon"]))
               for row in csv.DictReader(io.StringIO(archive.read("samples/location_samples.csv").decode()))}
    # The circle others' maps stop at, drawn when the zone was made (the rider's own data).
    zones = json.loads(archive.read("settings/privacy_zones.json"))
    zone = zones[0] if zones else {}
    hidden = tuple(zone[k] for k in ("hiddenLatitude", "hiddenLongitude", "hiddenRadius")) if zone.get("hiddenRadius") else None
    return samples, hidden


def milliseconds(text):
    return round(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def api(browser, token, path):
    request = urllib.request.Request(browser.base + path, headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise JourneyFailed(f"GET {path} with the device token answered {error.code}: {error.read()[:300]!r}")


# -- the decoder ---------------------------------------------------------------------------------------

def same_decoder(driver):
    cases = json.loads((FIXTURES / "heart-rate-measurements.json").read_text())["measurements"]
    read = driver.execute_script("""
        return arguments[0].map((c) => {
          const bytes = new Uint8Array((c.hex.match(/../g) || []).map((h) => parseInt(h, 16)));
          try {
            const m = window.fieldhouseRecorder.decodeHeartRate(new DataView(bytes.buffer));
            return {bpm: m.bpm, contact: m.contact, energy_kj: m.energy, rr_ms: m.rr};
          } catch (e) { return {error: e.code || String(e)}; }
        });""", cases)
    wrong = []
    for case, got in zip(cases, read):
        want = {"error": case["error"]} if "error" in case else {k: case[k] for k in ("bpm", "contact", "energy_kj", "rr_ms")}
        if got != want:
            wrong.append(f"{case['hex'] or '(empty)'} ({case['what']}): page read {got}, the fixture says {want}")
    if wrong:
        raise JourneyFailed("the page's heart-rate decoder disagrees with the server's payloads:\n" + "\n".join(wrong))


def measurement(bpm, wide=False, contact=True, energy=None, rr=()):
    """A Heart Rate Measurement (0x2A37) as a strap sends it; `rr` in 1/1024 s."""
    flags = (0x01 if wide else 0) | (0x06 if contact else 0x04) | (0x08 if energy is not None else 0) | (0x10 if rr else 0)
    out = [flags] + ([bpm & 0xFF, bpm >> 8] if wide else [bpm])
    if energy is not None:
        out += [energy & 0xFF, energy >> 8]
    for interval in rr:
        out += [interval & 0xFF, interval >> 8]
    return out


# -- the route -----------------------------------------------------------------------------------------

def route_fixes():
    """A stretch of a real run's track (Tests/Fixtures/gpx), thinned so fixes lie SPACING metres or
    more apart, ROUTE_LENGTH metres long at most."""
    text = ROUTE.read_text()
    points = [(float(a), float(b)) for a, b in re.findall(r'<trkpt lat="([-\d.]+)" lon="([-\d.]+)"', text)]
    out, length = [points[ROUTE_FROM]], 0.0
    for point in points[ROUTE_FROM + 1:]:
        step = metres(out[-1], point)
        if step >= SPACING:
            out.append(point)
            length += step
            if length >= ROUTE_LENGTH:
                break
    return out


def home_of(fixes):
    """Home, where the ride starts: 5 decimals, as typed in the form, with no fix within 2 m of the
    zone's edge (so rounding cannot decide what is inside)."""
    for fix in fixes[:10]:
        home = (round(fix[0], 5), round(fix[1], 5))
        if all(abs(metres(f, home) - ZONE_RADIUS) > 2 for f in fixes):
            return home
    raise JourneyFailed("no place for home at the route's start")


def metres(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b[1] - a[1]) / 2) ** 2
    return 2 * EARTH_RADIUS * math.asin(min(1, math.sqrt(h)))


def place(driver, fix):
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": fix[0], "longitude": fix[1], "accuracy": 5})


# -- small things --------------------------------------------------------------------------------------

def connected(status):
    """Whether the strap line says connected: by the strap's name, or (paired before a reload,
    when Chromium no longer gives the name) as “heart-rate strap”."""
    return found_in(status, "Connected to Fieldhouse Strap.") or found_in(status, "Connected to heart-rate strap.")


def figure(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f"[data-figure={name}]").text.strip()


def snap(browser, name):
    browser.run.step += 1
    browser.driver.save_screenshot(str(browser.run.folder / f"{browser.run.step:02d}-{browser.who}-{name}.png"))


def drain_console(browser, expected):
    """Takes the browser's console messages now, so the ones offline and the lost answer bring
    (failed requests) are not blamed on the next page; anything else severe is a finding."""
    for entry in browser.driver.get_log("browser"):
        message = entry.get("message", "")
        if entry.get("level") == "SEVERE" and not any(e in message for e in expected):
            browser.run.findings.append((f"{browser.path} (while offline)", "console error: " + message[:300]))


# The points the live page's own map draws (one M or L each), or its zoomable map holds (maps.js);
# -1 while the server's drawing stands.
COUNT_DRAWN = """
const zoomable = document.querySelector('[data-live-map] .map-live[data-track-points]');
if (zoomable) return Number(zoomable.dataset.trackPoints);
const paths = document.querySelectorAll('[data-live-map] svg.track-map path');
return paths.length ? (paths[paths.length - 1].getAttribute('d').match(/[ML]/g) || []).length : -1;
"""

# The coach's browser keeps every event its EventSource receives, and the points the live page
# arrived with, in sessionStorage (which outlives the page's reloads).
KEEP_EVENTS = """
(() => {
  const keep = (type, data) => {
    const all = JSON.parse(sessionStorage.getItem('journey-live') || '[]');
    all.push({type, data, at: Date.now()});
    sessionStorage.setItem('journey-live', JSON.stringify(all));
  };
  const Original = window.EventSource;
  if (Original) {
    const Kept = function (url, options) {
      const source = new Original(url, options);
      ['state', 'update', 'end'].forEach((type) => source.addEventListener(type, (event) => keep(type, event.data)));
      return source;
    };
    Kept.prototype = Original.prototype;
    ['CONNECTING', 'OPEN', 'CLOSED'].forEach((name) => { Kept[name] = Original[name]; });
    window.EventSource = Kept;
  }
  document.addEventListener('DOMContentLoaded', () => {
    const root = document.querySelector('[data-live]');
    if (root) keep('page', root.dataset.points || '[]');
  });
})();
"""


run.sizes = sizes
