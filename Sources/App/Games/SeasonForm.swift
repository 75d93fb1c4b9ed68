import FieldhouseKit
import Foundation
import Vapor

/// The season form as typed: a round robin, once or home and away, one round a week on a weekday
/// at a time in the league's zone, from a first date on.
struct SeasonForm: Content {
    var legs: String?
    var first_day: String?
    var weekday: String?
    var time: String?
    var time_zone: String?
    var duration_minutes: String?

    /// Home and away, on the weekday a week from now at 19:00 in the manager's zone.
    init(zone: String, today: CalendarDate) {
        let start = today.adding(days: 7)
        legs = "double"
        first_day = start.description
        weekday = String(start.weekday)
        time = "19:00"
        time_zone = zone
        duration_minutes = "90"
    }

    /// Whether the form was sent (a preview asked for), rather than opened.
    var isFilled: Bool { first_day != nil }

    struct Valid {
        let double: Bool
        /// The first round's day: the chosen weekday on or after the first date.
        let firstRound: CalendarDate
        let time: String
        let timeZone: String
        let durationMinutes: Int

        /// When round `index` (from 0) kicks off: a week after the one before, at the same wall-clock time.
        func start(ofRound index: Int) -> Date? {
            LocalTime.instant(day: firstRound.adding(days: 7 * index).description, time: time, zone: timeZone)
        }
    }

    /// The values, or one message per field; the first round must start after `now`.
    func validate(now: Date) -> (Valid?, FieldErrors) {
        var errors: FieldErrors = [:]
        let double = legs == "double"
        if !["single", "double"].contains(legs ?? "") { errors["legs"] = t("Choose once or home and away") }
        let zone = (time_zone ?? "").trimmingCharacters(in: .whitespaces)
        if TimeZone.known(zone) == nil { errors["time_zone"] = t("Choose the league's time zone from the list") }
        let day = CalendarDate(iso: (first_day ?? "").trimmingCharacters(in: .whitespaces))
        if day == nil { errors["first_day"] = t("Enter a real date, for example 2026-11-26") }
        let weekday = Int((weekday ?? "").trimmingCharacters(in: .whitespaces)).flatMap { (0...6).contains($0) ? $0 : nil }
        if weekday == nil { errors["weekday"] = t("Choose a weekday from the list") }
        let time = (time ?? "").trimmingCharacters(in: .whitespaces)
        if LocalTime.instant(day: "2026-01-01", time: time, zone: "UTC") == nil { errors["time"] = t("Enter a time such as 19:30") }
        let duration = FormNumber.whole(
            duration_minutes, in: 5...1440, required: true, field: "duration_minutes",
            message: t("Enter a duration between 5 minutes and 24 hours (1,440 minutes), in whole minutes"), errors: &errors)
        guard errors.isEmpty, let day, let weekday, let duration else { return (nil, errors) }
        // A first date already gone is a mistake even when its weekday's next date is still to come.
        guard day >= LocalTime.day(of: now, zone: zone) else {
            return (nil, ["first_day": t("Choose a first date from today on, with a kick-off still to come")])
        }
        let valid = Valid(
            double: double, firstRound: day.adding(days: (weekday - day.weekday + 7) % 7), time: time, timeZone: zone, durationMinutes: duration)
        guard let start = valid.start(ofRound: 0), start > now else {
            return (nil, ["first_day": t("Choose a first date from today on, with a kick-off still to come")])
        }
        return (valid, [:])
    }
}
