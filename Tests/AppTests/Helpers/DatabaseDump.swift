@testable import App
import Fluent
import Foundation
import SQLKit

/// Reads the whole database the way a test that must see "nothing else changed" needs it.
extension TestApp {
    var sql: any SQLDatabase { db.sql }

    /// Every table the migrations made, on either database.
    func tableNames() async throws -> [String] {
        let query: SQLQueryString =
            store.schema != nil
            ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY name"
            : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        return try await sql.raw(query).all().map { try $0.decode(column: "name", as: String.self) }
    }

    /// Each row of each table as text, sorted, leaving out `except`: two dumps are equal exactly
    /// when no row was added, removed or changed.
    func dump(except: Set<String> = []) async throws -> [String: [String]] {
        var tables: [String: [String]] = [:]
        for table in try await tableNames() where !except.contains(table) {
            tables[table] = try await sql.raw("SELECT * FROM \(ident: table)").all().map { row in
                row.allColumns.sorted().map { "\($0)=\(Self.text(of: row, column: $0))" }.joined(separator: " ")
            }.sorted()
        }
        return tables
    }

    private static func text(of row: any SQLRow, column: String) -> String {
        // The first type the column decodes as; NULL decodes as any of them.
        func attempt<T: Decodable>(_ type: T.Type, _ show: (T) -> String = { "\($0)" }) -> String? {
            do { return try row.decode(column: column, as: T?.self).map(show) ?? "null" } catch { return nil }
        }
        return attempt(UUID.self) ?? attempt(String.self) ?? attempt(Int64.self) ?? attempt(Double.self)
            ?? attempt(Date.self, { "\($0.timeIntervalSince1970)" }) ?? attempt(Bool.self)
            ?? attempt(Data.self, { $0.base64EncodedString() }) ?? "?"
    }
}
