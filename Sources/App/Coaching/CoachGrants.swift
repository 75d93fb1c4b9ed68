import Fluent
import Vapor

/// Asking for and answering coaching requests, the same whichever side asks.
enum CoachGrants {
    enum Outcome {
        case asked
        /// The other side had already asked: asking back is accepting.
        case accepted
        case already(CoachGrant.Status)
    }

    /// `held`: the one asked is a child the asker may not reach; the request is kept, so the asker's
    /// lists read as for any request, and never shown to them. Asking again once allowed delivers it.
    static func ask(coach: User, athlete: User, by side: CoachGrant.Side, team: UUID?, held: Bool = false, now: Date, on db: any Database) async throws
        -> Outcome
    {
        let coachID = try coach.requireID(), athleteID = try athlete.requireID()
        if let existing = try await CoachGrant.query(on: db).filter(\.$coach.$id == coachID).filter(\.$athlete.$id == athleteID).first() {
            if existing.held && existing.requestedBy == side && !held {
                try await existing.delete(on: db)
                return try await ask(coach: coach, athlete: athlete, by: side, team: team, now: now, on: db)
            }
            guard existing.status == .pending, existing.requestedBy != side, !(existing.held && held) else { return .already(existing.status) }
            existing.held = false
            existing.status = .active
            existing.acceptedAt = now
            try await existing.save(on: db)
            try await Notification.send(
                to: [side == .coach ? athleteID : coachID], from: side == .coach ? coachID : athleteID, kind: .coachAccepted,
                text: side == .coach ? t("{name} now coaches you.", coach.displayName) : t("You now coach {name}.", athlete.displayName),
                link: (side == .coach ? SiteURL.coachSettings : .coach).path, on: db)
            return .accepted
        }
        try await CoachGrant(coach: coachID, athlete: athleteID, requestedBy: side, team: team, held: held).create(on: db)
        if held { return .asked }
        if side == .coach {
            try await Notification.send(
                to: [athleteID], from: coachID, kind: .coachRequest,
                text: t("{name} would like to coach you and see your training. Nothing is shared unless you accept.", coach.displayName),
                link: SiteURL.coachSettings.path, on: db)
        } else {
            try await Notification.send(
                to: [coachID], from: athleteID, kind: .coachRequest, text: t("{name} asks you to be their coach.", athlete.displayName),
                link: SiteURL.coach.path, on: db)
        }
        return .asked
    }
}
