"""A person in a browser: one headless Chromium per person, driven through chromium-driver.

Every page a journey lands on is checked (see checks.js and `Browser.check`) and photographed, so a
journey's failures name the page and the finding, and its screenshots can be looked through in order.
"""

import json
import os
import re
import time
import urllib.parse
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from words import BROWSER_LANGUAGE, found_in, starts, words

CHECKS = (Path(__file__).parent / "checks.js").read_text()
# axe-core, the accessibility engine most audits use; scripts/e2e.sh takes it from the newest
# axe-selenium-python on PyPI (E2E_AXE names the file). Serious and critical findings fail a journey.
# E2E_AXE=off skips it (make cluster-check: the same pages, already checked by make e2e).
AXE_OFF = os.environ.get("E2E_AXE") == "off"
AXE_FILE = Path(os.environ.get("E2E_AXE") or Path(__file__).resolve().parent.parent / ".build" / "axe" / "axe.min.js")
AXE = AXE_FILE.read_text() if not AXE_OFF and AXE_FILE.exists() else None
AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (r) => done(r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map(
    (v) => `axe ${v.impact}: ${v.id} (${v.help}) at ${v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join(", ")}`)),
  (e) => done([`axe could not run: ${e}`]));
"""
DEMO_PASSWORD = "fieldhouse-demo"
NEW_PASSWORD = "journey-password-123"  # of the people journeys sign up
FIXTURES = Path(__file__).resolve().parent.parent / "Tests" / "Fixtures"

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


class JourneyFailed(AssertionError):
    pass


class Run:
    """What one journey at one window size shares: the server, the output folder, the findings."""

    def __init__(self, base, out, journey, size, stamp):
        self.base = base.rstrip("/")
        self.journey = journey
        self.size = size
        self.stamp = stamp  # makes names unique per run, so both sizes can use one server
        self.folder = Path(out) / journey / size
        self.folder.mkdir(parents=True, exist_ok=True)
        self.step = 0
        self.findings = []  # (page, finding)
        self.axed = set()  # (person, page address) axe has looked at
        self.browsers = []

    def person(self, username=None, javascript=True, sensors=False, base=None):
        """A new browser window; signed in as `username` (a demo person or one the journey made).
        `sensors`: a browser whose Bluetooth can be emulated (see Browser); `base`: another address
        of the same site (one app process of `make cluster`) for this browser alone."""
        browser = Browser(self, username or "visitor", javascript, sensors, base)
        self.browsers.append(browser)
        if username:
            browser.sign_in(username)
        return browser

    def newcomer(self, name, username, javascript=True, born="1990-04-12", sensors=False, base=None):
        """A new person who joins through the sign-up form as anyone would; returns their browser, signed in."""
        b = self.person(javascript=javascript, sensors=sensors, base=base)
        b.who = username
        b.visit("/").follow("Join", within="header")
        b.fill("Your name", name).fill("Username", username).fill("Email", f"{username}@example.com")
        b.fill("Date of birth", born).fill("Password", NEW_PASSWORD)
        b.press("Create account")
        b.sees(f"Welcome to Fieldhouse, {name}! Tell people a little about yourself.")
        return b

    def unique(self, word):
        return f"{word}{self.stamp}{self.size[0]}"

    def close(self):
        for browser in self.browsers:
            browser.quit()
        self.browsers = []


class Browser:
    def __init__(self, run, who, javascript=True, sensors=False, base=None):
        self.run = run
        self.who = who
        self.base = (base or run.base).rstrip("/")
        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--force-device-scale-factor=1", f"--lang={BROWSER_LANGUAGE}"]:
            options.add_argument(argument)
        if sensors:
            # Web Bluetooth on Linux (navigator.bluetooth is undefined without the first), pairings a
            # page finds again after a reload (getDevices), and WebDriver BiDi for e2e/bidi.py's strap.
            options.add_argument("--enable-experimental-web-platform-features")
            options.add_argument("--enable-features=WebBluetoothNewPermissionsBackend")
            options.set_capability("webSocketUrl", True)
        prefs = {"intl.accept_languages": BROWSER_LANGUAGE}
        if not javascript:
            prefs["profile.managed_default_content_settings.javascript"] = 2
        options.add_experimental_option("prefs", prefs)
        options.binary_location = os.environ.get("FIELDHOUSE_CHROMIUM", "/usr/bin/chromium")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(os.environ.get("FIELDHOUSE_CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(options=options, service=service)
        width, height = SIZES[run.size]
        self.driver.set_window_size(width, height)
        # Headless Chromium still takes some of the window for its own frame: grow the window until the
        # page itself gets the size a person's screen would give it.
        inner_width, inner_height = self.driver.execute_script("return [window.innerWidth, window.innerHeight]")
        if (inner_width, inner_height) != (width, height):
            self.driver.set_window_size(2 * width - inner_width, 2 * height - inner_height)
        self.javascript = javascript
        self.wait = WebDriverWait(self.driver, 15)

    # -- moving around -------------------------------------------------------------------------

    def visit(self, path):
        self.driver.get(self.base + path if path.startswith("/") else path)
        return self.landed(f"open {path}")

    def landed(self, what):
        """After any navigation: wait for the page, run every check, save a screenshot."""
        self.wait.until(lambda d: d.execute_script("return document.readyState") == "complete")
        self.run.step += 1
        name = f"{self.run.step:02d}-{self.who}-{re.sub(r'[^a-z0-9]+', '-', what.lower()).strip('-')[:50]}.png"
        self.driver.save_screenshot(str(self.run.folder / name))
        self.check(what)
        return self

    @property
    def path(self):
        return urllib.parse.urlsplit(self.driver.current_url).path

    @property
    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def sees(self, *words):
        text = self.text
        for word in words:
            if not found_in(text, word):
                raise JourneyFailed(f"{self.who} expected to see {word!r} on {self.path}; the page says: {text[:600]!r}")
        return self

    def does_not_see(self, *words):
        text = self.text
        for word in words:
            if found_in(text, word):
                raise JourneyFailed(f"{self.who} must not see {word!r} on {self.path}")
        return self

    def sees_in_time(self, words, seconds=90, within=None):
        """Reloads the page until `words` show (in `within`, a css selector, if given): for what a
        background job brings, like a badge. Fails after `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            scope = self.driver.find_elements(By.CSS_SELECTOR, within or "body")
            if any(found_in(element.text, words) for element in scope):
                return self.landed(f"sees {words}")
            if time.monotonic() > deadline:
                raise JourneyFailed(f"{self.who} waited {seconds} s for {words!r} on {self.path}; the page says: {self.text[:600]!r}")
            time.sleep(5)
            self.driver.refresh()
            self.wait.until(lambda d: d.execute_script("return document.readyState") == "complete")

    def watch_uploads(self):
        """Before pressing an upload form's button: notes (in sessionStorage, which outlives the page
        the upload replaces) how far every progress bar on the page got and whether it was shown."""
        self.driver.execute_script(
            """sessionStorage.removeItem('fh-progress');
               document.querySelectorAll('progress').forEach(function (bar) {
                 new MutationObserver(function () {
                   var seen = JSON.parse(sessionStorage.getItem('fh-progress') || '{"shown": false, "value": 0}');
                   seen.shown = seen.shown || !bar.hidden;
                   seen.value = Math.max(seen.value, Number(bar.value));
                   seen.max = Number(bar.max);
                   sessionStorage.setItem('fh-progress', JSON.stringify(seen));
                 }).observe(bar, {attributes: true});
               });""")
        return self

    def upload_progress(self):
        """What `watch_uploads` saw: {'shown': bool, 'value': number, 'max': number}, or None."""
        seen = self.driver.execute_script("return sessionStorage.getItem('fh-progress')")
        return json.loads(seen) if seen else None

    # -- forms ---------------------------------------------------------------------------------

    def field(self, label):
        """A form field found the way a person finds it: by its label's text (or its name as a fallback)."""
        d = self.driver
        for label_element in d.find_elements(By.TAG_NAME, "label"):
            if starts(label_element.text, label) and label_element.is_displayed():
                target = label_element.get_attribute("for")
                if target:
                    return d.find_element(By.ID, target)
                inner = label_element.find_elements(By.CSS_SELECTOR, "input, select, textarea")
                if inner:
                    return inner[0]
        # A field's name ("home_lat") for one without a label of its own; never a label's words,
        # which must be found as a person reads them (in the page's language).
        found = d.find_elements(By.NAME, label) if re.fullmatch(r"[a-z_\[\]]+", label) else []
        if found:
            return found[0]
        raise JourneyFailed(f"no field labelled {label!r} (in the page's words: {words(label)!r}) on {self.path}")

    def fill(self, label, value):
        element = self.field(label)
        if element.tag_name == "select":
            options = element.find_elements(By.TAG_NAME, "option")
            for option in options:
                if option.text.strip() in (value, words(value)) or option.get_attribute("value") == value:
                    option.click()
                    return self
            raise JourneyFailed(f"{label!r} on {self.path} has no option {value!r}")
        kind = element.get_attribute("type")
        if kind in ("checkbox", "radio"):
            if element.is_selected() != bool(value):
                self.driver.execute_script("arguments[0].click()", element)
            return self
        if kind in ("date", "time", "datetime-local"):
            # Chromium's date widgets take typed digits in the locale's order; set the value as a person's picker would.
            self.driver.execute_script(
                "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));"
                "arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", element, value)
            return self
        element.clear()
        element.send_keys(value)
        return self

    def choose_file(self, label, path):
        self.field(label).send_keys(str(path))
        return self

    def press(self, words, within=None, in_place=False):
        """Clicks the button (or submit input) whose text starts with `words`, then checks the page it
        leads to; `in_place`: a button a script answers on the same page (no new page to wait for)."""
        scope = self.driver.find_element(By.CSS_SELECTOR, within) if within else self.driver
        for element in scope.find_elements(By.CSS_SELECTOR, "button, input[type=submit]"):
            text = (element.text or element.get_attribute("value") or "").strip()
            if starts(text, words) and element.is_displayed():
                self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
                old = self.driver.find_element(By.TAG_NAME, "html")
                element.click()
                try:
                    if not in_place:
                        WebDriverWait(self.driver, 15).until(EC.staleness_of(old))
                except TimeoutException:
                    pass  # a button that changes the page in place
                except WebDriverException as error:
                    # Chromium at times answers this way, not "stale", about a node of a page that is gone.
                    if "does not belong to the document" not in str(error):
                        raise
                return self.landed(f"press {words}")
        raise JourneyFailed(f"{self.who} found no button {words!r} on {self.path}")

    def unfold(self, words):
        """Opens the folded section (a <details>) whose summary starts with `words`, as a person taps it."""
        for summary in self.driver.find_elements(By.TAG_NAME, "summary"):
            if starts(summary.text, words) and summary.is_displayed():
                if summary.find_element(By.XPATH, "..").get_attribute("open") is None:
                    summary.click()
                return self
        raise JourneyFailed(f"{self.who} found nothing folded under {words!r} on {self.path}")

    def follow(self, words, within=None):
        """Clicks the link whose text contains `words`."""
        scope = self.driver.find_element(By.CSS_SELECTOR, within) if within else self.driver
        for element in scope.find_elements(By.TAG_NAME, "a"):
            if found_in(element.text, words) or found_in(element.text.lower(), words.lower()):
                if not element.is_displayed():
                    continue
                self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
                element.click()
                return self.landed(f"follow {words}")
        raise JourneyFailed(f"{self.who} found no link {words!r} on {self.path}")

    def link(self, words, within=None):
        scope = self.driver.find_element(By.CSS_SELECTOR, within) if within else self.driver
        for element in scope.find_elements(By.TAG_NAME, "a"):
            if found_in(element.text, words) or found_in(element.text.lower(), words.lower()):
                return element.get_attribute("href")
        raise JourneyFailed(f"{self.who} found no link {words!r} on {self.path}")

    def error_beside(self, field_label):
        """The error message shown with a field, found through aria-describedby as a screen reader would."""
        element = self.field(field_label)
        ids = (element.get_attribute("aria-describedby") or "").split()
        texts = [self.driver.find_element(By.ID, i).text for i in ids if self.driver.find_elements(By.ID, i)]
        return " ".join(texts)

    # -- waiting, pictures, downloads (learn, account) ----------------------------------------

    def wait_until(self, what, test, seconds=15):
        """Waits until `test(driver)` is truthy (say, for what a script puts on the page); fails naming `what`."""
        try:
            return WebDriverWait(self.driver, seconds, poll_frequency=0.3).until(lambda d: test(d))
        except TimeoutException:
            raise JourneyFailed(f"{self.who} waited {seconds} s on {self.path} for {what}; the page says: {self.text[:400]!r}")

    def images(self, within="main"):
        """The pictures shown in `within`, as a person meets them: alt text, address and whether it loaded (naturalWidth)."""
        return self.driver.execute_script(
            """return [...document.querySelectorAll(arguments[0] + ' img')].map(i => ({
                 alt: i.getAttribute('alt'), src: i.getAttribute('src'), width: i.naturalWidth, complete: i.complete}));""",
            within)

    def fetch(self, url):
        """GETs `url` outside the page with this browser's cookies (a download the browser would save):
        (status, headers with lower-case names, bytes)."""
        import urllib.error
        import urllib.request
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in self.driver.get_cookies())
        request = urllib.request.Request(urllib.parse.urljoin(self.base + "/", url), headers={"Cookie": cookie})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
        except urllib.error.HTTPError as error:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()

    # -- people --------------------------------------------------------------------------------

    def sign_in(self, username, password=DEMO_PASSWORD):
        self.who = username
        self.visit("/login")
        self.fill("login", username).fill("password", password)
        self.press("Sign in", within="main")
        if self.path == "/login":
            raise JourneyFailed(f"{username} could not sign in: {self.text[:300]!r}")
        return self

    def from_menu(self, words):
        """Opens the signed-in person's menu in the header (their name), then follows one of its links."""
        summary = self.driver.find_element(By.CSS_SELECTOR, "details.user-menu summary")
        if not summary.find_element(By.XPATH, "..").get_attribute("open"):
            summary.click()
        return self.follow(words, within="details.user-menu")

    def sign_out(self):
        self.press("Sign out")
        return self

    # -- checks --------------------------------------------------------------------------------

    def check(self, what):
        page = f"{self.path} ({what})"
        findings = self.driver.execute_script(CHECKS) if self.javascript else []
        if self.javascript:
            findings += self.focus_findings()
            findings += self.axe_findings()
        # Chromium logs the page's own 4xx status as a failed resource; a form sent back with its
        # errors (422), a refused sign-in (401) or a gone page (404) is the app answering rightly.
        own_status = self.driver.current_url + " - Failed to load resource: the server responded with a status of 4"
        for entry in self.driver.get_log("browser"):
            message = entry.get("message", "")
            if entry.get("level") == "SEVERE" and not message.startswith(own_status):
                findings.append("console error: " + message[:300])
        status = self.driver.execute_script(
            "const e = performance.getEntriesByType('navigation')[0]; return e ? e.responseStatus : 0") if self.javascript else 0
        if status and status >= 500:
            findings.append(f"server answered {status}")
        for finding in findings:
            self.run.findings.append((page, finding))

    def axe_findings(self):
        """axe-core's serious and critical findings, once per page address and person in a run (a
        page's later states are the same template; axe takes about a second a page)."""
        if AXE_OFF:
            return []
        if AXE is None:
            return ["axe-core is missing: run scripts/e2e.sh, which fetches it"]
        key = (self.who, re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27}|[0-9]+", "N", self.path))
        if key in self.run.axed:
            return []
        self.run.axed.add(key)
        d = self.driver
        if not d.execute_script("return typeof window.axe === 'object'"):
            d.execute_script(AXE)
        d.set_script_timeout(30)
        return d.execute_async_script(AXE_RUN)

    def focus_findings(self):
        """Tabs through the first few controls; each must show where the focus is."""
        d = self.driver
        d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        findings = []
        for _ in range(4):
            ActionChains(d).send_keys(Keys.TAB).perform()
            shown = d.execute_script(
                """const e = document.activeElement; if (!e || e === document.body) return null;
                   const s = getComputedStyle(e);
                   return [e.tagName + ' ' + (e.textContent || e.name || '').trim().slice(0, 30),
                           (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none'];""")
            if shown and not shown[1]:
                findings.append(f"no visible focus on {shown[0]}")
                break
        d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        return findings

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass
