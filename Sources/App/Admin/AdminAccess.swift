import Vapor

/// The admin pages are for people with the admin role (`fieldhouse user promote --role admin`).
/// Anyone else signed in is told so; nobody's data is on these pages, only the server's work.
struct AdminAccess {
    let admin: User

    static func load(_ req: Request) throws -> AdminAccess {
        let user = try req.requireUser()
        guard user.role == .admin else { throw Abort(.forbidden, reason: t("Only the server's admins can see this page.")) }
        return AdminAccess(admin: user)
    }
}
