import FieldhouseKit
import Fluent

extension Database {
    /// Runs `closure` in a transaction, in the caller's language. Fluent's own `transaction` runs
    /// its closure in a task of its own, which starts without the caller's task-locals: a text
    /// written there (a default workout name, a message) would come out in English whatever the
    /// reader's language. `make lint` refuses Fluent's `transaction {` in the app.
    func inTransaction<T: Sendable>(_ closure: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        let language = Language.current
        return try await transaction { db in try await Language.$current.withValue(language) { try await closure(db) } }
    }
}
