@testable import App
import FieldhouseKit
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

/// A row a test job writes, to see whether its writes were kept or rolled back.
private func markers(_ db: any Database) async throws -> Int { try await rowCount("notifications", db) }

@Suite("Background jobs: the runner, reminders, sweeps")
struct JobTests {
    /// Two processes polling at once enqueue each occurrence of a scheduled kind once; a job that
    /// fails backs off 1 and 5 minutes, keeps nothing it wrote, and after five attempts waits for an
    /// admin; a job held by a process that died is taken again when its lease runs out.
    @Test func jobsRunOnceBackOffAndOutliveTheirProcess() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let anaID = try #require(try await User.query(on: app.db).first()?.id)
            let failures = NIOLockedValueBox(0)
            let flaky = JobKind("test.flaky") { run in
                // It writes first and fails after: the write must not survive a failure.
                try await Notification.send(to: [anaID], from: nil, kind: .goalReached, text: "flaky ran", link: "/", on: run.db)
                let failed = failures.withLockedValue { count -> Bool in
                    count += 1
                    return count <= 2
                }
                if failed { throw Abort(.serviceUnavailable, reason: "the mail server is away") }
            }
            let broken = JobKind("test.broken") { _ in throw Abort(.internalServerError, reason: "always") }
            let ticking = JobKind("test.tick", every: 60) { run in
                try await Notification.send(to: [anaID], from: nil, kind: .goalReached, text: "tick", link: "/", on: run.db)
            }
            let one = JobRunner(kinds: [flaky, broken, ticking]), two = JobRunner(kinds: [flaky, broken, ticking])
            #expect(one.owner != two.owner)

            // Two processes schedule the same minute: one job. The clock ticks on, so the test starts
            // a second into a minute: every poll below, however slow the machine, falls in that minute.
            app.clock.set(testNoon.addingTimeInterval(1))
            let now = app.clock.now
            try await one.schedule(now: now, on: app.db)
            try await two.schedule(now: now, on: app.db)
            try await one.schedule(now: now.addingTimeInterval(1), on: app.db)
            #expect(try await Job.query(on: app.db).filter(\.$kind == "test.tick").count() == 1)
            async let first = one.runDue(app.app)
            async let second = two.runDue(app.app)
            let ran = try await first + second
            #expect(ran == 2, "the tick and the hourly prune, each once")
            #expect(try await Notification.query(on: app.db).filter(\.$text == "tick").count() == 1)

            // The flaky job: fails, is not retried before its back-off, keeps nothing it wrote.
            try await one.enqueue("test.flaky", at: app.clock.now, key: "flaky-1", on: app.db)
            try await one.enqueue("test.flaky", at: app.clock.now, key: "flaky-1", on: app.db)
            #expect(try await Job.query(on: app.db).filter(\.$kind == "test.flaky").count() == 1, "a key enqueues once")
            #expect(try await one.runDue(app.app) == 1)
            var job = try #require(try await Job.query(on: app.db).filter(\.$kind == "test.flaky").first())
            #expect(job.state == .queued && job.attempts == 1 && job.lastError?.contains("the mail server is away") == true)
            #expect(abs(job.runAt.timeIntervalSince(app.clock.now) - 60) < 5, "retried in a minute")
            #expect(try await Notification.query(on: app.db).filter(\.$text == "flaky ran").count() == 0, "its write was rolled back")
            #expect(try await one.runDue(app.app) == 0, "not before its time")
            app.clock.advance(by: 61)
            #expect(try await one.runDue(app.app) >= 1)
            job = try #require(try await Job.find(job.id, on: app.db))
            #expect(job.state == .queued && job.attempts == 2 && abs(job.runAt.timeIntervalSince(app.clock.now) - 300) < 5, "then in five minutes")
            app.clock.advance(by: 301)
            try await one.runDue(app.app)
            job = try #require(try await Job.find(job.id, on: app.db))
            #expect(job.state == .done && job.attempts == 3)
            #expect(try await Notification.query(on: app.db).filter(\.$text == "flaky ran").count() == 1, "the successful run's write stays")

