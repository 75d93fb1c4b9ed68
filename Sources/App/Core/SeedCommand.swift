import Fluent
import Vapor

/// `fieldhouse seed`: demo data a newcomer can click through. Running it again changes nothing,
/// so `make run` can call it every time.
struct SeedCommand: AsyncCommand {
    struct Signature: CommandSignature {}

    var help: String { "Adds demo people, profiles and follows (skipped when they already exist)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        try await app.autoMigrate()
        let added = try await DemoPeople.seed(app: app)
        context.console.print(added == 0
            ? "Demo data is already present."
            : "Added \(added) demo people. Sign in as maya (or any of them) with the password \(DemoPeople.password(app: app) ?? "in Resources/Demo/people.json").")
    }
}
