import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Revisions keep every field of the article, and whether they were ever published.
struct AddDetailsToLearnRevisions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // SQLite adds one column per statement.
        for name in ["category", "summary", "audience", "videos"] {
            try await database.schema(LearnRevision.schema).field(
                .definition(name: .key(.string(name)), dataType: .string, constraints: [.required, .sql(.default(""))])
            ).update()
        }
        try await database.schema(LearnRevision.schema).field("published_at", .datetime).update()
        let sql = database.sql
        // Until now every revision came from the shipped files, published on import.
        for name in ["category", "summary", "audience", "videos"] {
            try await sql.raw(
                "UPDATE learn_revisions SET \(unsafeRaw: name) = (SELECT a.\(unsafeRaw: name) FROM learn_articles a WHERE a.id = learn_revisions.article_id)"
            ).run()
        }
        try await sql.raw("UPDATE learn_revisions SET published_at = created_at").run()
    }

    func revert(on database: any Database) async throws {
        for name in ["category", "summary", "audience", "videos", "published_at"] {
            try await database.schema(LearnRevision.schema).deleteField(.string(name)).update()
        }
    }
}
