import Vapor

/// Who may write Learn articles: people with the editor role (`fieldhouse user promote
/// --role editor`) and admins. Everyone, signed in or not, may read published ones.
enum LearnPolicy {
    static func isEditor(_ user: User?) -> Bool {
        user?.role == .editor || user?.role == .admin
    }

    /// The signed-in editor; anonymous visitors are sent to sign in, others get 403.
    static func requireEditor(_ req: Request) throws -> User {
        let user = try req.requireUser()
        guard isEditor(user) else {
            throw Abort(.forbidden, reason: "Only Learn editors can write articles. An admin can make you one.")
        }
        return user
    }
}
