import Fluent
import Vapor

/// Joining, requests, leaving, roles and removals.
struct MembershipController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(TeamPath.joinTeam, use: join)
        routes.post(TeamPath.leaveTeam, use: leave)
        routes.post(TeamPath.approveRequest) { try await answer(req: $0, approve: true) }
        routes.post(TeamPath.declineRequest) { try await answer(req: $0, approve: false) }
        routes.post(TeamPath.changeRole, use: changeRole)
        routes.post(TeamPath.removeMember, use: remove)
    }

    struct JoinForm: Content {
        var message: String?
    }

    func join(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await TeamAccess.load(req)
        let team = access.team
        let teamID = try team.requireID(), userID = try user.requireID()
        guard !access.isMember else { return req.redirect(to: .team(slug: team.slug)) }
        try TeamAccess.requireAgeFits(team, user, today: req.clock.today)

        if access.canJoinNow {
            try await req.db.inTransaction { db in
                try await Membership(teamID: teamID, userID: userID, role: .player).create(on: db)
                try await TeamInvite.query(on: db).filter(\.$team.$id == teamID).filter(\.$invitee.$id == userID).delete()
                try await JoinRequest.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id == userID).delete()
            }
            req.flash(.success, t("Welcome to {team}!", team.name))
        } else if access.canRequest {
            let form = try req.content.decode(JoinForm.self)
            let message = AccountRules.collapseWhitespace(form.message ?? "")
            guard message.count <= 500 else {
                return try await TeamPage.refused(
                    access, req: req, typed: .init(message: String(message.prefix(2000))),
                    errors: ["message": t("Keep your message to the managers to 500 characters or fewer (it has {count}).", message.count)],
                    status: .unprocessableEntity)
            }
            try await req.db.inTransaction { db in
                try await JoinRequest(teamID: teamID, userID: userID, message: message.isEmpty ? nil : message).create(on: db)
                try await Notification.send(
                    to: try await Membership.managerIDs(of: teamID, on: db), from: userID, kind: .joinRequest,
                    text: t("{name} asked to join {team}", user.displayName, team.name), link: SiteURL.team(slug: team.slug).path, on: db
                )
            }
            req.flash(.success, t("Request sent. A manager of {team} will answer it.", team.name))
        } else if access.joinRequest != nil {
            req.flash(.info, t("Your request to join is waiting for a manager."))
        } else {
            throw Abort(.forbidden, reason: t("This team takes new players by invitation only."))
        }
        return req.redirect(to: .team(slug: team.slug))
    }

    func leave(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        let teamID = try access.team.requireID()
        if let request = access.joinRequest, access.membership == nil {
            // Leaving before being let in withdraws the request.
            try await request.delete(on: req.db)
            req.flash(.info, t("Your request to join {team} is withdrawn.", access.team.name))
            return req.redirect(to: .teams)
        }
        guard let membership = access.membership else { throw Abort(.notFound, reason: t("You are not a member of this team.")) }
        if membership.role == .owner, try await Self.ownerCount(teamID, on: req.db) == 1 {
            throw Abort(.conflict, reason: t("You are the team's only owner. Make another member an owner before you leave, or delete the team."))
        }
        try await Self.end(membership, on: req.db)
        req.flash(.info, t("You have left {team}.", access.team.name))
        return req.redirect(to: .teams)
    }

    func answer(req: Request, approve: Bool) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        let teamID = try access.team.requireID()
        guard let id = req.parameters.get("id", as: UUID.self),
            let request = try await JoinRequest.query(on: req.db).filter(\.$id == id).filter(\.$team.$id == teamID).with(\.$user).first()
        else { throw Abort(.notFound, reason: t("That request is no longer waiting.")) }
        try await req.db.inTransaction { db in
            if approve {
                try await Membership(teamID: teamID, userID: request.$user.id, role: .player).create(on: db)
                try await Notification.send(
                    to: [request.$user.id], from: nil, kind: .approved,
                    text: t("You are now a member of {team}", access.team.name), link: SiteURL.team(slug: access.team.slug).path, on: db
                )
            }
            try await request.delete(on: db)
        }
        req.flash(
            approve ? .success : .info,
            approve
                ? t("{name} is now a player in the team.", request.user.displayName)
                : t("Request from {name} declined.", request.user.displayName))
        return req.redirect(to: .team(slug: access.team.slug))
    }

    struct RoleForm: Content {
        var role: String?
    }

    func changeRole(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        let (membership, member) = try await Self.member(req, access: access)
        guard let role = Membership.Role(rawValue: try req.content.decode(RoleForm.self).role ?? "") else {
            throw Abort(.unprocessableEntity, reason: t("Choose owner, manager, coach or player."))
        }
        // Only owners make or unmake owners.
        if role == .owner || membership.role == .owner, !access.isOwner {
            throw Abort(.forbidden, reason: t("Only an owner can change who owns the team."))
        }
        if membership.role == .owner, role != .owner, try await Self.ownerCount(access.team.requireID(), on: req.db) == 1 {
            throw Abort(.conflict, reason: t("A team needs at least one owner. Make someone else an owner first."))
        }
        guard role != membership.role else { return req.redirect(to: .team(slug: access.team.slug)) }
        membership.role = role
        try await req.db.inTransaction { db in
            try await membership.update(on: db)
            try await Notification.send(
                to: [membership.$user.id], from: nil, kind: .roleChanged,
                text: Self.nowRoleNotice(role, team: access.team.name), link: SiteURL.team(slug: access.team.slug).path,
                on: db
            )
        }
        req.flash(.success, Self.nowRoleFlash(role, name: member.displayName))
        return req.redirect(to: .team(slug: access.team.slug))
    }

    func remove(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        let (membership, member) = try await Self.member(req, access: access)
        if membership.role == .owner {
            guard access.isOwner else { throw Abort(.forbidden, reason: t("Only an owner can remove an owner.")) }
            if try await Self.ownerCount(access.team.requireID(), on: req.db) == 1 {
                throw Abort(.conflict, reason: t("A team needs at least one owner. Make someone else an owner first."))
            }
        }
        try await Self.end(membership, on: req.db)
        req.flash(.info, t("{name} is no longer in the team.", member.displayName))
        return req.redirect(to: .team(slug: access.team.slug))
    }

    static func member(_ req: Request, access: TeamAccess) async throws -> (Membership, User) {
        let username = (req.parameters.get("username") ?? "").lowercased()
        guard
            let membership = try await Membership.query(on: req.db)
                .filter(\.$team.$id == access.team.requireID())
                .join(User.self, on: \Membership.$user.$id == \User.$id)
                .filter(User.self, \.$username == username)
                .first(),
            let user = try? membership.joined(User.self)
        else { throw Abort(.notFound, reason: t("That person is not in the team.")) }
        return (membership, user)
    }

    /// Ends a membership and everything it gave: leaving or being removed takes away the team's games
    /// at once, and coaching that came through the team (a coach asking every member) ends with it.
    static func end(_ membership: Membership, on db: any Database) async throws {
        let (userID, teamID) = (membership.$user.id, membership.$team.id)
        try await db.inTransaction { db in
            try await membership.delete(on: db)
            for observer in Features.membershipObservers {
                try await observer.membershipEnded(userID: userID, teamID: teamID, on: db)
            }
        }
    }

    /// "You are now a coach of …", for the person whose role changed.
    static func nowRoleNotice(_ role: Membership.Role, team: String) -> String {
        switch role {
        case .owner: t("You are now an owner of {team}", team)
        case .manager: t("You are now a manager of {team}", team)
        case .coach: t("You are now a coach of {team}", team)
        case .player: t("You are now a player of {team}", team)
        }
    }

    /// "Ana is now a coach.", for the manager who changed it.
    static func nowRoleFlash(_ role: Membership.Role, name: String) -> String {
        switch role {
        case .owner: t("{name} is now an owner.", name)
        case .manager: t("{name} is now a manager.", name)
        case .coach: t("{name} is now a coach.", name)
        case .player: t("{name} is now a player.", name)
        }
    }

    static func ownerCount(_ teamID: UUID, on db: any Database) async throws -> Int {
        try await Membership.query(on: db).filter(\.$team.$id == teamID).filter(\.$role == .owner).count()
    }
}
