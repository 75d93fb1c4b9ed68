import Fluent
import Vapor

/// A viewer's access to a league. A private league exists only for its manager and the members of
/// its teams; anyone else gets a 404.
struct LeagueAccess {
    let league: League
    /// The league's teams, invited or playing.
    let entries: [LeagueTeam]
    let isManager: Bool
    /// Teams of the league the viewer manages.
    let managedTeamIDs: Set<UUID>
    let memberTeamIDs: Set<UUID>

    static func load(_ req: Request) async throws -> LeagueAccess {
        let slug = (req.parameters.get("slug") ?? "").lowercased()
        guard let league = try await League.query(on: req.db).filter(\.$slug == slug).first() else { throw Abort(.notFound) }
        let entries = try await LeagueTeam.query(on: req.db).filter(\.$league.$id == league.requireID()).with(\.$team).all()
        var managed = Set<UUID>(), member = Set<UUID>()
        if let viewerID = req.currentUser?.id, !entries.isEmpty {
            let memberships = try await Membership.query(on: req.db).filter(\.$user.$id == viewerID)
                .filter(\.$team.$id ~~ entries.map { $0.$team.id }).all()
            member = Set(memberships.map { $0.$team.id })
            managed = Set(memberships.filter { $0.role.canManage }.map { $0.$team.id })
        }
        let isManager = req.currentUser?.id == league.$manager.id
        let activeMember = entries.contains { $0.status == .active && member.contains($0.$team.id) }
        // A private league exists only for its manager and the members of its teams.
        if league.isPrivate, !isManager, !activeMember, managed.isEmpty { throw Abort(.notFound) }
        return LeagueAccess(league: league, entries: entries, isManager: isManager, managedTeamIDs: managed, memberTeamIDs: member)
    }
}
