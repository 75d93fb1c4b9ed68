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
            let stored = try await db.inTransaction { db -> Bool in
                let sql = db.sql
                let updated = try await sql.raw(
                    "UPDATE cycling_statuses SET status = \(bind: fresh.statusJSON), updated_at = \(bind: now) WHERE id = \(bind: row.requireID()) AND status = \(bind: before) RETURNING id"
                ).all()
                guard !updated.isEmpty else { return false }
                for transition in made { try await CyclingTransition(user: userID, transition: transition).create(on: db) }
                if let eligible = made.last(where: { $0.to == .cyclingEligible && !$0.from.isEligible }) {
                    try await Notification.send(
                        to: [userID], from: nil, kind: .rewardEligible,
                        text: t("You're cycling: check in at a partner place today for its reward ({cause}).", Self.causeText(eligible.cause)),
                        link: SiteURL.myRewards.path, on: db)
                }
                return true
            }
            if stored { return status }
        }
        throw Abort(.serviceUnavailable, reason: t("Your cycling status is being updated by another request; try again."))
    }
}

extension CyclingTracker {
    /// Turns rewards on (a fresh status) or off (the status and its history deleted).
    static func set(_ on: Bool, for userID: UUID, on db: any Database) async throws {
        try await db.inTransaction { db in
            if on {
                guard try await CyclingStatus.query(on: db).filter(\.$user.$id == userID).first() == nil else { return }
                try await CyclingStatus(user: userID).create(on: db)
            } else {
                try await CyclingStatus.query(on: db).filter(\.$user.$id == userID).delete()
                try await CyclingTransition.query(on: db).filter(\.$user.$id == userID).delete()
                try await RideFixes.forget(userID, on: db)
            }
        }
    }
}

extension CyclingTracker {
    /// `CyclingEligibility.minutesText` ("1 minute", "20 minutes") in the reader's language.
    static func minutesText(_ seconds: Double) -> String {
        tn("{count} minute", "{count} minutes", Int((seconds / 60).rounded()))
    }

    /// A transition's cause, as `CyclingEligibility` words it (in English, and stored so), in the
    /// reader's language. A cause not recognised here is shown as it was stored.
    static func causeText(_ cause: String) -> String {
        /// "20 minutes" (as `CyclingEligibility.minutesText` writes it) in the reader's language.
        func minutes(_ text: Substring) -> String? {
            let parts = text.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2, let m = Int(parts[0]), parts[1] == (m == 1 ? "minute" : "minutes") else { return nil }
            return tn("{count} minute", "{count} minutes", m)
        }
        /// The text between `prefix` and `suffix`, when `cause` is exactly that.
        func middle(_ prefix: String, _ suffix: String) -> Substring? {
            guard cause.hasPrefix(prefix), cause.hasSuffix(suffix), cause.count >= prefix.count + suffix.count else { return nil }
            return cause.dropFirst(prefix.count).dropLast(suffix.count)
        }
        switch cause {
        case "the day ended": return t("the day ended")
        case "the day ended while in a vehicle": return t("the day ended while in a vehicle")
        default: break
        }
        if let text = middle("cycling for ", ""), let m = minutes(text) { return t("cycling for {minutes}", m) }
        if let text = middle("no reading said otherwise within ", " of the vehicle"), let m = minutes(text) {
            return t("no reading said otherwise within {minutes} of the vehicle", m)
        }
        // "3 readings in a row …"
        guard let space = cause.firstIndex(of: " "), let n = Int(cause[..<space]) else { return cause }
        let head = "\(n) \(n == 1 ? "reading" : "readings") in a row"
        guard cause.hasPrefix(head) else { return cause }
        switch cause.dropFirst(head.count) {
        case " cycling":
            return tn("{count} reading in a row cycling", "{count} readings in a row cycling", n)
        case " that were not in a vehicle":
            return tn("{count} reading in a row that were not in a vehicle", "{count} readings in a row that were not in a vehicle", n)
        case " in a vehicle or faster than a bike":
            return tn("{count} reading in a row in a vehicle or faster than a bike", "{count} readings in a row in a vehicle or faster than a bike", n)
        case " not cycling; eligible until the end of the day":
            return tn(
                "{count} reading in a row not cycling; eligible until the end of the day",
                "{count} readings in a row not cycling; eligible until the end of the day", n)
        default:
            if let text = middle(head + " not cycling before ", " on the bike"), let m = minutes(text) {
                return tn(
                    "{count} reading in a row not cycling before {minutes} on the bike", "{count} readings in a row not cycling before {minutes} on the bike",
                    n, m)
            }
            return cause
        }
    }
}
