import FieldhouseKit
import Fluent
import Vapor

/// What one viewer may see and do with one team. Every team route and every list of teams asks
/// here, so a private team cannot leak through a page, a search or a league.
struct TeamAccess {
    let team: Team
    let viewer: User?
    let membership: Membership?
    let joinRequest: JoinRequest?
    /// An invitation addressed to the viewer by username.
    let invite: TeamInvite?

    var isMember: Bool { membership != nil }
    var role: Membership.Role? { membership?.role }
    var canSee: Bool { TeamAccess.isListed(team) || isMember || invite != nil }
    var canManage: Bool { role?.canManage ?? false }
    var isOwner: Bool { role == .owner }
    /// The roster of a public team is public; otherwise only members see who plays.
    var canSeeRoster: Bool { isMember || team.privacy == .public }
    /// Non-members of protected and private teams see only a rough area.
    var canSeeExactLocation: Bool { isMember || team.privacy == .public }
    var canJoinNow: Bool { viewer != nil && !isMember && (team.privacy == .public || invite != nil) }
    var canRequest: Bool { viewer != nil && !isMember && invite == nil && team.privacy == .protected && joinRequest == nil }

    /// Loads the team named in the URL for the current viewer, or 404 when they may not know it exists.
    static func load(_ req: Request, slug: String? = nil) async throws -> TeamAccess {
        let slug = (slug ?? req.parameters.get("slug") ?? "").lowercased()
        guard let team = try await Team.query(on: req.db).filter(\.$slug == slug).first() else {
            throw Abort(.notFound)
        }
        let access = try await TeamAccess.of(team, viewer: req.currentUser, on: req.db)
        guard access.canSee else { throw Abort(.notFound) }
        return access
    }

    static func of(_ team: Team, viewer: User?, on db: any Database) async throws -> TeamAccess {
        guard let viewerID = viewer?.id, let teamID = team.id else {
            return TeamAccess(team: team, viewer: viewer, membership: nil, joinRequest: nil, invite: nil)
        }
        let membership = try await Membership.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id == viewerID).first()
        let request = membership != nil ? nil : try await JoinRequest.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id == viewerID).first()
        let invite =
            membership != nil
            ? nil
            : try await TeamInvite.query(on: db).filter(\.$team.$id == teamID).filter(\.$invitee.$id == viewerID)
                .filter(\.$held == false).first()
        return TeamAccess(team: team, viewer: viewer, membership: membership, joinRequest: request, invite: invite)
    }

    /// For actions only managers may take; others get 403 (they can see the team, so 404 would lie).
    func requireManager() throws {
        guard canManage else { throw Abort(.forbidden, reason: t("Only the team's managers can do that.")) }
    }

    /// A team for an age group takes nobody outside it, at every door: a request, a link, an
    /// invitation accepted.
    static func requireAgeFits(_ team: Team, _ user: User, today: CalendarDate) throws {
        if let refusal = ageRefusal(team, user, today: today) { throw Abort(.forbidden, reason: refusal) }
    }

    /// Why `user` cannot join `team` for their age, or nil when they can.
    static func ageRefusal(_ team: Team, _ user: User, today: CalendarDate) -> String? {
        let group = AgeGroup(rawValue: team.ageGroup) ?? .any
        return user.fits(group, today: today) ? nil : t("{team} is for the age group {group}, so it cannot take you.", team.name, group.label)
    }
}

extension TeamAccess {
    /// Public and protected teams appear in search and lists; private ones never do.
    static func isListed(_ team: Team) -> Bool { team.privacy != .private }

    /// Teams the viewer may see among `teams`: listed ones and those they belong to or are invited to.
    static func visible(_ teams: [Team], viewer: User?, on db: any Database) async throws -> [Team] {
        let hidden = teams.filter { !isListed($0) }.compactMap(\.id)
        guard !hidden.isEmpty else { return teams }
        var allowed = Set<UUID>()
        if let viewerID = viewer?.id {
            allowed.formUnion(try await Membership.query(on: db).filter(\.$user.$id == viewerID).filter(\.$team.$id ~~ hidden).all().map { $0.$team.id })
            allowed.formUnion(
                try await TeamInvite.query(on: db).filter(\.$invitee.$id == viewerID).filter(\.$team.$id ~~ hidden)
                    .filter(\.$held == false).all().map { $0.$team.id })
        }
        return teams.filter { isListed($0) || allowed.contains($0.id!) }
    }
}
