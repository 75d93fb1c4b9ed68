import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Who may watch a recording live. The owner always; anyone else only while it records, only
/// through the share the owner chose for it, and only as the owner's age allows: under 16, their
/// coaches and the mutual followers they picked, never a team or all followers. The rule is read
/// again at every page and every event stream, so a share turned off or a follow ended stops it.
/// Everyone else gets a 404, so a workout id reveals nothing.
struct LiveAccess {
    let workout: Workout
    let owner: User
    let share: LiveShare?
    let isOwner: Bool

    /// Hours after its start a recording that never finished stops counting as live (a phone lost
    /// mid-run must not show its owner as out running for days).
    static let staleAfter: TimeInterval = 12 * 3600

    /// The recording with this id, if the viewer may watch it; 404 otherwise (also once it has ended:
    /// the workout page's own rules take over then, see `LiveController`).
    static func load(_ req: Request, id raw: String?) async throws -> LiveAccess {
        guard let raw, let id = UUID(uuidString: raw), let workout = try await Workout.find(id, on: req.db),
            let owner = try await User.find(workout.$user.id, on: req.db)
        else { throw Abort(.notFound) }
        // Finished (or stale), a recording is a workout: its page decides who sees it, the owner too.
        guard isLive(workout, now: req.now) else { throw Abort(.notFound) }
        let share = try await LiveShare.query(on: req.db).filter(\.$workout.$id == id).first()
        let viewer = req.currentUser
        if viewer?.id == owner.id { return LiveAccess(workout: workout, owner: owner, share: share, isOwner: true) }
        guard let viewer, let share,
            try await allows(share, owner: owner, viewer: viewer, today: req.clock.today, on: req.db)
        else { throw Abort(.notFound) }
        return LiveAccess(workout: workout, owner: owner, share: share, isOwner: false)
    }

    static func isLive(_ workout: Workout, now: Date) -> Bool {
        workout.endMS == nil && Double(workout.startMS) / 1000 > now.timeIntervalSince1970 - staleAfter
    }

    /// The rule of one share for one viewer who is not its owner.
    static func allows(_ share: LiveShare, owner: User, viewer: User, today: CalendarDate, on db: any Database) async throws -> Bool {
        guard let viewerID = viewer.id, let ownerID = owner.id, let audience = share.audience else { return false }
        let under16 = owner.isUnder16(on: today)
        switch audience {
        case .coaches:
            return try await AthleteAccess.coaches(viewerID, athlete: ownerID, on: db)
        case .people:
            let chosen = try await LiveSharePerson.query(on: db).filter(\.$share.$id == share.requireID()).filter(\.$user.$id == viewerID).first()
            guard chosen != nil else { return false }
            return try await PeopleQueries.friendIDs(of: ownerID, on: db).contains(viewerID)
        case .followers:
            guard !under16 else { return false }
            return try await Follow.query(on: db).filter(\.$follower.$id == viewerID).filter(\.$followee.$id == ownerID)
                .filter(\.$status == .accepted).first() != nil
        case .team:
            guard !under16, let teamID = share.teamID else { return false }
            let members = try await Membership.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id ~~ [ownerID, viewerID]).count()
            return members == 2
        }
    }

    /// What a person may choose for a recording: the audiences their age allows, and whether a
    /// team or chosen people are theirs to choose. Nil when allowed; otherwise the reason.
    static func refusal(
        _ audience: LiveShare.Audience, team: UUID?, people: [UUID], owner: User, today: CalendarDate, on db: any Database
    ) async throws -> String? {
        let ownerID = try owner.requireID()
        let under16 = owner.isUnder16(on: today)
        switch audience {
        case .coaches:
            return nil
        case .followers where under16, .team where under16:
            return t("Under 16, a recording can be shared live only with your coaches or with friends you choose.")
        case .followers:
            return nil
        case .team:
            guard let team, try await Membership.query(on: db).filter(\.$team.$id == team).filter(\.$user.$id == ownerID).first() != nil else {
                return t("Choose one of your teams.")
            }
            return nil
        case .people:
            guard !people.isEmpty else { return t("Choose at least one person.") }
            let friends = Set(try await PeopleQueries.friendIDs(of: ownerID, on: db))
            guard people.allSatisfy(friends.contains) else {
                return t("Only people who follow you and whom you follow back can be chosen.")
            }
            return nil
        }
    }
}
