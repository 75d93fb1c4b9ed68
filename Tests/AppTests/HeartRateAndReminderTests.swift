@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Continuous heart rate")
struct HeartRatePageTests {
    @Test func bandSummaryRestingAndTheSwitch() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            #expect(try await ana.get("/heart-rate").contains("Continuous heart rate is switched off"))
            #expect(try await ana.saveProfile(["continuous_hr": "on"]).status == .seeOther)

            // Five hours (08:00 to 13:00 in Copenhagen), every 5 s, between 80 and 99 bpm, with ten
            // calm minutes at 52 half an hour ago; the first half hour, at 45, is a swim she logged.
            let token = try await ana.deviceToken()
            let now = app.clock.milliseconds / 1000 * 1000
            var samples: [String] = []
            for index in 0..<3600 {
                let t = now - 18_000_000 + Int64(index) * 5000
                let calm = t >= now - 1_800_000 && t < now - 1_200_000
                let swim = t < now - 16_200_000
                samples.append(#"{"t": \#(t), "bpm": \#(swim ? 45 : calm ? 52 : 80 + index % 20)}"#)
            }
            #expect(
                try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [\#(samples.joined(separator: ","))]}"#).status == .created)
            let swim = try await ana.post(
                "/workouts/new", [("sport", "swimming"), ("day", app.clock.today.description), ("time", "08:00"), ("minutes", "30")],
                csrfFrom: "/workouts/new")
            #expect(swim.status == .seeOther)

            let day = try await ana.get("/heart-rate")
            #expect(day.status == .ok)
            #expect(day.contains("Lowest 45 bpm, highest 99 bpm."))
            #expect(day.contains("the band is the lowest to highest"))
            // Not the swim's 45: a workout and the half hour after it are not rest.
            #expect(day.contains("Resting heart rate") && day.contains("<td>52 bpm</td>") && !day.contains("45 bpm</td>"))
            // Days read as days do everywhere else ("24 Nov 2026"), not as ISO dates.
            #expect(day.firstMatch(#"<tr><td>(\d{1,2} [A-Z][a-z]{2} \d{4})</td><td>52 bpm</td>"#) != nil)

            let lastHour = try #require(day.firstMatch(#"<a href="([^"]+)">Last hour</a>"#)).replacingOccurrences(of: "&amp;", with: "&")
            let hour = try await ana.get(lastHour)
            #expect(hour.contains("Lowest 52 bpm, highest 99 bpm."))
            #expect(hour.contains("Zoom in") && hour.contains("Zoom out"))
            // The chart can be dragged across: its wrapper names its span and Ana's time zone.
            #expect(hour.contains(#"data-select-range data-url="/heart-rate""#) && hour.contains(#"data-zone="Europe/Copenhagen""#))

            // A month reads the quarter-hour rollup: the same extremes and the same resting rate.
            let month = try #require(day.firstMatch(#"<a href="([^"]+)">30 days</a>"#)).replacingOccurrences(of: "&amp;", with: "&")
            let thirty = try await ana.get(month)
            #expect(thirty.contains("Lowest 45 bpm, highest 99 bpm."))
            #expect(thirty.contains("<td>52 bpm</td>"))
            #expect(try await rowCount("heart_rate_quarters", app.db) >= 8)

            // A day holding only a workout's heart rate gets no resting figure, and says why.
            let bo = app.browser()
            try await bo.signUp("bodil")
            #expect(try await bo.saveProfile(["continuous_hr": "on"]).status == .seeOther)
            let run = try await bo.multipart(
                "/workouts/import", fields: [],
                file: (
                    "files", "run.gpx", "application/gpx+xml", syntheticGPX(start: app.clock.now.addingTimeInterval(-3 * 86_400), seconds: 3600, heartRate: 145)
                ),
                csrfFrom: "/workouts/import")
            #expect(run.contains("1 file imported."))
            let boMonth = try await bo.get(month)
            #expect(boMonth.contains("Not enough heart rate outside workouts (0 min of the 4 h it takes)."))
            #expect(!boMonth.contains("bpm</td>"))

            let backwards = try await ana.get("/heart-rate?from=2026-11-02T10:00&to=2026-11-01T10:00")
            #expect(backwards.status == .unprocessableEntity && backwards.contains("The end must be after the start"))
            #expect(try await app.browser().get("/heart-rate").status == .seeOther)
        }
    }
}

@Suite("Reminders")
struct ReminderTests {
    @Test func remindersRepeatInTheCalendarFeedWithTheirAlarm() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let noDays = try await ana.post("/reminders", [("title", "Stretch"), ("time", "07:30"), ("alert", "10")], csrfFrom: "/reminders")
            #expect(noDays.status == .unprocessableEntity && noDays.contains("Choose at least one day"))
            let badTime = try await ana.post("/reminders", [("title", "Stretch"), ("time", "25:00"), ("days[]", "1"), ("alert", "7")], csrfFrom: "/reminders")
            #expect(badTime.status == .unprocessableEntity && badTime.contains("such as 07:30") && badTime.contains("from the list"))
            let added = try await ana.post(
                "/reminders", [("title", "Stretch; then run"), ("time", "07:30"), ("days[]", "1"), ("days[]", "4"), ("alert", "10")],
                csrfFrom: "/reminders")
            #expect(added.status == .seeOther)
            let list = try await ana.get("/reminders")
            #expect(list.contains("07:30, Mon, Thu") && list.contains("alert 10 min before"))

            let feedURL = try #require(list.firstMatch(#"(/calendar/[A-Za-z0-9_-]+\.ics)"#))
            // A team's feed, which teammates may be given, never carries personal reminders.
            let slug = try await ana.createTeam("Ana FC")
            let teamFeed = try await app.browser().get(feedURL + "?team=\(slug)")
            #expect(teamFeed.status == .ok && !teamFeed.contains("Stretch"))
            var feed = try await app.browser().get(feedURL)
            #expect(feed.status == .ok)
            #expect(feed.contains("SUMMARY:Stretch\\; then run"))
            #expect(feed.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,TH\r\n"))
            #expect(feed.firstMatch(#"DTSTART:(\d{8}T073000)\r\n"#) != nil, "a floating 07:30 start")
            #expect(feed.contains("TRIGGER:-PT10M"))

            let id = try #require(try await Reminder.query(on: app.db).first()?.requireID().uuidString.lowercased())
            let edited = try await ana.post(
                "/reminders/\(id)/edit", [("title", "Stretch"), ("time", "18:00"), ("days[]", "6"), ("alert", "0")],
                csrfFrom: "/reminders/\(id)/edit")
            #expect(edited.status == .seeOther)
            feed = try await app.browser().get(feedURL)
            #expect(feed.contains("BYDAY=SA") && !feed.contains("VALARM"))
            #expect(try await ana.post("/reminders/\(id)/toggle", [], csrfFrom: "/reminders").status == .seeOther)
            #expect(!(try await app.browser().get(feedURL).contains("Stretch")))

            let ben = app.browser()
            try await ben.signUp("ben")
            #expect(try await ben.get("/reminders/\(id)/edit").status == .notFound)
            #expect(try await ben.post("/reminders/\(id)/delete", [], csrfFrom: "/reminders").status == .notFound)
            let confirm = try await ana.get("/reminders/\(id)/delete")
            #expect(confirm.contains("Delete “Stretch”?"))
            #expect(try await ana.post("/reminders/\(id)/delete", [], csrfFrom: "/reminders/\(id)/delete").status == .seeOther)
            #expect(try await rowCount("reminders", app.db) == 0)
        }
    }
}
