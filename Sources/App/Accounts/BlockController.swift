import Fluent
import SQLKit
import Vapor

/// Blocking people (`Block`): from their profile, undone from the friends page. Blocking also ends
/// follows both ways (so the blocked person loses what only followers see, and `FollowController`
/// lets no follow cross a block), the team invitations between the two and any coaching.
struct BlockController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(AccountPath.block, use: block)
        routes.post(AccountPath.unblock, use: unblock)
    }

    func block(req: Request) async throws -> Response {
        let viewerID = try req.requireUser().requireID()
        let access = try await PersonAccess.load(req)
        guard !access.relation.isSelf else { throw Abort(.unprocessableEntity, reason: t("You cannot block yourself.")) }
        let personID = try access.person.requireID()
        try await req.db.inTransaction { db in
            if try await Block.query(on: db).filter(\.$blocker.$id == viewerID).filter(\.$blocked.$id == personID).first() == nil {
                try await Block(blocker: viewerID, blocked: personID, at: req.now).create(on: db)
            }
            try await Follow.query(on: db).group(.or) { either in
                either.group(.and) { $0.filter(\.$follower.$id == viewerID).filter(\.$followee.$id == personID) }
                either.group(.and) { $0.filter(\.$follower.$id == personID).filter(\.$followee.$id == viewerID) }
            }.delete()
            // What either gave the other ends too: an invitation waiting, a coach's view of training.
            try await db.sql.raw(
                """
                DELETE FROM team_invites WHERE (invitee_id = \(bind: viewerID) AND created_by_id = \(bind: personID))
                  OR (invitee_id = \(bind: personID) AND created_by_id = \(bind: viewerID))
                """
            ).run()
            try await db.sql.raw(
                """
                DELETE FROM coach_grants WHERE (coach_id = \(bind: viewerID) AND athlete_id = \(bind: personID))
                  OR (coach_id = \(bind: personID) AND athlete_id = \(bind: viewerID))
                """
            ).run()
        }
        req.flash(.success, t("You blocked {name}. They can no longer message you or invite you, and they aren't told.", access.person.displayName))
        return req.redirect(to: SiteURL.friends.path)
    }

    /// Found by the block itself: a private person the viewer blocked is no longer visible to them.
    func unblock(req: Request) async throws -> Response {
        let viewerID = try req.requireUser().requireID()
        let username = (req.parameters.get("username") ?? "").lowercased()
        guard let person = try await User.query(on: req.db).filter(\.$username == username).first(),
            let block = try await Block.query(on: req.db).filter(\.$blocker.$id == viewerID).filter(\.$blocked.$id == person.requireID()).first()
        else { throw Abort(.notFound) }
        try await block.delete(on: req.db)
        req.flash(.info, t("You unblocked {name}.", person.displayName))
        return req.redirect(to: SiteURL.friends.path)
    }
}
