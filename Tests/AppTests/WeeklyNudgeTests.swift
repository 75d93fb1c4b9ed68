@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

/// The Monday nudge: for a quiet week by the WHO's measure for one's age, once, with one idea.
@Suite("Weekly nudge")
struct WeeklyNudgeTests {
    @Test func quietPeopleHearOnceOnMondayMorningWithAnIdea() async throws {
        try await withApp { app in
            let kid = app.browser(), busyKid = app.browser(), adult = app.browser(), busyAdult = app.browser(), quiet = app.browser()
            let leitora = app.browser()
            let fifteen = app.clock.today.adding(days: -15 * 366).description
            try await kid.signUp("kid", birthDate: fifteen)
            try await busyKid.signUp("busykid", birthDate: fifteen)
            try await adult.signUp("adult")
            try await busyAdult.signUp("busyadult")
            try await quiet.signUp("quiet")
            try await leitora.signUp("leitora", birthDate: fifteen)
            _ = try await LearnLibrary.importFiles(app: app.app)
            let users = try await User.query(on: app.db).all()
            for user in users {
                user.timeZone = "UTC"
                if user.username == "leitora" { user.languageCode = "pt-PT" }
                if user.username == "adult" {
                    user.homeLat = 55.68
                    user.homeLon = 12.57
                }
                try await user.save(on: app.db)
            }
            let adultID = try #require(users.first { $0.username == "adult" }?.id)
            try await UserSport(userID: adultID, sport: .volleyball, skill: .intermediate).create(on: app.db)
            #expect(
                try await quiet.post(
                    "/settings/notifications", [("email_shown", "1")] + NotificationTopic.allCases.filter { $0 != .nudges }.map { ("in_app[]", $0.rawValue) },
                    csrfFrom: "/settings/notifications"
                ).status == .seeOther)

            // Two Mondays on (accounts must be a week old): last week is the one before that Monday.
            let monday = CalendarPeriod.week.start(zone: "UTC", now: app.clock.now).addingTimeInterval(14 * 86_400)
            app.clock.set(monday.addingTimeInterval(-3 * 86_400))
            func log(_ browser: Browser, minutes: Int, daysBeforeMonday: Int) async throws {
                let day = LocalTime.parts(of: monday.addingTimeInterval(Double(-daysBeforeMonday) * 86_400), zone: "UTC").day
                let made = try await browser.post(
                    "/workouts/new", [("sport", "running"), ("day", day), ("time", "07:00"), ("minutes", String(minutes)), ("visibility", "private")],
                    csrfFrom: "/workouts/new")
                #expect(made.status == .seeOther)
            }
            try await log(kid, minutes: 100, daysBeforeMonday: 4)
            try await log(leitora, minutes: 100, daysBeforeMonday: 4)
            for days in 4...6 { try await log(busyKid, minutes: 150, daysBeforeMonday: days) }
            try await log(adult, minutes: 100, daysBeforeMonday: 4)
            try await log(busyAdult, minutes: 160, daysBeforeMonday: 5)
            // A public volleyball game near the adult's home this week, from someone else.
            _ = try await busyAdult.createPickup(sport: "volleyball", days: 4)

            app.clock.set(monday.addingTimeInterval(7.5 * 3600))
            try await app.app.jobs.runDue(app.app)
            #expect(try await Notification.query(on: app.db).filter(\.$kind == "nudge").count() == 0, "not before eight")
            app.clock.set(monday.addingTimeInterval(8.5 * 3600))
            try await app.app.jobs.runDue(app.app)
            let notes = try await Notification.query(on: app.db).filter(\.$kind == "nudge").with(\.$recipient).all()
            #expect(Set(notes.map(\.recipient.username)) == ["kid", "adult", "leitora"])
            let kidNote = try #require(notes.first { $0.recipient.username == "kid" })
            #expect(kidNote.text.hasPrefix("Last week: 100 active minutes. Moving an hour a day"))
            let adultNote = try #require(notes.first { $0.recipient.username == "adult" })
            #expect(adultNote.text.contains("volleyball pick-up game"), "\(adultNote.text)")
            #expect(adultNote.link.hasPrefix("/games/"))
            // A Portuguese reader is sent to an article translated into Portuguese, named in Portuguese.
            let portuguese = try #require(notes.first { $0.recipient.username == "leitora" })
            let slug = try #require(portuguese.link.split(separator: "/").last.map(String.init), "\(portuguese.link)")
            let translated = try await LearnTranslation.query(on: app.db).filter(\.$language == "pt-PT").with(\.$article).all()
            let title = try #require(translated.first { $0.article.slug == slug }?.title, "\(slug) has no Portuguese version")
            #expect(portuguese.text.contains(title), "\(portuguese.text)")

            // Again in the same hour, or a second process: nothing more.
            try await WeeklyNudge.send(hourStarting: monday.addingTimeInterval(8 * 3600), now: app.clock.now, on: app.db)
            #expect(try await Notification.query(on: app.db).filter(\.$kind == "nudge").count() == 3)
        }
    }
}
