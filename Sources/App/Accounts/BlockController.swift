import Fluent
import Vapor

/// Blocking people (`Block.make`): from their profile (or a message of theirs), undone from the
/// friends page.
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
        try await Block.make(blocker: viewerID, blocked: personID, at: req.now, on: req.db)
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
