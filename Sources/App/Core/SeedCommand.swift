import Fluent
import Vapor

/// `fieldhouse seed`: demo data a newcomer can click through. Running it again changes nothing,
/// so `make run` can call it every time.
struct SeedCommand: AsyncCommand {
    struct Signature: CommandSignature {
        @Option(name: "bench-teams", help: "Also add this many teams spread over a country, for `make bench`")
        var benchTeams: Int?

        @Option(name: "bench-games", help: "Also add this many upcoming pick-up games over the same country, a game of 30 and 300 games for maya")
        var benchGames: Int?

        @Option(name: "bench-challenges", help: "Also add this many challenges to maya's inbox, for `make bench`.")
        var benchChallenges: Int?

        @Option(name: "bench-articles", help: "Also add this many published Learn articles (made from the shipped ones), for `make bench`.")
        var benchArticles: Int?

        @Flag(
            name: "bench-training",
            help:
                "Also add bench_athlete (a one-hour 1 Hz run, 30 days of 1 Hz heart rate, 2,000 workouts) and bench_coach (40 athletes, two years each), for `make bench`."
        )
        var benchTraining: Bool

        @Flag(name: "bench-community", help: "Also add bench_social with 300 friends and 200,000 of their workouts in the feed, for `make bench`.")
        var benchCommunity: Bool

        @Option(name: "bench-places", help: "Also add this many places spread around the bench city, for `make bench`.")
        var benchPlaces: Int?
    }

    var help: String { "Adds demo people, profiles and follows (skipped when they already exist)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        try await app.autoMigrate()
        let bench = BenchOptions(
            teams: signature.benchTeams ?? 0, games: signature.benchGames ?? 0,
            challenges: signature.benchChallenges ?? 0, articles: signature.benchArticles ?? 0,
            training: signature.benchTraining, community: signature.benchCommunity, places: min(max(signature.benchPlaces ?? 0, 0), 1_000_000))
        var told: [String] = []
        for feature in app.features {
            told += try await feature.seedDemo(app)
        }
        let demo = told.count
        for feature in app.features {
            told += try await feature.seedBench(app, options: bench)
        }
        if demo == 0 { told.insert("Demo data is already present.", at: 0) }
        for line in told { context.console.print(line) }
    }
}
