import Fluent
import Vapor

/// A coach's access to an athlete, and who coaches whom. Only an accepted grant counts, and it is
/// looked up on every request, so a revoked coach loses access at once.
struct AthleteAccess {
    let athlete: User

    /// The athlete named in the URL, if `coach` coaches them; 404 for anyone else, so usernames
    /// reveal nothing about who is coached.
    static func load(_ req: Request, coach: User) async throws -> AthleteAccess {
        guard let username = req.parameters.get("username"),
            let athlete = try await User.query(on: req.db).filter(\.$username == username.lowercased()).first(),
            try await coaches(coach.requireID(), athlete: athlete.requireID(), on: req.db)
        else {
            throw Abort(.notFound)
        }
        return AthleteAccess(athlete: athlete)
    }

    /// Whether `coach` may see `athlete`'s training.
    static func coaches(_ coach: UUID, athlete: UUID, on db: any Database) async throws -> Bool {
        try await CoachGrant.query(on: db).filter(\.$coach.$id == coach).filter(\.$athlete.$id == athlete)
            .filter(\.$status == .active).first() != nil
    }

    /// The athletes a coach has an active grant from, by name.
    static func athletes(of coach: UUID, on db: any Database) async throws -> [User] {
        let ids = try await CoachGrant.query(on: db).filter(\.$coach.$id == coach).filter(\.$status == .active).all().map(\.$athlete.id)
        guard !ids.isEmpty else { return [] }
        return try await User.query(on: db).filter(\.$id ~~ ids).sort(\.$displayName).all()
    }

    /// The people with an active grant from an athlete.
    static func coachIDs(of athlete: UUID, on db: any Database) async throws -> [UUID] {
        try await CoachGrant.query(on: db).filter(\.$athlete.$id == athlete).filter(\.$status == .active).all().map(\.$coach.id)
    }
}
