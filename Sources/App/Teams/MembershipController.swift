import Fluent
import Vapor

/// Joining, requests, leaving, roles and removals.
struct MembershipController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let team = routes.grouped("teams", ":slug")
        team.post("join", use: join)
        team.post("leave", use: leave)
        team.post("requests", ":id", "approve") { try await answer(req: $0, approve: true) }
        team.post("requests", ":id", "decline") { try await answer(req: $0, approve: false) }
        team.post("members", ":username", "role", use: changeRole)
        team.post("members", ":username", "remove", use: remove)
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

        if access.canJoinNow {
            try await req.db.transaction { db in
                try await Membership(teamID: teamID, userID: userID, role: .player).create(on: db)
                try await TeamInvite.query(on: db).filter(\.$team.$id == teamID).filter(\.$invitee.$id == userID).delete()
                try await JoinRequest.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id == userID).delete()
            }
            req.flash(.success, "Welcome to \(team.name)!")
        } else if access.canRequest {
            let form = try req.content.decode(JoinForm.self)
            let message = AccountRules.collapseWhitespace(form.message ?? "")
            guard message.count <= 500 else {
                throw Abort(.unprocessableEntity, reason: "Keep your message to the managers to 500 characters or fewer.")
            }
            try await req.db.transaction { db in
                try await JoinRequest(teamID: teamID, userID: userID, message: message.isEmpty ? nil : message).create(on: db)
                try await Notification.send(
                    to: try await Membership.managerIDs(of: teamID, on: db), from: userID, kind: .joinRequest,
                    text: "\(user.displayName) asked to join \(team.name)", link: SiteURL.team(slug: team.slug).path, on: db
                )
            }
            req.flash(.success, "Request sent. A manager of \(team.name) will answer it.")
        } else if access.joinRequest != nil {
            req.flash(.info, "Your request to join is waiting for a manager.")
        } else {
            throw Abort(.forbidden, reason: "This team takes new players by invitation only.")
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
            req.flash(.info, "Your request to join \(access.team.name) is withdrawn.")
            return req.redirect(to: .teams)
        }
        guard let membership = access.membership else { throw Abort(.notFound, reason: "You are not a member of this team.") }
        if membership.role == .owner, try await Self.ownerCount(teamID, on: req.db) == 1 {
            throw Abort(.conflict, reason: "You are the team's only owner. Make another member an owner before you leave, or delete the team.")
        }
        try await Self.end(membership, on: req.db)
        req.flash(.info, "You have left \(access.team.name).")
        return req.redirect(to: .teams)
    }

    func answer(req: Request, approve: Bool) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        let teamID = try access.team.requireID()
        guard let id = req.parameters.get("id", as: UUID.self),
            let request = try await JoinRequest.query(on: req.db).filter(\.$id == id).filter(\.$team.$id == teamID).with(\.$user).first()
        else { throw Abort(.notFound, reason: "That request is no longer waiting.") }
        try await req.db.transaction { db in
            if approve {
                try await Membership(teamID: teamID, userID: request.$user.id, role: .player).create(on: db)
                try await Notification.send(
                    to: [request.$user.id], from: nil, kind: .approved,
                    text: "You are now a member of \(access.team.name)", link: SiteURL.team(slug: access.team.slug).path, on: db
                )
            }
            try await request.delete(on: db)
        }
        req.flash(
            approve ? .success : .info,
            approve
                ? "\(request.user.displayName) is now a player in the team."
                : "Request from \(request.user.displayName) declined.")
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
            throw Abort(.unprocessableEntity, reason: "Choose owner, manager, coach or player.")
        }
        // Only owners make or unmake owners.
        if role == .owner || membership.role == .owner, !access.isOwner {
            throw Abort(.forbidden, reason: "Only an owner can change who owns the team.")
        }
        if membership.role == .owner, role != .owner, try await Self.ownerCount(access.team.requireID(), on: req.db) == 1 {
            throw Abort(.conflict, reason: "A team needs at least one owner. Make someone else an owner first.")
        }
        guard role != membership.role else { return req.redirect(to: .team(slug: access.team.slug)) }
        membership.role = role
        try await req.db.transaction { db in
            try await membership.update(on: db)
            try await Notification.send(
                to: [membership.$user.id], from: nil, kind: .roleChanged,
                text: "You are now \(role == .owner ? "an" : "a") \(role.rawValue) of \(access.team.name)", link: SiteURL.team(slug: access.team.slug).path,
                on: db
            )
        }
        req.flash(.success, "\(member.displayName) is now \(role == .owner ? "an" : "a") \(role.rawValue).")
        return req.redirect(to: .team(slug: access.team.slug))
    }

    func remove(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await TeamAccess.load(req)
        try access.requireManager()
        let (membership, member) = try await Self.member(req, access: access)
        if membership.role == .owner {
            guard access.isOwner else { throw Abort(.forbidden, reason: "Only an owner can remove an owner.") }
            if try await Self.ownerCount(access.team.requireID(), on: req.db) == 1 {
                throw Abort(.conflict, reason: "A team needs at least one owner. Make someone else an owner first.")
            }
        }
        try await Self.end(membership, on: req.db)
        req.flash(.info, "\(member.displayName) is no longer in the team.")
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
        else { throw Abort(.notFound, reason: "That person is not in the team.") }
        return (membership, user)
    }

    /// Ends a membership and everything it gave: leaving or being removed takes away the team's games
    /// at once, and coaching that came through the team (a coach asking every member) ends with it.
    static func end(_ membership: Membership, on db: any Database) async throws {
        let (userID, teamID) = (membership.$user.id, membership.$team.id)
        try await db.transaction { db in
            try await membership.delete(on: db)
            for observer in Features.membershipObservers {
                try await observer.membershipEnded(userID: userID, teamID: teamID, on: db)
            }
        }
    }

    static func ownerCount(_ teamID: UUID, on db: any Database) async throws -> Int {
        try await Membership.query(on: db).filter(\.$team.$id == teamID).filter(\.$role == .owner).count()
    }
}
