import Fluent
import SQLKit

/// The person-and-time tables behind every time series. On SQLite they are `WITHOUT ROWID`
/// tables: the key (person, time) is then where each row lives, so an insert writes one B-tree
/// instead of a table and an index. PostgreSQL gets the same columns and key through Fluent.
enum SampleTable {
    struct Column {
        enum Kind { case integer, real, text }
        let name: String
        let kind: Kind
        let required: Bool

        init(_ name: String, _ kind: Kind, required: Bool = true) {
            self.name = name
            self.kind = kind
            self.required = required
        }

        var sqliteType: String {
            switch kind {
            case .integer: "INTEGER"
            case .real: "REAL"
            case .text: "TEXT"
            }
        }

        var type: DatabaseSchema.DataType {
            switch kind {
            case .integer: .int64
            case .real: .double
            case .text: .string
            }
        }
    }

    static func create(_ table: String, key: String = "t", columns: [Column], on database: any Database) async throws {
        let sql = database.sql
        if sql.dialect.name == "sqlite" {
            let definitions = columns.map { "\"\($0.name)\" \($0.sqliteType)\($0.required ? " NOT NULL" : "")" }.joined(separator: ", ")
            try await sql.raw(
                """
                CREATE TABLE "\(unsafeRaw: table)" ("user_id" UUID NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
                "\(unsafeRaw: key)" INTEGER NOT NULL, \(unsafeRaw: definitions), PRIMARY KEY ("user_id", "\(unsafeRaw: key)")) WITHOUT ROWID
                """
            ).run()
            return
        }
        var builder = database.schema(table)
            .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
            .field(.definition(name: .key(.string(key)), dataType: .int64, constraints: [.required]))
        for column in columns {
            builder = builder.field(.definition(name: .key(.string(column.name)), dataType: column.type, constraints: column.required ? [.required] : []))
        }
        try await builder
            .constraint(.constraint(.compositeIdentifier([.key(.string("user_id")), .key(.string(key))]), name: "\(table)_pkey"))
            .create()
    }
}