            // Always failing: five attempts, then failed, listed for the admin, and retried on request.
            try await one.enqueue("test.broken", at: app.clock.now, on: app.db)
            for wait in [0.0, 61, 301, 1801, 7201] {
                app.clock.advance(by: wait)
                try await one.runDue(app.app)
            }
            let broke = try #require(try await Job.query(on: app.db).filter(\.$kind == "test.broken").first())
            #expect(broke.state == .failed && broke.attempts == 5 && broke.lastError?.contains("always") == true)
            let board = try await JobBoard.load(now: app.clock.now, on: app.db)
            let failed = try #require(board.sections.first { $0.title == "Failed" })
            #expect(failed.count == 1 && failed.rows.first?.kind == "test.broken" && failed.rows.first?.canRetry == true)
            #expect(try await one.retry(try broke.requireID(), now: app.clock.now, on: app.db))
            #expect(try await Job.find(broke.id, on: app.db)?.state == .queued)
            #expect(try await one.retry(UUID(), now: app.clock.now, on: app.db) == false)

            // A process took a job and died: nobody runs it until its lease runs out.
            try await Job.query(on: app.db).filter(\.$kind == "test.broken").delete()
            failures.withLockedValue { $0 = 10 }
            try await one.enqueue("test.flaky", at: app.clock.now, key: "flaky-2", on: app.db)
            try await app.db.sql.raw(
                "UPDATE jobs SET lease_owner = 'dead-process', lease_until = \(bind: app.clock.now.addingTimeInterval(app.app.jobs.leaseDuration)), attempts = 1 WHERE key = 'flaky-2'"
            ).run()
            // (The count of what ran is no test: a scheduled tick falls due whenever a minute passes.)
            try await two.runDue(app.app)
            let held = try #require(try await Job.query(on: app.db).filter(\.$key == "flaky-2").first())
            #expect(held.state == .queued && held.leaseOwner == "dead-process" && held.attempts == 1, "nobody takes a job whose lease holds")
            app.clock.advance(by: app.app.jobs.leaseDuration + 1)
            #expect(try await two.runDue(app.app) >= 1)
            let taken = try #require(try await Job.query(on: app.db).filter(\.$key == "flaky-2").first())
            #expect(taken.state == .done && taken.attempts == 2 && taken.leaseOwner == nil)

            // A job that took its process down on every attempt is failed, not taken a sixth time.
            try await one.enqueue("test.flaky", at: app.clock.now, key: "flaky-3", on: app.db)
            try await app.db.sql.raw(
                "UPDATE jobs SET lease_owner = 'dead-process', lease_until = \(bind: app.clock.now.addingTimeInterval(app.app.jobs.leaseDuration)), attempts = 5 WHERE key = 'flaky-3'"
            ).run()
            app.clock.advance(by: app.app.jobs.leaseDuration + 1)
            try await one.runDue(app.app)
            let abandoned = try #require(try await Job.query(on: app.db).filter(\.$key == "flaky-3").first())
            #expect(abandoned.state == .failed && abandoned.lastError?.contains("stopped or hung") == true)

