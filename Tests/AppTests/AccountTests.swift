@testable import App
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Signing up, signing in and out")
struct AccountTests {
    @Test func signUpCreatesTheAccountAndSignsIn() async throws {
        try await withApp { app in
            let browser = app.browser()
            let page = try await browser.signUp("ada_l", name: "Ada Lovelace")
            #expect(page.location == "/settings/profile")
            let home = try await browser.get("/")
            #expect(home.status == .ok)
            #expect(home.contains("Hi, Ada"))
            #expect(home.contains("Sign out"))
            let user = try #require(try await User.query(on: app.db).filter(\.$username == "ada_l").first())
            #expect(user.passwordHash != Browser.password)
            #expect(user.passwordHash.hasPrefix("$2"))
            #expect(user.timeZone == "UTC", "a form without a zone (no browser to ask) keeps UTC")
            // The profile form shows UTC chosen (it once showed the list's first zone, Africa/Abidjan, and saved that).
            #expect(try await browser.get("/settings/profile").contains("<option selected>UTC</option>"))
        }
    }

    /// The sign-up form offers the zones with UTC chosen, which app.js changes to the browser's;
    /// the chosen zone is the account's, and one not in the list is refused beside its field.
    @Test func signUpTakesTheBrowsersTimeZone() async throws {
        try await withApp { app in
            let browser = app.browser()
            let form = try await browser.get("/signup")
            #expect(form.contains(#"<select id="time_zone" name="time_zone" data-browser-zone"#) && form.contains("<option selected>UTC</option>"))
            let fields = [
                ("username", "lisboa"), ("email", "l@example.org"), ("password", Browser.password), ("display_name", "Lia"),
                ("birth_date", "1995-02-03"),
            ]
            let mars = try await browser.post("/signup", fields + [("time_zone", "Mars/Olympus")], csrfFrom: "/signup")
            #expect(mars.status == .unprocessableEntity && mars.contains(#"id="time_zone-error""#) && mars.contains("Choose your time zone from the list"))
            #expect(try await browser.post("/signup", fields + [("time_zone", "Europe/Lisbon")], csrfFrom: "/signup").status == .seeOther)
            let user = try #require(try await User.query(on: app.db).filter(\.$username == "lisboa").first())
            #expect(user.timeZone == "Europe/Lisbon")
            #expect(try await browser.get("/settings/profile").contains("<option selected>Europe/Lisbon</option>"))
        }
    }

