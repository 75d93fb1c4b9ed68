import FluentSQLiteDriver
import Foundation
import SQLKit

extension SQLDatabase {
    /// Runs a query and returns each row's `columns` as numbers (nil for NULL), for pages that read
    /// thousands of samples or rollups. On SQLite the rows are read on the connection's own thread:
    /// the driver's usual path hops to the event loop once per row and decodes each value through
    /// `Decodable`, which costs many times the query itself. Elsewhere it goes through SQLKit.
    func numberRows(_ query: SQLQueryString, columns: [String]) async throws -> [[Double?]] {
        if dialect.name == "sqlite", let sqlite = self as? any SQLiteDatabase {
            let (text, binds) = serialize(query)
            let values: [SQLiteData] = try binds.map { bind in
                switch bind {
                case let value as UUID: .text(value.uuidString)
                case let value as Int64: .integer(Int(value))
                case let value as Int: .integer(value)
                case let value as Double: .float(value)
                case let value as String: .text(value)
                default: throw NumberRowsError.unsupportedBind("\(type(of: bind))")
                }
            }
            // Logged as SQLKit logs its queries, so the statements a request runs can be counted.
            if let level = queryLogLevel { logger.log(level: level, "Executing query", metadata: ["sql": .string(text)]) }
            let collected = CollectedRows()
            try await sqlite.withConnection { connection in
                try await connection.query(text, values) { row in
                    collected.rows.append(
                        columns.map { name -> Double? in
                            switch row.column(name) {
                            case .integer(let value)?: Double(value)
                            case .float(let value)?: value
                            default: nil
                            }
                        })
                }
            }
            return collected.rows
        }
        return try await raw(query).all().map { row in
            columns.map { name in
                // PostgreSQL types are strict: integers do not decode as Double.
                if let value = try? row.decode(column: name, as: Double?.self) { return value }
                return (try? row.decode(column: name, as: Int64?.self))?.map(Double.init)
            }
        }
    }
}

/// Rows gathered on the database thread; only that thread touches it until the query returns.
private final class CollectedRows: @unchecked Sendable {
    var rows: [[Double?]] = []
}

enum NumberRowsError: Error {
    case unsupportedBind(String)
}