            // A kind this version does not know (a newer process queued it) is left alone.
            try await app.db.sql.raw(
                "INSERT INTO jobs (id, kind, payload, run_at, state, attempts) VALUES (\(bind: UUID()), 'test.future', '{}', \(bind: app.clock.now), 'queued', 0)"
            ).run()
            try await one.runDue(app.app)
            #expect(try await Job.query(on: app.db).filter(\.$kind == "test.future").first()?.state == .queued)
        }
    }

    /// Ana in New York asks to be reminded on Tuesdays at 18:00: the reminder comes at 18:00 New
    /// York time, once, every Tuesday, not after she turns it off, and not hours late.
    @Test func aWorkoutReminderComesAtItsTimeInThePersonsZone() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser()
            try await ana.signUp("ana")
            try await ben.signUp("ben")
            let anaUser = try #require(try await User.query(on: app.db).filter(\.$username == "ana").first())
            anaUser.timeZone = "America/New_York"
            try await anaUser.save(on: app.db)
            // The next Tuesday, a few minutes before six in the evening in New York.
            var tuesday = LocalTime.day(of: app.clock.now, zone: "America/New_York").adding(days: 1)
            while tuesday.weekday != 2 { tuesday = tuesday.adding(days: 1) }
            let six = try #require(LocalTime.instant(day: tuesday.description, time: "18:00", zone: "America/New_York"))
            #expect(
                try await ana.post("/reminders", [("title", "Track session"), ("time", "18:00"), ("days[]", "2"), ("alert", "0")], csrfFrom: "/reminders")
                    .status == .seeOther)
            func reminders(_ browser: Browser) async throws -> Int {
                try await browser.get("/notifications").body.components(separatedBy: "Reminder: Track session").count - 1
            }

            app.clock.set(six.addingTimeInterval(-120))
            try await app.app.jobs.runDue(app.app)
            #expect(try await reminders(ana) == 0, "not before six")
            app.clock.set(six.addingTimeInterval(30))
            try await app.app.jobs.runDue(app.app)
            #expect(try await reminders(ana) == 1, "at six New York time")
            #expect(try await reminders(ben) == 0)
            app.clock.advance(by: 60)
            try await app.app.jobs.runDue(app.app)
            #expect(try await reminders(ana) == 1, "once")

            // A week later, again; but a server that was down from 17:55 to 19:00 does not send it late.
            // (Six o'clock on later Tuesdays is found by date: a week may hold a change of clocks.)
            func sixOClock(weeksOn weeks: Int) throws -> Date {
                try #require(LocalTime.instant(day: tuesday.adding(days: 7 * weeks).description, time: "18:00", zone: "America/New_York"))
            }
            app.clock.set(try sixOClock(weeksOn: 1).addingTimeInterval(45))
            try await app.app.jobs.runDue(app.app)
            #expect(try await reminders(ana) == 2)
            app.clock.set(try sixOClock(weeksOn: 2).addingTimeInterval(3600))
            try await app.app.jobs.runDue(app.app)
            #expect(try await reminders(ana) == 2, "an hour late is too late")

            // Turned off: nothing.
            let id = try #require(try await Reminder.query(on: app.db).first()?.requireID().uuidString.lowercased())
            #expect(try await ana.post("/reminders/\(id)/toggle", [], csrfFrom: "/reminders").status == .seeOther)
            app.clock.set(try sixOClock(weeksOn: 3).addingTimeInterval(10))
            try await app.app.jobs.runDue(app.app)
            #expect(try await reminders(ana) == 2)
        }
    }

    /// A day and two hours before a team game, the people going or maybe hear of it, once each;
    /// not those who said no, never answered or left the team; moving the game sends them again.
    @Test func gameRemindersGoToThoseComingADayAndTwoHoursBefore() async throws {
        try await withApp { app in
            let tom = app.browser(), ana = app.browser(), ben = app.browser(), cid = app.browser(), dan = app.browser(), eve = app.browser()
            try await tom.signUp("tom")
            let slug = try await tom.createTeam("Riverside Futsal")
            let team = try #require(try await Team.query(on: app.db).filter(\.$slug == slug).first())
            for (browser, name) in [(ana, "ana"), (ben, "ben"), (cid, "cid"), (dan, "dan"), (eve, "eve")] {
                try await browser.signUp(name)
                let user = try #require(try await User.query(on: app.db).filter(\.$username == name).first())
                try await Membership(teamID: team.requireID(), userID: user.requireID(), role: .player).create(on: app.db)
            }
            let path = try await tom.createTeamGame(team: slug, days: 3)
            for (browser, answer) in [(ana, "going"), (ben, "maybe"), (cid, "not_going"), (eve, "going")] {
                #expect(try await browser.post(path + "/rsvp", [("status", answer)], csrfFrom: path).status == .seeOther)
            }
            // Eve leaves the team: her answer no longer holds a place.
            #expect(try await eve.post("/teams/\(slug)/leave", [], csrfFrom: "/teams/\(slug)").status == .seeOther)
            let game = try #require(try await Game.query(on: app.db).first())
            func heard(_ browser: Browser) async throws -> Int {
                try await browser.get("/notifications").body.components(separatedBy: "Riverside Futsal vs. Old Town").count - 1
            }

            app.clock.set(game.startsAt.addingTimeInterval(-25 * 3600))
            try await app.app.jobs.runDue(app.app)
            #expect(try await heard(ana) == 0, "not two days before")
            app.clock.set(game.startsAt.addingTimeInterval(-23 * 3600))
            try await app.app.jobs.runDue(app.app)
            app.clock.advance(by: 120)
            try await app.app.jobs.runDue(app.app)
            #expect(try await [heard(ana), heard(ben)] == [1, 1], "once, to going and maybe")
            #expect(try await [heard(cid), heard(dan), heard(eve)] == [0, 0, 0], "not to no, no answer, or someone who left")
            #expect(try await ana.get("/notifications").contains("Riverside Hall"), "with the place")
            app.clock.set(game.startsAt.addingTimeInterval(-3600))
            try await app.app.jobs.runDue(app.app)
            #expect(try await [heard(ana), heard(ben)] == [2, 2])

            // Moved to two days later: both reminders again, before the new time.
            let day = LocalTime.parts(of: game.startsAt.addingTimeInterval(2 * 86_400), zone: "UTC").day
            let moved = try await tom.post(
                path + "/edit",
                [
                    ("day", day), ("time", "18:00"), ("time_zone", "UTC"), ("duration_minutes", "60"), ("place_name", "Riverside Hall"),
                    ("latitude", "55.68"), ("longitude", "12.57"), ("opponent_name", "Old Town"), ("description", ""),
                ], csrfFrom: path + "/edit")
            #expect(moved.status == .seeOther, "\(moved.body.prefix(400))")
            let start = try #require(try await Game.find(game.id, on: app.db)).startsAt
            app.clock.set(start.addingTimeInterval(-20 * 3600))
            try await app.app.jobs.runDue(app.app)
            #expect(try await heard(ana) >= 3)
        }
    }

    /// Expired sessions and old failed sign-ins go every hour, without anyone signing in.
    @Test func theHourlySweepRemovesExpiredSessions() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            #expect(try await app.browser().logIn("ana", password: "wrong password").status == .unauthorized)
            #expect(try await rowCount("sessions", app.db) == 1)
            #expect(try await rowCount("login_attempts", app.db) >= 1)
            app.clock.advance(by: 400 * 86_400)
            try await app.app.jobs.runDue(app.app)
            #expect(try await [rowCount("sessions", app.db), rowCount("login_attempts", app.db)] == [0, 0])
            let settings = try await ana.get("/settings/profile")
            #expect(settings.location?.hasPrefix("/login") == true, "the old session is gone: \(settings.status) \(settings.location ?? "")")
        }
    }

    /// An admin sees failed jobs and queues one again; nobody else sees the page.
    @Test func adminsSeeFailedJobsAndRetryThem() async throws {
        try await withApp { app in
            let adam = app.browser(), ana = app.browser()
            try await adam.signUp("adam")
            try await ana.signUp("ana")
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            try await app.app.jobs.enqueue("accounts.cleanup", at: app.clock.now, key: "cleanup-test", on: app.db)
            try await app.db.sql.raw(
                "UPDATE jobs SET state = 'failed', attempts = 5, last_error = 'disk <full>' WHERE key = 'cleanup-test'"
            ).run()
            let id = try #require(try await Job.query(on: app.db).filter(\.$key == "cleanup-test").first()?.requireID()).uuidString.lowercased()

            #expect(try await ana.get("/admin/jobs").status == .forbidden)
            #expect(try await ana.post("/admin/jobs/\(id)/retry", [], csrfFrom: "/").status == .forbidden)
            #expect(try await app.browser().get("/admin/jobs").location?.hasPrefix("/login") == true)
            #expect(!(try await ana.get("/").contains("/admin/jobs")), "no link for members")

            let page = try await adam.get("/admin/jobs")
            #expect(page.status == .ok && page.contains("accounts.cleanup") && page.contains("disk &lt;full&gt;"))
            #expect(try await adam.get("/").contains(#"href="/admin/jobs""#))
            let retried = try await adam.post("/admin/jobs/\(id)/retry", [], csrfFrom: "/admin/jobs")
            #expect(retried.status == .seeOther)
            #expect(try await Job.query(on: app.db).filter(\.$key == "cleanup-test").first()?.state == .queued)
            #expect(try await adam.post("/admin/jobs/\(id)/retry", [], csrfFrom: "/admin/jobs").status == .notFound, "only failed jobs")
            #expect(try await adam.post("/admin/jobs/not-an-id/retry", [], csrfFrom: "/admin/jobs").status == .notFound)
            try await app.app.jobs.runDue(app.app)
            #expect(try await Job.query(on: app.db).filter(\.$key == "cleanup-test").first()?.state == .done)
        }
    }

    /// Two servers on one database (on PostgreSQL in CI) drain 400 due jobs together: each job
    /// runs exactly once, and every job's write is there once.
    @Test func twoProcessesRunEachJobExactlyOnce() async throws {
        try await withTwoProcesses { first, second in
            let ana = first.browser()
            try await ana.signUp("ana")
            let anaID = try #require(try await User.query(on: first.db).first()?.id)
            let kind = JobKind("test.count") { run in
                let n = try run.payload(as: [String: Int].self)["n"] ?? -1
                try await Notification.send(to: [anaID], from: nil, kind: .goalReached, text: "job \(n)", link: "/", on: run.db)
            }
            let one = JobRunner(kinds: [kind]), two = JobRunner(kinds: [kind])
            try await first.db.transaction { db in
                for n in 0..<400 { try await one.enqueue("test.count", payload: ["n": n], at: first.clock.now, on: db) }
            }
            async let a = one.runDue(first.app, limit: 10_000)
            async let b = two.runDue(second.app, limit: 10_000)
            let (ranA, ranB) = try await (a, b)
            // 400 jobs and one hourly prune; a job put back after meeting the other's SQLite write runs again.
            #expect(ranA + ranB >= 401, "\(ranA) + \(ranB)")
            let texts = try await Notification.query(on: first.db).all().map(\.text)
            #expect(texts.count == 400 && Set(texts).count == 400)
            #expect(try await Job.query(on: first.db).filter(\.$state != .done).count() == 0)
        }
    }

    /// A job longer than a lease (a big account's export) is not taken by another process while
    /// its own keeps working on it: the lease is renewed until the job is done.
    @Test func aLongJobKeepsItsLeaseWhileItsProcessWorks() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let anaID = try #require(try await User.query(on: app.db).first()?.id)
            let kind = JobKind("test.slow") { run in
                try await Task.sleep(for: .milliseconds(2_500))
                try await Notification.send(to: [anaID], from: nil, kind: .goalReached, text: "slow job", link: "/", on: run.db)
            }
            let working = JobRunner(kinds: [kind], lease: 1), other = JobRunner(kinds: [kind], lease: 1)
            try await working.runDue(app.app) // the hourly prune, so only the slow job is left
            try await working.enqueue("test.slow", payload: NoPayload(), at: app.clock.now, on: app.db)
            let first = Task { try await working.runDue(app.app) }
            try await Task.sleep(for: .milliseconds(1_600))
            #expect(try await other.runDue(app.app) == 0, "the job is held by the process working on it")
            let ran = try await first.value
            #expect(ran == 1, "the working process ran the job \(ran) times")
            let job = try #require(try await Job.query(on: app.db).filter(\.$kind == "test.slow").first())
            #expect(job.state == .done && job.attempts == 1)
            #expect(try await Notification.query(on: app.db).filter(\.$text == "slow job").count() == 1)
        }
    }

    /// Ana turns game reminders off: the reminder job skips her, Ben still hears; the choice is
    /// hers alone, survives in her export, and nonsense in the form changes nothing else.
    @Test func aTopicTurnedOffIsNotSent() async throws {
        try await withApp { app in
            let tom = app.browser(), ana = app.browser(), ben = app.browser()
            try await tom.signUp("tom")
            let slug = try await tom.createTeam("Riverside Futsal")
            let team = try #require(try await Team.query(on: app.db).filter(\.$slug == slug).first())
            for (browser, name) in [(ana, "ana"), (ben, "ben")] {
                try await browser.signUp(name)
                let user = try #require(try await User.query(on: app.db).filter(\.$username == name).first())
                try await Membership(teamID: team.requireID(), userID: user.requireID(), role: .player).create(on: app.db)
            }
            let form = try await ana.get("/settings/notifications")
            #expect(form.status == .ok)
            #expect(form.contains(#"<input type="checkbox" id="in-app-game_reminders" name="in_app[]" value="game_reminders""#))
            #expect(form.contains(#"<legend>Game reminders</legend>"#))
            let everything = NotificationTopic.allCases.filter { $0 != .gameReminders }.map { ("in_app[]", $0.rawValue) }
            let saved = try await ana.post(
                "/settings/notifications", everything + [("in_app[]", "../../etc/passwd"), ("in_app[]", "<script>")],
                csrfFrom: "/settings/notifications")
            #expect(saved.status == .seeOther)
            let reread = try await ana.get("/settings/notifications")
            #expect(reread.contains(#"<input type="checkbox" id="in-app-game_reminders" name="in_app[]" value="game_reminders">"#))
            #expect(reread.contains(#"<input type="checkbox" id="in-app-games" name="in_app[]" value="games" checked>"#))
            #expect(try await rowCount("notification_settings", app.db) == 1, "only what differs from the default is stored")

            let path = try await tom.createTeamGame(team: slug, days: 3)
            for browser in [ana, ben] {
                #expect(try await browser.post(path + "/rsvp", [("status", "going")], csrfFrom: path).status == .seeOther)
            }
            let game = try #require(try await Game.query(on: app.db).first())
            app.clock.set(game.startsAt.addingTimeInterval(-3600))
            try await app.app.jobs.runDue(app.app)
            #expect(try await ben.get("/notifications").contains("Riverside Futsal vs. Old Town"))
            #expect(!(try await ana.get("/notifications").contains("Riverside Futsal vs. Old Town")))
            #expect(try await ana.get("/notifications").contains("New game for Riverside Futsal"), "other topics still arrive")

            // Everything back on: no rows left.
            let all = NotificationTopic.allCases.map { ("in_app[]", $0.rawValue) }
            #expect(try await ana.post("/settings/notifications", all, csrfFrom: "/settings/notifications").status == .seeOther)
            #expect(try await rowCount("notification_settings", app.db) == 0)
            #expect(try await app.browser().post("/settings/notifications", [], csrfFrom: "/login").location?.hasPrefix("/login") == true)
        }
    }

    /// Two connections writing at once on SQLite: a transaction that reads before it writes must
    /// wait its turn, not fail with "database is locked" because another connection committed
    /// after its read (an upload failed that way, with a 500, while a background job wrote).
    @Test func aTransactionThatReadsFirstStillWritesWhileAnotherConnectionCommits() async throws {
        try await withApp { app in
            let loops = Array(app.app.eventLoopGroup.makeIterator())
            guard loops.count > 1, let first = app.app.databases.database(logger: app.app.logger, on: loops[0]),
                let second = app.app.databases.database(logger: app.app.logger, on: loops[1])
            else { return }
            let organiser = app.browser(); try await organiser.signUp("reader_first")
            let userID = try #require(try await User.query(on: first).first()?.requireID())
            let other = try await first.inTransaction { db -> Task<Void, any Error> in
                _ = try await User.query(on: db).count()
                // Another connection writes and commits while this transaction has read.
                let other = Task { try await second.sql.raw("UPDATE users SET bio = 'changed' WHERE id = \(bind: userID)").run() }
                try await Task.sleep(for: .milliseconds(200))
                try await db.sql.raw("UPDATE users SET display_name = 'Reader First' WHERE id = \(bind: userID)").run()
                return other
            }
            try await other.value
            let user = try #require(try await User.find(userID, on: app.db))
            #expect(user.displayName == "Reader First")
            #expect(try await User.find(userID, on: app.db)?.bio == "changed")
        }
    }
}
