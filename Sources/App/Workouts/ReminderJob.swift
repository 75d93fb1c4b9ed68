import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// Sends workout reminders at their time, on their weekdays, in their owner's time zone. The job
/// runs every minute; a reminder whose time passed while no server ran is sent if it is at most
/// `grace` late, and skipped after that (a 07:00 stretch reminder at noon helps nobody).
enum ReminderJob {
    static let grace: TimeInterval = 30 * 60

    static let kind = JobKind("workouts.reminders", every: 60) { run in
        try await send(now: run.now, on: run.db)
    }

    static func send(now: Date, on db: any Database) async throws {
        struct Row: Decodable {
            let id: UUID
            let user_id: UUID
            let title: String
            let time: String
            let weekdays: String
            let last_sent_at: Date?
            let time_zone: String
        }
        let rows = try await db.sql.raw(
            """
            SELECT r.id, r.user_id, r.title, r.time, r.weekdays, r.last_sent_at, u.time_zone
            FROM reminders r JOIN users u ON u.id = r.user_id
            WHERE r.enabled = \(bind: true)
            """
        ).all(decoding: Row.self)
        for row in rows {
            let days = Set(row.weekdays.split(separator: ",").compactMap { Int($0) })
            guard let due = latestOccurrence(days: days, time: row.time, zone: row.time_zone, atOrBefore: now),
                now.timeIntervalSince(due) <= grace, row.last_sent_at.map({ $0 < due }) ?? true
            else { continue }
            // Claimed before it is sent: two runs of this job at once (a retry meeting the next
            // minute's run, on two processes) cannot both send it.
            let claimed = try await db.sql.raw(
                """
                UPDATE reminders SET last_sent_at = \(bind: due)
                WHERE id = \(bind: row.id) AND (last_sent_at IS NULL OR last_sent_at < \(bind: due)) RETURNING id
                """
            ).all()
            guard !claimed.isEmpty else { continue }
            try await Notification.send(
                to: [row.user_id], from: nil, kind: .workoutReminder, text: t("Reminder: {title}", row.title), link: SiteURL.reminders.path, on: db)
        }
    }

    /// The latest time at or before `now` that `time` struck on one of `days` (0 = Sunday) in `zone`.
    static func latestOccurrence(days: Set<Int>, time: String, zone: String, atOrBefore now: Date) -> Date? {
        let today = LocalTime.day(of: now, zone: zone)
        for back in 0...7 {
            let day = today.adding(days: -back)
            guard days.contains(day.weekday), let instant = LocalTime.instant(day: day.description, time: time, zone: zone), instant <= now
            else { continue }
            return instant
        }
        return nil
    }
}
