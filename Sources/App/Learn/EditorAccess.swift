import Vapor

/// Access to writing Learn articles: people with the editor role (`fieldhouse user promote
/// --role editor`) and admins. Everyone, signed in or not, may read published ones.
struct EditorAccess {
    let editor: User

    /// The signed-in editor; anonymous visitors are sent to sign in, others get 403.
    static func load(_ req: Request) throws -> EditorAccess {
        let user = try req.requireUser()
        guard isEditor(user) else {
            throw Abort(.forbidden, reason: t("Only Learn editors can write articles. An admin can make you one."))
        }
        return EditorAccess(editor: user)
    }

    static func isEditor(_ user: User?) -> Bool {
        user?.role == .editor || user?.role == .admin
    }
}
