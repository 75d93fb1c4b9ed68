@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

/// E-mail through a real SMTP server on loopback: what arrives, where its links lead, and what
/// happens when the server is away.
@Suite("E-mail: confirmation, password reset, reminders, retries")
struct MailTests {
    /// Signing up sends a link that confirms the address; "forgot password" sends a link that works
    /// once, within the hour, and signs every device out. Nobody learns whether an address has an
    /// account.
    /// Issue 41, scenario 6: signing up with an address that has an account answers as usual and
    /// tells the address's owner, not the person signing up.
    @Test func signingUpWithATakenAddressTellsItsOwnerInstead() async throws {
        try await withMailApp { app, sink in
            try await app.browser().signUp("ana", name: "Ana Lima")
            try await User.query(on: app.db).filter(\.$username == "ana").set(\.$emailConfirmedAt, to: app.clock.now).update()
            func signUp(_ username: String, _ address: String) async throws -> Browser {
                let browser = app.browser()
                let page = try await browser.post(
                    "/signup",
                    [
                        ("username", username), ("email", address), ("password", Browser.password + "!"), ("display_name", "Not Ana"),
                        ("birth_date", "1991-01-01"),
                    ], csrfFrom: "/signup")
                #expect(page.status == .seeOther && page.location == "/settings/profile")
                return browser
            }
            let taken = try await signUp("not_ana", "ANA@example.org"), free = try await signUp("new_bo", "bo@example.org")
            // Every page the newcomer sees reads the same for a taken and a free address.
            for (browser, address) in [(taken, "ana@example.org"), (free, "bo@example.org")] {
                #expect(try await browser.get("/settings/profile").contains("We sent a link to \(address)"))
                let settings = try await browser.get("/settings/notifications")
                #expect(settings.contains("<strong>\(address)</strong>") && !settings.contains(".invalid"))
                let resend = try await browser.post("/settings/email/confirm", [("next", "/settings/notifications")], csrfFrom: "/settings/notifications")
                #expect(resend.status == .seeOther)
                #expect(try await browser.get("/settings/notifications").contains("We sent a link to \(address) a few minutes ago"))
                // Signing in with the address and one's own password works either way.
                #expect(try await app.browser().logIn(address, password: Browser.password + "!").location == "/")
            }
            _ = try await signUp("not_ana_2", "ana@example.org")
            try await app.app.jobs.runDue(app.app)
            let mails = try sink.messages(to: "ana@example.org")
            #expect(mails.map(\.subject).sorted() == ["Confirm your e-mail address for Fieldhouse", "Someone tried to sign up with your address"])
            let notice = try #require(mails.first { $0.subject == "Someone tried to sign up with your address" })
            #expect(notice.text.contains("If it was you, sign in instead"), "one notice a day, however many tries")
            #expect(try sink.messages().allSatisfy { !$0.envelopeTo.contains(".invalid") }, "the stand-in is never mailed")
            // The address's owner still signs in with it as before.
            #expect(try await app.browser().logIn("ana@example.org").location == "/")
        }
    }

