import FieldhouseKit
import Fluent
import Foundation

extension Workouts {
    /// Each enabled reminder, repeating on its days with its alert.
    static func calendarEvents(for ownerID: UUID, timeZone: String, format: Format, now: Date, on db: any Database) async throws -> [ICalendar.Event] {
        try await Reminder.query(on: db).filter(\.$user.$id == ownerID).filter(\.$enabled == true).all()
            .compactMap { try $0.calendarEvent(zone: timeZone, now: now) }
    }
}
