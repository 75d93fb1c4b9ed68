import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Runs a person's readings through `CyclingEligibility` and keeps the result: the status row, each
/// transition, and a note when the person becomes eligible. Only for people who turned rewards on
/// (`/rewards`): without a status row, readings are not looked at and nothing is kept.
enum CyclingTracker {
    /// Applies `events` (any order) and the time passed until `now`; returns the status after (nil
    /// when the person has not turned rewards on). Two requests of one person at once (two devices)
    /// must not lose each other's readings, so the row is written only if it still holds what was
    /// read, and read again otherwise.
    @discardableResult
    static func advance(
        _ userID: UUID, timeZone zone: String, events: [CyclingEligibility.Event], now: Date, rules: CyclingEligibility.Rules, on db: any Database
    ) async throws -> CyclingEligibility.Status? {
        let sorted = events.sorted { $0.time < $1.time }
        for _ in 0..<5 {
            guard let row = try await CyclingStatus.query(on: db).filter(\.$user.$id == userID).first() else { return nil }
            var status = row.status
            let before = row.statusJSON
            let made = CyclingEligibility.advance(
                &status, events: sorted, now: Int64(now.timeIntervalSince1970 * 1000), rules: rules,
                endOfDay: { ms in Int64(LocalTime.endOfDay(containing: Date(timeIntervalSince1970: Double(ms) / 1000), zone: zone).timeIntervalSince1970 * 1000)
                })
            let fresh = CyclingStatus(user: userID)
            fresh.status = status
            if fresh.statusJSON == before { return status }
            let stored = try await db.transaction { db -> Bool in
                let sql = db as! any SQLDatabase
                let updated = try await sql.raw(
                    "UPDATE cycling_statuses SET status = \(bind: fresh.statusJSON), updated_at = \(bind: now) WHERE id = \(bind: row.requireID()) AND status = \(bind: before) RETURNING id"
                ).all()
                guard !updated.isEmpty else { return false }
                for transition in made { try await CyclingTransition(user: userID, transition: transition).create(on: db) }
                if let eligible = made.last(where: { $0.to == .cyclingEligible && !$0.from.isEligible }) {
                    try await Notification.send(
                        to: [userID], from: nil, kind: .rewardEligible,
                        text: "You're cycling: check in at a partner place today for its reward (\(eligible.cause)).",
                        link: SiteURL.myRewards.path, on: db)
                }
                return true
            }
            if stored { return status }
        }
        throw Abort(.serviceUnavailable, reason: "Your cycling status is being updated by another request; try again.")
    }
}

extension CyclingTracker {
    /// Turns rewards on (a fresh status) or off (the status and its history deleted).
    static func set(_ on: Bool, for userID: UUID, on db: any Database) async throws {
        try await db.transaction { db in
            if on {
                guard try await CyclingStatus.query(on: db).filter(\.$user.$id == userID).first() == nil else { return }
                try await CyclingStatus(user: userID).create(on: db)
            } else {
                try await CyclingStatus.query(on: db).filter(\.$user.$id == userID).delete()
                try await CyclingTransition.query(on: db).filter(\.$user.$id == userID).delete()
            }
        }
    }
}
