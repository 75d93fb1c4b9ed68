import FieldhouseKit
import Fluent
import Foundation

extension Coaching {
    /// Sessions the person's coaches planned (only coaches they still have), as all-day events,
    /// from 60 days back.
    static func calendarEvents(for ownerID: UUID, timeZone: String, format: Format, now: Date, on db: any Database) async throws -> [ICalendar.Event] {
        let coaches = try await AthleteAccess.coachIDs(of: ownerID, on: db)
        guard !coaches.isEmpty else { return [] }
        let since = LocalTime.day(of: now, zone: timeZone).adding(days: -60).description
        let plans = try await PlannedWorkout.query(on: db).filter(\.$athlete.$id == ownerID)
            .filter(\.$coach.$id ~~ coaches).filter(\.$day >= since).with(\.$coach).all()
        return try plans.map { plan in
            let amount = [plan.duration.map { Format.duration($0) }, plan.distance.map { format.distance($0) }].compactMap { $0 }
            var event = ICalendar.Event(
                uid: "plan-\(try plan.requireID().uuidString.lowercased())@fieldhouse", start: now, durationMinutes: 0,
                summary: "\((WorkoutSport(rawValue: plan.sport) ?? .other).label) \(amount.joined(separator: ", "))",
                description: [plan.description, t("Planned by {name}", plan.coach.displayName)].filter { !$0.isEmpty }.joined(separator: "\n"),
                lastModified: plan.createdAt)
            event.allDay = plan.day.replacingOccurrences(of: "-", with: "")
            return event
        }
    }
}
