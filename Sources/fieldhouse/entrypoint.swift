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
                    if config.logsAsJSON { return SQLValuesHiddenLogHandler(JSONLogHandler(label: label, level: config.logLevel)) }
                    var handler = StreamLogHandler.standardOutput(label: label)
                    handler.logLevel = config.logLevel
                    return SQLValuesHiddenLogHandler(handler)
                }
            }
            let app = try await Application.make(env)
            do {
                try await configure(app, config: config)
                if Self.command(in: env) == "serve" {
                    app.logger.notice("\(config.startupSummary)")
                    try await prepareDatabaseForServing(app)
                    try await startBackgroundWork(app)
                }
                try await app.execute()
            } catch {
                FileHandle.standardError.write(Data("fieldhouse: \(error)\n".utf8))
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
}
