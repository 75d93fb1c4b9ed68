import Fluent
import SQLKit

extension Database {
    /// The database as SQL. Both drivers Fieldhouse runs on (SQLite and PostgreSQL) speak SQL, and
    /// `configure` sets up no other, so the one cast in
    /// the app lives here instead of at every raw query.
    var sql: any SQLDatabase { self as! any SQLDatabase }
}
