import App
import Foundation
import Logging
import Vapor

@main
enum Entrypoint {
    static func main() async {
        let config: AppConfig
        do {
            config = try AppConfig.fromEnvironment()
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(2)
        }
        do {
            var env = try Environment.detect()
            try LoggingSystem.bootstrap(from: &env) { level in
                { label in
                    var handler = StreamLogHandler.standardOutput(label: label)
                    handler.logLevel = config.logLevel
                    return handler
                }
            }
            let app = try await Application.make(env)
            do {
                try await configure(app, config: config)
                if Self.command(in: env) == "serve" {
                    try await prepareDatabaseForServing(app, config: config)
                }
                try await app.execute()
            } catch {
                app.logger.report(error: error)
                try? await app.asyncShutdown()
                exit(1)
            }
            try await app.asyncShutdown()
        } catch {
            FileHandle.standardError.write(Data("fieldhouse: \(error)\n".utf8))
            exit(1)
        }
    }

    /// `fieldhouse` alone means `fieldhouse serve`, as with every Vapor app.
    static func command(in env: Environment) -> String {
        let first = env.arguments.dropFirst().first ?? "serve"
        return first.hasPrefix("-") ? "serve" : first
    }

    /// SQLite is a single-machine database, so applying pending migrations on start is safe. On
    /// PostgreSQL several processes may start at once; migrating is an explicit step there.
    static func prepareDatabaseForServing(_ app: Application, config: AppConfig) async throws {
        if config.isPostgres {
            let pending = try await app.migrator.previewPrepareBatch().get()
            if !pending.isEmpty {
                let names = pending.map { $0.0.name }.joined(separator: ", ")
                FileHandle.standardError.write(Data("""
                fieldhouse: the PostgreSQL database has \(pending.count) pending migration(s): \(names).
                Run `fieldhouse migrate` (with the same DATABASE_URL) before starting the server.\n
                """.utf8))
                try? await app.asyncShutdown()
                exit(1)
            }
        } else {
            try await app.autoMigrate()
        }
    }
}