    @Test func confirmationAndPasswordResetArriveAndWorkOnce() async throws {
        try await withMailApp { app, sink in
            let ana = app.browser()
            let welcome = try await ana.signUp("ana", name: "Ana Lima")
            #expect(welcome.status == .seeOther)
            #expect(try await ana.get("/settings/profile").contains("We sent a link to ana@example.org"))
            #expect(try await sink.messages().isEmpty, "nothing leaves before the job runs")
            try await app.app.jobs.runDue(app.app)
            let confirmation = try #require(try sink.messages(to: "ana@example.org").first)
            #expect(confirmation.subject == "Confirm your e-mail address for Fieldhouse")
            #expect(confirmation.headers["from"] == "Riverside Club <club@fieldhouse.test>")
            #expect(confirmation.headers["list-unsubscribe"] == nil, "an account e-mail cannot be turned off")
            #expect(confirmation.text.hasPrefix("Hi Ana Lima,"))
            #expect(confirmation.html.contains("Confirm my address"))
            let base = app.app.config.baseURL
            let confirm = try #require(confirmation.link(startingWith: base + "/email/confirm/"))
            #expect(try await User.query(on: app.db).first()?.emailConfirmedAt == nil)

            // Opened on a phone where nobody is signed in: a mail scanner opening it confirms nothing.
            let phone = app.browser()
            let confirmPath = String(confirm.dropFirst(base.count))
            let opened = try await phone.get(confirmPath)
            #expect(opened.status == .ok)
            #expect(opened.contains("Confirm that <strong>ana@example.org</strong> belongs to the Fieldhouse account <strong>ana</strong>?"))
            #expect(try await User.query(on: app.db).first()?.emailConfirmedAt == nil)
            let pressed = try await phone.post(confirmPath, [], csrfFrom: nil)
            #expect(pressed.status == .seeOther)
            #expect(pressed.location == "/login")
            #expect(try await phone.get("/login").contains("ana@example.org is confirmed"))
            #expect(try await User.query(on: app.db).first()?.emailConfirmedAt != nil)
            let settings = try await ana.get("/settings/notifications")
            #expect(settings.contains("E-mails go to <strong>ana@example.org</strong>"))
            #expect(!settings.contains("Send the link again"))
            let forged = String(confirmPath.dropLast(3)) + "abc"
            #expect(try await phone.get(forged).status == .notFound)
            #expect(try await phone.post(forged, [], csrfFrom: nil).status == .notFound)

            // Forgot the password: an unknown address gets the same answer and no e-mail.
            let stranger = app.browser()
            #expect(try await stranger.get("/login").contains(#"href="/password/forgot""#))
            let unknown = try await stranger.post("/password/forgot", [("email", "nobody@example.org")], csrfFrom: "/password/forgot")
            #expect(unknown.status == .ok)
            #expect(unknown.contains("If an account uses <strong>nobody@example.org</strong>"))
            let asked = try await stranger.post("/password/forgot", [("email", " ANA@example.org ")], csrfFrom: "/password/forgot")
            #expect(asked.status == .ok)
            #expect(asked.contains("If an account uses <strong>ana@example.org</strong>"))
            let bad = try await stranger.post("/password/forgot", [("email", "ana<script>@x")], csrfFrom: "/password/forgot")
            #expect(bad.status == .unprocessableEntity)
            #expect(bad.contains("Enter an email address like name@example.com"))
            #expect(!bad.contains("<script>@x"))
            try await app.app.jobs.runDue(app.app)
            #expect(try sink.messages().count == 2, "the confirmation and one reset, nothing to nobody@")
            let resetMail = try #require(try sink.messages(to: "ana@example.org").last)
            #expect(resetMail.subject == "Reset your Fieldhouse password")
            let resetLink = try #require(resetMail.link(startingWith: base + "/password/reset/"))
            let resetPath = String(resetLink.dropFirst(base.count))
            let resets = try await PasswordReset.query(on: app.db).all()
            #expect(!resets.isEmpty && resets.allSatisfy { !resetLink.contains($0.tokenHash) }, "only the hash is stored")
            #expect(try await rowCount("outbox", app.db) == 0, "the link is not kept once sent")

            let form = try await stranger.get(resetPath)
            #expect(form.status == .ok)
            #expect(form.contains("For the account <strong>ana</strong>"))
            let mismatch = try await stranger.post(resetPath, [("new_password", "a new long password"), ("confirm_password", "another")], csrfFrom: resetPath)
            #expect(mismatch.status == .unprocessableEntity)
            #expect(mismatch.contains("The two passwords do not match"))
            let changed = try await stranger.post(
                resetPath, [("new_password", "a new long password"), ("confirm_password", "a new long password")], csrfFrom: resetPath)
            #expect(changed.status == .seeOther)
            #expect(changed.location == "/login")
            #expect(try await ana.get("/settings/profile").status == .seeOther, "the old session is signed out")
            #expect(try await stranger.logIn("ana", password: "a new long password").status == .seeOther)
            #expect(try await app.browser().get(resetPath).status == .gone, "a link works once")

            // A link not used within the hour is dead.
            _ = try await app.browser().post("/password/forgot", [("email", "ana@example.org")], csrfFrom: "/password/forgot")
            try await app.app.jobs.runDue(app.app)
            let late = try #require(try sink.messages(to: "ana@example.org").last?.link(startingWith: base + "/password/reset/"))
            #expect(late != resetLink)
            app.clock.advance(by: 3601)
            #expect(try await app.browser().get(String(late.dropFirst(base.count))).status == .gone)
            #expect(try await app.browser().get("/password/reset/not-a-token").status == .gone)

            // Asking again and again fills nobody's mailbox: three open links at most.
            for _ in 0..<5 { _ = try await app.browser().post("/password/forgot", [("email", "ana@example.org")], csrfFrom: "/password/forgot") }
            try await app.app.jobs.runDue(app.app)
            #expect(try sink.messages(to: "ana@example.org").count == 3 + 3)
        }
    }