    @Test func signUpExplainsEveryProblemAndKeepsTheInput() async throws {
        try await withApp { app in
            let browser = app.browser()
            let empty = try await browser.post(
                "/signup",
                [
                    ("username", ""), ("email", ""), ("password", ""), ("display_name", ""), ("birth_date", ""),
                ], csrfFrom: "/signup")
            #expect(empty.status == .unprocessableEntity)
            for message in ["Choose a username", "Enter your email address", "Choose a password", "Enter your name", "Enter your date of birth"] {
                #expect(empty.contains(message), "missing message: \(message)")
            }

            let bad = try await browser.post(
                "/signup",
                [
                    ("username", "No Spaces!"), ("email", "not-an-email"), ("password", "short"),
                    ("display_name", "Kept Name"), ("birth_date", "2999-01-01"),
                ], csrfFrom: "/signup")
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.contains("Use 3 to 30 characters: lower-case letters, digits and _"))
            #expect(bad.contains("Enter an email address like name@example.com"))
            #expect(bad.contains("Use at least 10 characters for your password"))
            #expect(bad.contains("Your date of birth cannot be in the future"))
            #expect(bad.contains("value=\"Kept Name\""))
            #expect(!bad.contains("value=\"short\""), "a password must never be echoed back")

            let old = try await browser.post(
                "/signup",
                [
                    ("username", "oldtimer"), ("email", "o@example.org"), ("password", Browser.password),
                    ("display_name", "Old"), ("birth_date", "1899-12-31"),
                ], csrfFrom: "/signup")
            #expect(old.status == .unprocessableEntity)
            #expect(old.contains("Enter a date of birth after 1900"))
            #expect(try await User.query(on: app.db).count() == 0)
        }
    }

    @Test func usernamesAreUniqueWhateverTheCase() async throws {
        try await withApp { app in
            try await app.browser().signUp("sam_k")
            let other = app.browser()
            let page = try await other.post(
                "/signup",
                [
                    ("username", "SAM_K"), ("email", "another@example.org"), ("password", Browser.password),
                    ("display_name", "Another Sam"), ("birth_date", "1991-01-01"),
                ], csrfFrom: "/signup")
            #expect(page.status == .unprocessableEntity)
            #expect(page.contains("That username is taken"))
            let emailAgain = try await other.post(
                "/signup",
                [
                    ("username", "sam_two"), ("email", "SAM_K@example.org"), ("password", Browser.password),
                    ("display_name", "Another Sam"), ("birth_date", "1991-01-01"),
                ], csrfFrom: "/signup")
            // Issue 41, scenario 6: the answer is a new account's, whether or not the address has one;
            // the new account cannot use the address (it gets a stand-in nobody mails).
            #expect(emailAgain.status == .seeOther && emailAgain.location == "/settings/profile")
            #expect(!emailAgain.contains("already exists"))
            let second = try #require(try await User.query(on: app.db).filter(\.$username == "sam_two").first())
            #expect(second.email.hasSuffix("@address.invalid") && second.addressTaken == "sam_k@example.org")
            // An invalid password is refused the same way with either address.
            for address in ["sam_k@example.org", "fresh@example.org"] {
                let weak = try await app.browser().post(
                    "/signup",
                    [("username", "sam_\(address.count)"), ("email", address), ("password", "short"), ("display_name", "Sam"), ("birth_date", "1991-01-01")],
                    csrfFrom: "/signup")
                #expect(weak.status == .unprocessableEntity && !weak.contains("already exists") && !weak.contains("Sign in instead"))
            }
        }
    }

    @Test func signInByUsernameOrEmailAndSignOut() async throws {
        try await withApp { app in
            try await app.browser().signUp("runner")
            let browser = app.browser()
            let wrong = try await browser.logIn("runner", password: "not the password")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.contains("do not match"))

            let byName = try await browser.logIn("RUNNER")
            #expect(byName.status == .seeOther)
            #expect(try await browser.get("/friends").status == .ok)
            try await browser.logOut()
            let after = try await browser.get("/friends")
            #expect(after.status == .seeOther)
            #expect(after.location == "/login?next=%2Ffriends")

            let byEmail = try await browser.logIn("runner@example.org")
            #expect(byEmail.status == .seeOther)
            #expect(try await browser.get("/friends").status == .ok)
        }
    }

    @Test func signingOutEndsTheSessionOnTheServer() async throws {
        try await withApp { app in
            let browser = app.browser()
            try await browser.signUp("leaver")
            let stolen = try #require(browser.cookies[SessionMiddleware.cookieName])
            try await browser.logOut()
            let thief = app.browser()
            thief.setCookie(SessionMiddleware.cookieName, stolen)
            #expect(try await thief.get("/friends").status == .seeOther)
        }
    }

    @Test func signInReturnsToTheRequestedPageButOnlyOnThisSite() async throws {
        try await withApp { app in
            try await app.browser().signUp("walker")
            let browser = app.browser()
            let redirect = try await browser.get("/settings/privacy")
            #expect(redirect.location == "/login?next=%2Fsettings%2Fprivacy")
            let form = try await browser.get(try #require(redirect.location))
            #expect(form.contains("value=\"/settings/privacy\""))
            let back = try await browser.logIn("walker", next: "/settings/privacy")
            #expect(back.location == "/settings/privacy")

            // Browsers drop tabs and line breaks from addresses: "/<TAB>/evil.example" is "//evil.example".
            for hostile in [
                "https://evil.example/", "//evil.example/x", "/\\evil.example", "/\t/evil.example", "/\n/evil.example",
                "/\r/evil.example", "/ /evil.example", "/\u{0B}/evil.example",
            ] {
                let other = app.browser()
                let page = try await other.logIn("walker", next: hostile)
                #expect(page.location == "/", "followed \(hostile)")
                // The same address through the sign-in page's link: the form does not carry it on.
                let form = try await app.browser().get("/login?next=" + (hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
                #expect(form.status == .ok && !form.contains("evil.example"), "the form kept \(hostile)")
            }
        }
    }

    @Test func sessionSurvivesARestart() async throws {
        try await withStore { store in
            let first = try await TestApp.start(store)
            let browser = first.browser()
            try await browser.signUp("steady")
            let cookie = try #require(browser.cookies[SessionMiddleware.cookieName])
            await first.stop()

            let second = try await TestApp.start(store)
            let returning = second.browser()
            returning.setCookie(SessionMiddleware.cookieName, cookie)
            let page = try await returning.get("/")
            #expect(page.contains("Hi, Steady"))
            await second.stop()
        }
    }

    @Test func formsWithoutTheRightCSRFTokenAreRefusedAndChangeNothing() async throws {
        try await withApp { app in
            let browser = app.browser()
            try await browser.signUp("guarded")
            try await browser.saveProfile(["display_name": "Before"])

            let missing = try await browser.post(
                "/settings/profile",
                [
                    ("display_name", "Hacked"), ("height_cm", "180"), ("weight_kg", "80"), ("birth_date", "1990-01-01"), ("time_zone", "UTC"),
                    ("units", "metric"),
                ], csrfFrom: nil)
            #expect(missing.status == .forbidden)
            #expect(missing.contains("This form has expired or did not come from Fieldhouse"))

            let wrong = try await browser.post(
                "/settings/profile", [("display_name", "Hacked"), ("csrf", "x" + String(repeating: "A", count: 42))], csrfFrom: nil)
            #expect(wrong.status == .forbidden)

            let logout = try await browser.post("/logout", [], csrfFrom: nil)
            #expect(logout.status == .forbidden)

            let user = try #require(try await User.query(on: app.db).filter(\.$username == "guarded").first())
            #expect(user.displayName == "Before")
            #expect(try await browser.get("/friends").status == .ok, "still signed in")

            // Anonymous forms are protected too.
            let stranger = app.browser()
            let signup = try await stranger.post(
                "/signup",
                [
                    ("username", "sneaky"), ("email", "s@example.org"), ("password", Browser.password),
                    ("display_name", "Sneaky"), ("birth_date", "1990-01-01"),
                ], csrfFrom: nil)
            #expect(signup.status == .forbidden)
            #expect(try await User.query(on: app.db).filter(\.$username == "sneaky").count() == 0)
        }
    }

    @Test func tooManyFailedSignInsAreSlowedDown() async throws {
        try await withApp { app in
            try await app.browser().signUp("target")
            let attacker = app.browser()
            let firstAttempt = app.clock.now
            for attempt in 1...10 {
                let page = try await attacker.logIn("target", password: "guess number \(attempt)")
                #expect(page.status == .unauthorized)
            }
            let limited = try await attacker.logIn("target")
            #expect(limited.status == .tooManyRequests)
            // The 15 minutes run from the first failed attempt; ten password checks can take a
            // minute or more on a loaded machine, so the wait left is 15 minutes less that time.
            let waited = Int(app.clock.now.timeIntervalSince(firstAttempt))
            let retry = try #require(limited.headers.first(name: .retryAfter).flatMap { Int($0) })
            #expect(retry % 60 == 0 && retry <= 900 && retry >= 900 - (waited / 60 + 1) * 60, "\(retry) s after \(waited) s")
            #expect(limited.contains("Too many failed sign-in attempts. Try again in \(retry / 60) minutes."))

            // From that address the account is closed, the right password included.
            let sameAddress = app.browser()
            #expect(try await sameAddress.logIn("target@example.org").status == .tooManyRequests)
        }
    }

    /// Behind a proxy the limits follow each visitor's own address: a stranger failing someone's password
    /// elsewhere does not lock them out, and the address the visitor writes into the header is not believed.
    @Test func signInLimitsFollowTheVisitorsAddressBehindATrustedProxy() async throws {
        try await withApp(config: { $0.trustedProxies = ["127.0.0.1"] }) { app in
            try await app.browser().signUp("target")
            let attacker = app.browser()
            // A visitor can put anything first; the proxy appends the address it saw.
            attacker.extraHeaders.add(name: .xForwardedFor, value: "198.51.100.7, 203.0.113.9")
            for attempt in 1...10 { _ = try await attacker.logIn("target", password: "guess \(attempt)") }
            #expect(try await attacker.logIn("target").status == .tooManyRequests)

            let owner = app.browser()
            owner.extraHeaders.add(name: .xForwardedFor, value: "198.51.100.7")
            #expect(try await owner.logIn("target").status == .seeOther, "the owner, at another address, is not locked out")
        }
        // Without a trusted proxy the header is ignored: everyone here is 127.0.0.1.
        try await withApp { app in
            try await app.browser().signUp("target")
            let attacker = app.browser()
            attacker.extraHeaders.add(name: .xForwardedFor, value: "203.0.113.9")
            for attempt in 1...10 { _ = try await attacker.logIn("target", password: "guess \(attempt)") }
            let owner = app.browser()
            owner.extraHeaders.add(name: .xForwardedFor, value: "198.51.100.7")
            #expect(try await owner.logIn("target").status == .tooManyRequests)
        }
    }

    /// Every settings page shows every tab, its own marked as the current one.
    @Test func everySettingsPageMarksItsOwnTab() async throws {
        try await withApp { app in
            let ana = app.browser(); try await ana.signUp("ana")
            #expect(app.app.settingsTabs.count == 13)
            for tab in app.app.settingsTabs {
                let page = try await ana.get(tab.url.path)
                #expect(page.status == .ok, "\(tab.url.path)")
                #expect(page.contains(#"<a href="\#(tab.url.path)" aria-current="page">\#(tab.label)</a>"#), "\(tab.url.path) does not mark its tab")
                #expect(page.body.components(separatedBy: #"aria-current="page""#).count == 2, "\(tab.url.path) marks one tab only")
                for other in app.app.settingsTabs { #expect(page.main.contains(#"href="\#(other.url.path)""#)) }
            }
        }
    }
}
