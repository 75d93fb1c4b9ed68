"""An account from start to end: a new person signs up, fills in their profile (with JavaScript off),
sets a privacy zone, downloads their data, and deletes the account, after which they are signed out
everywhere and cannot sign in again."""

import io
import json
import zipfile

from browser import JourneyFailed
from words import found_in, words

PASSWORD = "three green bicycles"


def run(r):
    username = r.unique("newbie")
    name = f"Robin {r.unique('Quill')}"
    email = f"{username}@example.org"

    # Sign up through the form; a password that is too short is sent back with its reason beside it.
    robin = r.person()
    robin.visit("/").follow("Join")
    robin.sees("Create your account")
    robin.fill("Your name", name).fill("Username", username).fill("Email", email)
    robin.fill("Date of birth", "1994-05-17").fill("Password", "short")
    robin.press("Create account")
    robin.sees("Some answers need another look")
    error = robin.error_beside("Password")
    if not found_in(error, "at least 10 characters"):
        raise JourneyFailed(f"a short password should be explained beside the Password field; beside it: {error!r}")
    if robin.field("Username").get_attribute("value") != username:
        raise JourneyFailed("the sign-up form should keep what was typed when it asks again")
    robin.fill("Password", PASSWORD)
    robin.press("Create account")
    robin.sees(f"Welcome to Fieldhouse, {name}! Tell people a little about yourself.", "Your profile")
    robin.who = username

    # The profile form, from a browser without JavaScript: a wrong height is marked beside the field.
    plain = r.person(javascript=False)
    plain.sign_in(username, PASSWORD)
    plain.visit("/settings/profile")
    new_name = f"Robin Quill {r.unique('')}"
    bio = "Weekend runner, five-a-side on Tuesdays, learning to swim."
    plain.fill("Name", new_name).fill("Bio", bio).fill("Height (cm, optional)", "tall").fill("Weight (kg, optional)", "68")
    plain.fill("Place name", "Nørrebro")
    plain.press("Save profile")
    plain.sees("Some answers need another look")
    error = plain.error_beside("Height (cm, optional)")
    if not found_in(error, "as a number"):
        raise JourneyFailed(f"a height that is not a number should be explained beside the field; beside it: {error!r}")
    if plain.field("Bio").get_attribute("value") != bio:
        raise JourneyFailed("the profile form should keep the bio when it asks again")
    plain.fill("Height (cm, optional)", "172")
    plain.press("Save profile")
    # The home area typed by name is looked up (a place or a team's ground, else a town), and the
    # page says what it was taken to be.
    plain.sees("Your profile is saved.")
    if "Nørrebro" not in plain.driver.find_element("css selector", "p.flash").text:
        raise JourneyFailed(f"saving should say which place the home area was found to be: {plain.text[:300]!r}")
    plain.from_menu("My profile")
    plain.sees(new_name, f"@{username}", bio, "Nørrebro")

    # The first browser (with JavaScript) sees the new profile too.
    robin.visit("/")
    robin.from_menu("My profile")
    robin.sees(new_name, f"@{username}", bio, "Nørrebro")

    # A privacy zone around home, listed once added.
    robin.follow("Edit profile")
    # (On the way: Settings → Devices leads to how a device sends data, the API page with examples.)
    robin.follow("Devices", within="nav.tabs")
    robin.follow("How a device sends data: the API, with examples")
    robin.sees("The device API", "Getting started", "POST /api/v1/workouts", "Authorization: Bearer $FIELDHOUSE_TOKEN")
    robin.visit("/settings/profile")
    robin.follow("Privacy zones", within="nav.tabs")
    zone = f"Home {r.unique('')}"
    robin.fill("Name", zone).fill("Latitude", "55.69310").fill("Longitude", "12.55080").fill("Radius", "300 m")
    robin.press("Add zone")
    robin.sees(f"Added the zone “{zone}”")
    rows = [row.text for row in robin.driver.find_elements("css selector", "table tbody tr")]
    if not any(zone in row and "300 m" in row for row in rows):
        raise JourneyFailed(f"the privacy zone {zone} (300 m) should be listed; the rows are {rows}")

    # Export: prepared in the background, then downloaded with the session's cookie.
    robin.follow("Export", within="nav.tabs")
    robin.press("Prepare my export")
    robin.sees("Your export is being prepared")
    robin.wait_until("the export to be ready (the page reloads itself)", lambda d: _download_link(d), seconds=60)
    robin.landed("export ready")
    robin.sees("Download your export")
    status, headers, body = robin.fetch(_download_link(robin.driver))
    if status != 200:
        raise JourneyFailed(f"downloading the export answered {status}")
    if username not in headers.get("content-disposition", ""):
        raise JourneyFailed(f"the export should download as a file named for {username}; it is {headers.get('content-disposition')!r}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(body))
    except zipfile.BadZipFile:
        raise JourneyFailed(f"the export is not a ZIP file ({len(body)} bytes, starting {body[:20]!r})")
    names = archive.namelist()
    if "profile.json" not in names:
        raise JourneyFailed(f"the export should hold profile.json; it holds {names}")
    profile = json.loads(archive.read("profile.json"))
    for key, wanted in (("username", username), ("displayName", new_name), ("email", email), ("bio", bio)):
        if profile.get(key) != wanted:
            raise JourneyFailed(f"the export's profile.json should say {key} {wanted!r}, not {profile.get(key)!r}")
    zones = archive.read("settings/privacy_zones.json").decode() if "settings/privacy_zones.json" in names else ""
    if zone not in zones:
        raise JourneyFailed(f"the export's settings/privacy_zones.json should hold the zone {zone}; it holds {zones[:300]!r} (files: {names})")

    # Delete the account: the page asks for the username and the password; a wrong username is refused.
    robin.follow("Delete account", within="nav.tabs")
    robin.sees("Delete your account", "there is no undo")
    robin.fill("Type your username", "someone_else").fill("Your password", PASSWORD)
    robin.press("Delete my account")
    robin.sees("Your account is not deleted")
    error = robin.error_beside("Type your username")
    if not found_in(error, f"Type your username, {username}, exactly."):
        raise JourneyFailed(f"a wrong username should be explained beside the field; beside it: {error!r}")
    robin.fill("Type your username", username).fill("Your password", PASSWORD)
    robin.press("Delete my account")
    robin.sees("Your account and everything in it are deleted")
    robin.sees("Sign in").does_not_see(new_name)

    # Signed out here and in the other browser, the profile gone, and the old password opens nothing.
    robin.visit("/settings/profile")
    if robin.path != "/login":
        raise JourneyFailed(f"after deleting the account, settings should ask to sign in; the page is {robin.path}")
    plain.visit("/settings/profile")
    if plain.path != "/login":
        raise JourneyFailed(f"the other browser's session should end with the account; it is on {plain.path}")
    robin.visit(f"/u/{username}")
    robin.sees("Page not found").does_not_see(new_name, bio)
    robin.visit("/login").fill("login", username).fill("password", PASSWORD)
    robin.press("Sign in", within="main")
    if robin.path != "/login":
        raise JourneyFailed(f"a deleted account must not sign in; {username} got to {robin.path}")
    robin.sees("do not match")


def _download_link(driver):
    # The page reloads itself every few seconds while the export is made, so ask the page in one go.
    return driver.execute_script(
        "const a = [...document.querySelectorAll('main a')].find(a => a.textContent.includes(arguments[0]));"
        "return a ? a.href : null;", words("Download your export"))