    /// A person who sets a Tuesday 18:00 reminder gets it at 18:00 their time, in the app and by
    /// e-mail; the e-mail's unsubscribe link stops those e-mails without signing in, and the app
    /// keeps showing them. An unconfirmed address gets nothing.
    @Test func aReminderArrivesByEmailAndItsLinkStopsThem() async throws {
        try await withMailApp { app, sink in
            let ana = app.browser(), ben = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            for user in try await User.query(on: app.db).all() {
                user.timeZone = "Europe/Lisbon"
                if user.username == "ana" { user.emailConfirmedAt = app.clock.now }
                try await user.save(on: app.db)
            }
            try await app.app.jobs.runDue(app.app)
            let confirmations = try sink.messages().count
            var tuesday = LocalTime.day(of: app.clock.now, zone: "Europe/Lisbon").adding(days: 1)
            while tuesday.weekday != 2 { tuesday = tuesday.adding(days: 1) }
            let six = try #require(LocalTime.instant(day: tuesday.description, time: "18:00", zone: "Europe/Lisbon"))
            for browser in [ana, ben] {
                #expect(
                    try await browser.post(
                        "/reminders", [("title", "Track & field"), ("time", "18:00"), ("days[]", "2"), ("alert", "0")], csrfFrom: "/reminders"
                    )
                    .status == .seeOther)
            }
            app.clock.set(six.addingTimeInterval(20))
            try await app.app.jobs.runDue(app.app)
            let reminders = try sink.messages().dropFirst(confirmations)
            #expect(reminders.count == 1, "Ben's address is not confirmed")
            let mail = try #require(reminders.first)
            #expect(mail.envelopeTo == "ana@example.org")
            #expect(mail.subject == "Reminder: Track & field")
            #expect(mail.html.contains("Reminder: Track &amp; field"), "escaped in HTML")
            #expect(mail.text.contains("Open in Fieldhouse: \(app.app.config.baseURL)/"))
            #expect(try await ana.get("/notifications").contains("Reminder: Track &amp; field"))
            #expect(try await ben.get("/notifications").contains("Reminder: Track &amp; field"))

            let base = app.app.config.baseURL
            let unsubscribe = try #require(mail.link(startingWith: base + "/email/unsubscribe/"))
            #expect(mail.headers["list-unsubscribe"] == "<\(unsubscribe)>")
            #expect(mail.headers["list-unsubscribe-post"] == "List-Unsubscribe=One-Click")
            let path = String(unsubscribe.dropFirst(base.count))
            let stranger = app.browser()
            let ask = try await stranger.get(path)
            #expect(ask.status == .ok)
            #expect(ask.contains("Stop e-mails about “Workout reminders” for the account <strong>ana</strong>?"))
            #expect(try await NotificationSetting.query(on: app.db).count() == 0, "opening the link changes nothing")
            // What a mail program's one-click button sends: no cookie, no token.
            let benID = try #require(try await User.query(on: app.db).filter(\.$username == "ben").first()?.id)
            let forged = path.replacingOccurrences(
                of: SiteURL.id(try #require(try await User.query(on: app.db).filter(\.$username == "ana").first()?.id)), with: SiteURL.id(benID))
            #expect(try await stranger.post(forged, [("List-Unsubscribe", "One-Click")], csrfFrom: nil).status == .notFound)
            let done = try await stranger.post(path, [("List-Unsubscribe", "One-Click")], csrfFrom: nil)
            #expect(done.status == .ok)
            #expect(done.contains("will get no more e-mails about “Workout reminders”"))
            let settings = try await ana.get("/settings/notifications")
            #expect(settings.contains(#"<input type="checkbox" id="email-workout_reminders" name="email[]" value="workout_reminders">"#))
            #expect(settings.contains(#"<input type="checkbox" id="in-app-workout_reminders" name="in_app[]" value="workout_reminders" checked>"#))
            #expect(
                settings.contains(#"<input type="checkbox" id="email-games_nearby" name="email[]" value="games_nearby">"#),
                "nearby games are not e-mailed by default")

            app.clock.set(six.addingTimeInterval(7 * 86_400 + 20))
            try await app.app.jobs.runDue(app.app)
            #expect(try sink.messages().count == confirmations + 1, "no e-mail the next week")
            #expect(try await ana.get("/notifications").body.components(separatedBy: "Reminder: Track &amp; field").count - 1 == 2, "still in the app")

            // Ben is told to confirm, and the e-mail boxes keep their choice when saved.
            let benSettings = try await ben.get("/settings/notifications")
            #expect(benSettings.contains("E-mails go only to a confirmed address"))
            let everything = NotificationTopic.allCases.map { ("in_app[]", $0.rawValue) } + [("email_shown", "1"), ("email[]", "coaching")]
            #expect(try await ben.post("/settings/notifications", everything, csrfFrom: "/settings/notifications").status == .seeOther)
            let reread = try await ben.get("/settings/notifications")
            #expect(reread.contains(#"value="coaching" checked>"#))
            #expect(reread.contains(#"<input type="checkbox" id="email-teams" name="email[]" value="teams">"#))
            let resend = try await ben.post("/settings/email/confirm", [("next", "/settings/notifications")], csrfFrom: "/settings/notifications")
            #expect(resend.location == "/settings/notifications")
            #expect(try await ben.get("/settings/notifications").contains("We sent a new link to ben@example.org"))
            // Pressed again and again: one link per ten minutes.
            for _ in 0..<3 {
                _ = try await ben.post("/settings/email/confirm", [("next", "/settings/notifications")], csrfFrom: "/settings/notifications")
            }
            #expect(try await ben.get("/settings/notifications").contains("You can ask for another in 10 minutes"))
            try await app.app.jobs.runDue(app.app)
            #expect(try sink.messages(to: "ben@example.org").count == 2, "sign-up and one new link")
        }
    }

    /// A server that refuses the connection, drops it after the message or says "busy" is tried
    /// again later and the message arrives once; an address the server refuses for good fails at
    /// once and shows on the admin's job page.
    @Test func aMailServerThatIsAwayIsTriedAgainAndNothingArrivesTwice() async throws {
        try await withMailApp { app, sink in
            let ana = app.browser()
            try await ana.signUp("ana")
            let user = try #require(try await User.query(on: app.db).first())
            // Nothing listens on the sink's port plus one thousand (or at least not SMTP).
            app.app.config.smtp = SMTPSettings(host: "127.0.0.1", port: 9, security: .startTLS, username: nil, password: nil)
            try await app.app.jobs.runDue(app.app)
            let job = try #require(try await Job.query(on: app.db).filter(\.$kind == OutboxMessage.sendKind).first())
            #expect(job.state == .queued)
            #expect(job.attempts == 1)
            #expect(job.lastError?.contains("Could not connect to 127.0.0.1:9") == true)
            app.app.config.smtp = sink.settings
            try await app.app.jobs.runDue(app.app)
            #expect(try sink.messages().isEmpty, "backing off, not hammering")
            app.clock.advance(by: 61)
            try await app.app.jobs.runDue(app.app)
            #expect(try sink.messages(to: "ana@example.org").count == 1)

            // Dropped after the whole message, and busy: both arrive once, a minute later.
            for (address, name) in [("ana+drop@example.org", "drop"), ("ana+busy@example.org", "busy")] {
                user.email = address
                user.emailConfirmedAt = app.clock.now
                try await user.save(on: app.db)
                try await Notification.send(to: [user.requireID()], from: nil, kind: .goalReached, text: "Goal reached (\(name))", link: "/goals", on: app.db)
                try await app.app.jobs.runDue(app.app)
                #expect(try sink.messages(to: address).isEmpty, "\(name): not yet")
                app.clock.advance(by: 61)
                try await app.app.jobs.runDue(app.app)
                app.clock.advance(by: 301)
                try await app.app.jobs.runDue(app.app)
                #expect(try sink.messages(to: address).count == 1, "\(name): once")
            }

            // Refused for good: failed at once, no retries, and the admin sees why.
            user.email = "ana+gone@example.org"
            try await user.save(on: app.db)
            try await Notification.send(to: [user.requireID()], from: nil, kind: .goalReached, text: "Goal reached (gone)", link: "/goals", on: app.db)
            try await app.app.jobs.runDue(app.app)
            let failed = try await Job.query(on: app.db).filter(\.$state == .failed).all()
            #expect(failed.count == 1)
            #expect(failed.first?.attempts == 1)
            #expect(failed.first?.lastError?.contains("550") == true)
            #expect(try sink.messages(to: "ana+gone@example.org").isEmpty)
        }
    }

    /// Without a mail server nothing is written to the outbox, the forgot-password page says whom
    /// to ask, and the settings show no e-mail choices.
    @Test func withoutAMailServerEverythingStaysInTheApp() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            #expect(!(try await ana.get("/settings/profile").contains("We sent a link")))
            #expect(try await rowCount("outbox", app.db) == 0)
            let settings = try await ana.get("/settings/notifications")
            #expect(!settings.contains("By e-mail"))
            let forgot = try await app.browser().get("/password/forgot")
            #expect(forgot.contains("This Fieldhouse does not send e-mail"))
            #expect(try await app.browser().post("/password/forgot", [("email", "ana@example.org")], csrfFrom: "/login").status == .conflict)
            #expect(try await rowCount("password_resets", app.db) == 0)
        }
    }

    /// The message itself: headers cannot be injected, long and non-ASCII subjects are encoded,
    /// bodies are base64 in lines of 76, and a line starting with a dot cannot end the message.
    @Test func messagesAreWellFormed() throws {
        let message = MailMessage(
            fromName: "Clube Ribeirinho", fromAddress: "club@fieldhouse.test", to: "ana@example.org",
            subject: "Olá Ana!\r\nBcc: everyone@example.org — jogo às 18:00 no pavilhão, traz água e boa disposição",
            text: ".\r\nline after a dot", html: "<p>x</p>", messageID: "abc@fieldhouse.test", date: Date(timeIntervalSince1970: 1_795_000_000),
            unsubscribe: "https://x.test/email/unsubscribe/a/b/c")
        let raw = message.rendered(boundary: "B")
        let headerBlock = raw.components(separatedBy: "\r\n\r\n")[0]
        #expect(!headerBlock.components(separatedBy: "\r\n").contains { $0.hasPrefix("Bcc:") })
        #expect(headerBlock.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
        #expect(headerBlock.contains("Date: Wed, 18 Nov 2026 11:06:40 +0000"))
        let parsed = try SMTPSink.parse(raw)
        #expect(parsed.subject == "Olá Ana!  Bcc: everyone@example.org — jogo às 18:00 no pavilhão, traz água e boa disposição")
        #expect(parsed.text == ".\r\nline after a dot")
        #expect(raw.components(separatedBy: "\r\n").filter { !$0.hasPrefix("--") && !$0.contains(":") && !$0.isEmpty }.allSatisfy { $0.utf8.count <= 76 })
        #expect(
            SMTPSettings.parse("smtp://mailer:p%40ss%3Aword@mail.example.org")
                == SMTPSettings(host: "mail.example.org", port: 587, security: .startTLS, username: "mailer", password: "p@ss:word"))
        #expect(SMTPSettings.parse("smtps://mail.example.org")?.port == 465)
        #expect(SMTPSettings.parse("smtp://mail.example.org")?.requiresTLS == true, "reset links never travel in clear")
        #expect(SMTPSettings.parse("smtp://relay.lan:25?starttls=optional")?.requiresTLS == false)
        #expect(SMTPSettings.parse("smtp://relay.lan:25?starttls=off") == nil)
        #expect(SMTPSettings.parse("smtp://127.0.0.1:25")?.requiresTLS == false)
        #expect(SMTPSettings.parse("smtp://127.mail.example.org")?.isLoopback == false)
        #expect(SMTPSettings.parse("smtp://[::1]:25")?.isLoopback == true)
        #expect(SMTPSettings.parse("smtp://[fe80::1]:25")?.serverHostname == nil)
        #expect(SMTPSettings.parse("smtp://mail.example.org")?.serverHostname == "mail.example.org")
        #expect(MailMessage.displayName("Club, Inc") == "\"Club, Inc\"")
        #expect(MailMessage.displayName("Say \"hi\"") == "\"Say \\\"hi\\\"\"")
        #expect(MailMessage.displayName("Riverside Club") == "Riverside Club")
        #expect(SMTPSettings.parse("smtp://user@mail.example.org") == nil, "a user without a password")
        #expect(SMTPSettings.parse("http://mail.example.org") == nil)
        #expect(SMTPSettings.parse("smtp://mail.example.org:99999") == nil)
        #expect(throws: AppConfig.Invalid.self) { try AppConfig.fromEnvironment(["FIELDHOUSE_SMTP_URL": "smtp://mail.example.org"]) }
        let config = try AppConfig.fromEnvironment(["FIELDHOUSE_SMTP_URL": "smtp://u:hunter2@mail.example.org", "FIELDHOUSE_MAIL_FROM": "Club <c@example.org>"])
        #expect(config.mailFromName == "Club")
        #expect(config.mailFromAddress == "c@example.org")
        #expect(!config.startupSummary.contains("hunter2"))
        #expect(config.startupSummary.contains("e-mail via smtp://u@mail.example.org:587 from c@example.org"))
    }
}
