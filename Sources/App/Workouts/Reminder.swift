import FieldhouseKit
import Fluent
import Foundation

/// "Stretch at 07:00 on Mondays and Thursdays": a weekly reminder that reaches the person's phone
/// through their calendar feed (a repeating event with an alarm).
final class Reminder: Model, @unchecked Sendable {
    static let schema = "reminders"
    static let maxPerPerson = 20
    static let alertChoices = [0, 5, 10, 30, 60]

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "title") var title: String
    /// "07:00", the person's own wall-clock time.
    @Field(key: "time") var time: String
    /// Days of the week, "1,4" (0 = Sunday … 6 = Saturday).
    @Field(key: "weekdays") var weekdays: String
    /// Minutes before; 0 for no alert.
    @Field(key: "alert_minutes") var alertMinutes: Int
    @Field(key: "enabled") var enabled: Bool
    /// The occurrence last sent by `ReminderJob`; set to the time of saving, so a reminder added
    /// at 07:10 for 07:00 waits for the next 07:00.
    @OptionalField(key: "last_sent_at") var lastSentAt: Date?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    var days: [Int] { weekdays.split(separator: ",").compactMap { Int($0) } }
}

extension Reminder {
    /// The reminder as a weekly event at its wall-clock time (floating, so it stays at 07:00
    /// through summer time), first on the next chosen day.
    func calendarEvent(zone: String, now: Date) throws -> ICalendar.Event? {
        let today = LocalTime.day(of: now, zone: zone)
        guard let first = (0..<7).map({ today.adding(days: $0) }).first(where: { days.contains($0.weekday) }) else { return nil }
        let hhmm = time.replacingOccurrences(of: ":", with: "")
        var event = ICalendar.Event(
            uid: "reminder-\(try requireID().uuidString.lowercased())@fieldhouse", start: now,
            durationMinutes: 15, summary: title, lastModified: updatedAt)
        event.floatingStart = first.description.replacingOccurrences(of: "-", with: "") + "T" + hhmm + "00"
        event.weekdays = days
        event.alarmMinutesBefore = alertMinutes > 0 ? alertMinutes : nil
        return event
    }
}
