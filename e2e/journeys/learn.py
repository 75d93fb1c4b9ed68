"""Learn (issue 23): an editor writes an article with a link and a picture, previews it, publishes
it; a reader finds it by search and opens it, and sees the link and the picture.

Articles take pictures only from this site's own addresses (`LearnRendering`: a picture from another
site becomes a link), and the Learn editor has no upload of its own; the pictures anyone may see
on the site are places' photos. So the editor first photographs a place he manages (Maya, an admin,
adds a place for the journey and names him its manager), then writes the article around that photo.
"""

from browser import FIXTURES, JourneyFailed

LINK_WORDS = "the warm-up guide"
LINK_URL = "https://www.example.org/warm-up"


def run(r):
    word = r.unique("kestrel")  # one search word no other article has
    place = f"Warm-up lawn {r.unique('')}"
    picture_alt = f"Runners stretching on the {place}"

    # Maya (admin) adds a place and names Omar, the editor, one of its managers.
    maya = r.person("maya")
    maya.visit("/places").follow("Add a place")
    maya.fill("Name", place).fill("Kind", "Park").fill("Latitude", "55.6880").fill("Longitude", "12.5650")
    maya.fill("Managers' usernames", "omar")
    maya.press("Add the place")
    maya.sees(place)
    place_path = maya.path
    if not place_path.startswith("/places/"):
        raise JourneyFailed(f"adding a place should open it; Maya is on {place_path}")

    # Being named a manager is an invitation: Omar says yes on the place's page, then photographs
    # the place (a real JPEG from the fixtures).
    omar = r.person("omar")
    omar.visit(place_path).sees(place, "You were asked to help manage this place")
    omar.press("Accept")
    omar.sees("You now help manage this place", "Add a photo")
    omar.choose_file("Add a photo", FIXTURES / "photos" / "r_canon.jpg")
    omar.press("Add the photo")
    omar.sees("Photo added.")
    omar.wait_until("the place's photo to load", lambda d: any(i["width"] > 0 for i in omar.images("main")))
    photo = omar.driver.execute_script(
        "const i = document.querySelector('.place-photos img'); return i && i.closest('a').getAttribute('href');")
    if not photo or not photo.startswith("/photos/"):
        raise JourneyFailed(f"the place page should link its photo at /photos/…; the link is {photo!r}")

    # Omar writes the article with a link and the picture; the preview follows the text as he types.
    omar.visit("/learn").sees("Editor's desk").follow("Write an article")
    omar.sees("New article")
    title = f"Warming up on grass ({word})"
    omar.fill("Title", title)
    omar.fill("Category", "Warm-up and mobility")
    omar.fill("Summary", f"A short routine for a lawn before a run or a game; search word {word}.")
    omar.fill("Text", (
        "## Before you start\n\n"
        f"Read [{LINK_WORDS}]({LINK_URL}) first, then find a flat patch of grass.\n\n"
        f"![{picture_alt}]({photo})\n\n"
        "## The routine\n\n- Jog for five minutes\n- Swing your legs\n- Three short sprints\n"))
    omar.wait_until("the live preview to show the link and the picture", lambda d: d.execute_script(
        "const p = document.querySelector('[data-preview-target]');"
        "return p && p.querySelector('a[href=\"" + LINK_URL + "\"]') && p.querySelector('img');"))
    omar.landed("live preview shows the article")
    _sees_link_and_picture(omar, "[data-preview-target]", photo, picture_alt, "the live preview")
    omar.press("Save draft")
    omar.sees("Draft saved")
    edit_path = omar.path
    if not edit_path.endswith("/edit"):
        raise JourneyFailed(f"saving a draft should stay in the editor; Omar is on {edit_path}")

    # Without JavaScript the Preview button asks the server for the same preview, and Publish posts the form.
    plain = r.person(javascript=False)
    plain.sign_in("omar")
    plain.visit(edit_path).sees("Edit article", "Draft")
    plain.press("Preview")
    plain.sees(LINK_WORDS)
    _sees_link_and_picture(plain, "[data-preview-target]", photo, picture_alt, "the preview without JavaScript")
    plain.press("Publish")
    plain.sees("Published. Everyone can read it now.", title)
    article_path = plain.path
    if not article_path.startswith("/learn/") or article_path.endswith("/edit"):
        raise JourneyFailed(f"publishing should open the article; Omar is on {article_path}")

    # Priya finds it by searching the library and opens it.
    priya = r.person("priya")
    priya.visit("/learn")
    priya.fill("Search the articles", word)
    priya.press("Search")
    priya.sees("1 result", title)
    priya.follow(title)
    if priya.path != article_path:
        raise JourneyFailed(f"the search result should open {article_path}; Priya is on {priya.path}")
    priya.sees(title, LINK_WORDS, "by Omar Haddad")
    _sees_link_and_picture(priya, ".learn-article", photo, picture_alt, "the article")

    # Someone not signed in sees the picture too (place photos are public; the page may come from the cache).
    visitor = r.person()
    visitor.visit(article_path).sees(title, LINK_WORDS)
    _sees_link_and_picture(visitor, ".learn-article", photo, picture_alt, "the article, signed out")


def _sees_link_and_picture(browser, within, photo, alt, where):
    """The article's link (to the right address) and its picture (with alt text, loaded: naturalWidth > 0).
    Read through WebDriver, which works whether or not the page may run its own scripts."""
    links = browser.driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' a')].map(a => [a.textContent.trim(), a.getAttribute('href')]);", within)
    if [LINK_WORDS, LINK_URL] not in links:
        raise JourneyFailed(f"{where} should link “{LINK_WORDS}” to {LINK_URL}; its links are {links}")
    browser.wait_until(f"the picture in {where} to load", lambda d: any(i["src"] == photo and i["complete"] for i in browser.images(within)))
    pictures = [i for i in browser.images(within) if i["src"] == photo]
    if not pictures:
        raise JourneyFailed(f"{where} should show the picture {photo}; it shows {browser.images(within)}")
    if pictures[0]["alt"] != alt:
        raise JourneyFailed(f"the picture in {where} should have the alt text {alt!r}, not {pictures[0]['alt']!r}")
    if not pictures[0]["width"] > 0:
        raise JourneyFailed(f"the picture in {where} did not load (naturalWidth {pictures[0]['width']})")
