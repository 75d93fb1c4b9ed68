import Fluent
import Foundation
import SQLKit

/// The PostgreSQL side of `Backup`: `pg_dump` reads the database inside a snapshot that this
/// server's transaction exported, so the manifest's row counts, taken in that same transaction,
/// are exactly what the dump holds, while the servers keep writing. `pg_restore` puts it back in one
/// transaction: all of it or nothing.
enum PostgresBackup {
    static let dumpName = "fieldhouse.pgdump"

    /// Dumps the database of `db` into `file` and answers its rows per table.
    static func dump(url: String, searchPath: String?, db: any Database, into file: String) async throws -> [String: Int] {
        let environment = try environment(url: url, searchPath: searchPath)
        return try await db.inTransaction { transaction in
            let sql = transaction.sql
            // The first statement of the transaction fixes what every later one (and pg_dump) sees.
            try await sql.raw("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").run()
            let snapshot = try await sql.raw("SELECT pg_export_snapshot() AS id").first(decoding: Snapshot.self).map(\.id)
            guard let snapshot else { throw Backup.Failure("PostgreSQL exported no snapshot.") }
            var rows: [String: Int] = [:]
            for table in try await sql.raw(SQLQueryString(tablesQuery)).all(decoding: Table.self).map(\.table_name) {
                let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                rows[table] = try await sql.raw("SELECT count(*) AS n FROM \(unsafeRaw: quoted)").first(decoding: Count.self)?.n ?? 0
            }
            var arguments = ["--format=custom", "--no-owner", "--no-privileges", "--snapshot=" + snapshot, "--file=" + file]
            if let searchPath { arguments.append("--schema=" + searchPath) }
            _ = try await run("pg_dump", arguments, environment: environment)
            return rows
        }
    }

    /// Whether the database (the schema `searchPath` names, else `public`) has any table.
    static func holdsData(url: String, searchPath: String?) async throws -> Bool {
        let output = try await run(
            "psql", ["-qtAX", "-c", "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"],
            environment: environment(url: url, searchPath: searchPath))
        return output.trimmingCharacters(in: .whitespacesAndNewlines) != "0"
    }

    /// Restores `file` into the database in one transaction, then counts its rows.
    static func restore(_ file: String, url: String, searchPath: String?) async throws -> [String: Int] {
        let environment = try environment(url: url, searchPath: searchPath)
        _ = try await run(
            "pg_restore", ["--single-transaction", "--exit-on-error", "--no-owner", "--no-privileges", "--dbname=" + (environment["PGDATABASE"] ?? ""), file],
            environment: environment)
        let tables = try await run("psql", ["-qtAX", "-c", tablesQuery], environment: environment)
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        guard !tables.isEmpty else { return [:] }
        let counts = tables.map { table in
            let literal = "'" + table.replacingOccurrences(of: "'", with: "''") + "'"
            return "SELECT \(literal) || '|' || count(*) FROM \"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: " UNION ALL ")
        var rows: [String: Int] = [:]
        for line in try await run("psql", ["-qtAX", "-c", counts], environment: environment).split(separator: "\n") {
            guard let bar = line.lastIndex(of: "|"), let count = Int(line[line.index(after: bar)...]) else { continue }
            rows[String(line[..<bar])] = count
        }
        return rows
    }

    private static let tablesQuery =
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"

    private struct Snapshot: Decodable { let id: String }
    private struct Table: Decodable { let table_name: String }
    private struct Count: Decodable { let n: Int }

    /// The connection settings of a `postgres://` URL as libpq's variables, so the password never
    /// appears in a process list.
    static func environment(url: String, searchPath: String?) throws -> [String: String] {
        guard let parts = URLComponents(string: url), let host = parts.host else { throw Backup.Failure("DATABASE_URL is not a postgres:// URL.") }
        // The operator's own libpq settings (PGSSLROOTCERT, …) stay; the connection's come from the URL.
        var environment = ProcessInfo.processInfo.environment.filter {
            !["PGHOST", "PGHOSTADDR", "PGPORT", "PGUSER", "PGPASSWORD", "PGDATABASE", "PGSSLMODE", "PGOPTIONS", "PGSERVICE"].contains($0.key)
        }
        environment["PGHOST"] = host
        environment["PGPORT"] = String(parts.port ?? 5432)
        if let user = parts.percentEncodedUser { environment["PGUSER"] = user.removingPercentEncoding }
        if let password = parts.percentEncodedPassword { environment["PGPASSWORD"] = password.removingPercentEncoding }
        let database = String(parts.path.drop(while: { $0 == "/" }))
        environment["PGDATABASE"] = database.isEmpty ? environment["PGUSER"] : database.removingPercentEncoding
        // The same query words the app's own connection reads (PostgresKit), in libpq's terms.
        let tls = parts.queryItems?.last(where: { ["tlsmode", "sslmode", "ssl", "tls"].contains($0.name.lowercased()) })?.value
        switch tls {
        case "verify-full", "verify-ca", "require", "prefer", "allow", "disable": environment["PGSSLMODE"] = tls
        case "true": environment["PGSSLMODE"] = "prefer"
        case "false": environment["PGSSLMODE"] = "disable"
        default: break
        }
        if let searchPath { environment["PGOPTIONS"] = "-c search_path=" + searchPath }
        return environment
    }

    /// Runs one of PostgreSQL's client programs and answers what it printed; a failure carries
    /// what it said on standard error.
    private static func run(_ tool: String, _ arguments: [String], environment: [String: String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.environment = environment
        // Files rather than pipes: a program that prints more than a pipe holds would wait forever
        // for a reader that only reads once it has ended.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fieldhouse-\(tool)-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: scratch.path + ".out", contents: nil)
        FileManager.default.createFile(atPath: scratch.path + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: scratch.path + ".out")
            try? FileManager.default.removeItem(atPath: scratch.path + ".err")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path + ".out"))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path + ".err"))
        defer {
            try? output.close()
            try? errors.close()
        }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: Backup.Failure("\(tool) could not be started (install postgresql-client): \(error)"))
            }
        }
        let printed = (try? String(contentsOfFile: scratch.path + ".out", encoding: .utf8)) ?? ""
        guard status == 0 else {
            let said = (try? String(contentsOfFile: scratch.path + ".err", encoding: .utf8)) ?? ""
            throw Backup.Failure("\(tool) failed (exit \(status)): \(said.trimmingCharacters(in: .whitespacesAndNewlines).prefix(2000))")
        }
        return printed
    }
}
