import Vapor

/// Every feature of the app, in the order their demo data is seeded (people before their teams,
/// teams before their games) and their hooks run. The order matters when an account is deleted:
/// Teams hands a person's teams on before Games gives their team games to each team's new owner.
/// Adding a feature means adding it here; see CONTRIBUTING.md. `configure` keeps this list on the
/// application (`app.features`), which is where the rest of the app reads it.
enum Features {
    static let all: [any Feature.Type] = [
        Home.self, Accounts.self, Notifications.self, Teams.self, Games.self, Challenges.self,
        Ingest.self, Workouts.self, Coaching.self, Learn.self, Community.self, Places.self, Live.self, Messages.self, Admin.self,
    ]
}

/// Lets each feature register its routes, commands and services.
func routes(_ app: Application) throws {
    for feature in app.features {
        try feature.boot(app)
    }
}
