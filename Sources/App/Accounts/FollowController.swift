import Fluent
import Vapor

/// Following people, follow requests, and friends (people who follow each other).
struct FollowController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(AccountPath.follow, use: follow)
        routes.post(AccountPath.unfollow, use: unfollow)
        routes.get(AccountPath.friends, use: friends)
        routes.post(AccountPath.approveFriend) { try await answer(req: $0, approve: true) }
        routes.post(AccountPath.declineFriend) { try await answer(req: $0, approve: false) }
    }

    func follow(req: Request) async throws -> Response {
        let viewer = try req.requireUser()
        let access = try await PersonAccess.load(req)
        let (target, relation) = (access.person, access.relation)
        guard !relation.isSelf else {
            throw Abort(.unprocessableEntity, reason: t("You cannot follow yourself."))
        }
        // Neither way across a block: the one blocked is told no more than that.
        if try await Block.between(viewer.requireID(), target.requireID(), on: req.db) {
            req.flash(.error, t("You can't follow {name}.", target.displayName))
            return req.redirect(to: Self.back(req, fallback: SiteURL.person(username: target.username).path))
        }
        if relation.viewerFollows == nil {
            let status = PersonAccess.followStatus(for: target, today: req.clock.today)
            do {
                try await Follow(follower: viewer.requireID(), followee: target.requireID(), status: status).create(on: req.db)
            } catch let error as any DatabaseError where error.isConstraintFailure {
                // A double click: the first request already made the follow.
            }
            req.flash(
                .success,
                status == .accepted
                    ? t("You now follow {name}.", target.displayName)
                    : t("Follow request sent. {name} will see it and can accept it.", target.displayName))
        }
        return req.redirect(to: Self.back(req, fallback: SiteURL.person(username: target.username).path))
    }

    func unfollow(req: Request) async throws -> Response {
        let viewer = try req.requireUser()
        let target = try await PersonAccess.load(req).person
        try await Follow.query(on: req.db)
            .filter(\.$follower.$id == viewer.requireID())
            .filter(\.$followee.$id == target.requireID())
            .delete()
        req.flash(.info, t("You no longer follow {name}.", target.displayName))
        return req.redirect(to: Self.back(req, fallback: SiteURL.person(username: target.username).path))
    }

    struct FriendsPage: Encodable {
        let layout: Layout
        let requests: [PersonCard]
        let friends: [PersonCard]
        let followBack: [PersonCard]
        let pager: Pager
        /// People the viewer blocked, by name only: they may no longer be visible otherwise.
        let blocked: [BlockedPerson]
    }

    struct BlockedPerson: Encodable {
        let displayName: String
        let unblockAction: String
    }

    func friends(req: Request) async throws -> View {
        let viewer = try req.requireUser()
        let viewerID = try viewer.requireID()
        let outgoing = try await Follow.query(on: req.db).filter(\.$follower.$id == viewerID).filter(\.$status == .accepted).all()
        let incoming = try await Follow.query(on: req.db).filter(\.$followee.$id == viewerID).all()
        let iFollow = Set(outgoing.map { $0.$followee.id })
        let acceptedFollowers = incoming.filter { $0.status == .accepted }.map { $0.$follower.id }
        let requestIDs = incoming.filter { $0.status == .pending }.map { $0.$follower.id }
        let friendIDs = acceptedFollowers.filter { iFollow.contains($0) }
        let followBackIDs = acceptedFollowers.filter { !iFollow.contains($0) }

        var pager = Pager(req: req, perPage: 50)
        let friendRows =
            friendIDs.isEmpty
            ? []
            : try await PersonLoader.select(on: req.db) {
                $0.where("id", .in, friendIDs).orderBy("search_name").offset(pager.offset).limit(pager.fetchLimit)
            }
        let friends = pager.finish(friendRows, at: .friends, query: [])
        let requests =
            requestIDs.isEmpty
            ? []
            : try await PersonLoader.select(on: req.db) {
                $0.where("id", .in, requestIDs).orderBy("search_name")
            }
        let followBack =
            followBackIDs.isEmpty
            ? []
            : try await PersonLoader.select(on: req.db) {
                $0.where("id", .in, followBackIDs).orderBy("search_name").limit(50)
            }

        let page = FriendsPage(
            layout: req.layout(title: t("Friends"), section: .people),
            requests: try await PersonCard.list(requests, viewer: viewer, today: req.clock.today, on: req.db),
            friends: try await PersonCard.list(friends, viewer: viewer, today: req.clock.today, on: req.db),
            followBack: try await PersonCard.list(followBack, viewer: viewer, today: req.clock.today, on: req.db),
            pager: pager,
            blocked: try await Block.query(on: req.db).filter(\.$blocker.$id == viewerID).with(\.$blocked).sort(\.$createdAt, .descending).limit(200).all()
                .map { BlockedPerson(displayName: $0.blocked.displayName, unblockAction: SiteURL.unblock(username: $0.blocked.username).path) }
        )
        return try await req.view.render("accounts/friends", page)
    }

    func answer(req: Request, approve: Bool) async throws -> Response {
        let viewer = try req.requireUser()
        let username = (req.parameters.get("username") ?? "").lowercased()
        guard let requester = try await User.query(on: req.db).filter(\.$username == username).first(),
            let follow = try await Follow.query(on: req.db)
                .filter(\.$follower.$id == requester.requireID())
                .filter(\.$followee.$id == viewer.requireID())
                .filter(\.$status == .pending).first()
        else { throw Abort(.notFound, reason: t("That follow request is no longer waiting.")) }
        if approve {
            follow.status = .accepted
            try await follow.update(on: req.db)
            req.flash(.success, t("{name} now follows you.", requester.displayName))
        } else {
            try await follow.delete(on: req.db)
            req.flash(.info, t("Request from {name} declined.", requester.displayName))
        }
        return req.redirect(to: .friends)
    }

    /// Back to the page the button was on when that page is ours, else a sensible default.
    static func back(_ req: Request, fallback: String) -> String {
        guard let back = try? req.content.get(String.self, at: "back") else { return fallback }
        let safe = SiteURL.safeNext(back)
        return safe == "/" && back != "/" ? fallback : safe
    }
}
