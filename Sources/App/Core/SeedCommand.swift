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

        @Flag(name: "bench-training", help: "Also add bench_athlete (a one-hour 1 Hz run, 30 days of 1 Hz heart rate, 2,000 workouts) and bench_coach (40 athletes, two years each), for `make bench`.")
        var benchTraining: Bool
    }

    var help: String { "Adds demo people, profiles and follows (skipped when they already exist)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        try await app.autoMigrate()
        let added = try await DemoPeople.seed(app: app)
        let teams = try await DemoTeams.seed(app: app)
        let games = try await DemoGames.seed(app: app)
        let challenges = try await DemoChallenges.seed(app: app)
        let workouts = try await DemoWorkouts.seed(app: app)
        let squad = try await DemoCoaching.seed(app: app)
        let learn = try await LearnLibrary.importFiles(app: app)
        if let count = signature.benchTeams, count > 0 {
            try await BenchTeams.seed(count: count, app: app)
            context.console.print("Added \(count) benchmark teams and the 25-member team bench-25.")
        }
        if let count = signature.benchGames, count > 0 {
            try await BenchGames.seed(count: count, app: app)
            context.console.print("Added \(count) benchmark games, a game of 30 (/games/\(BenchGames.bigGameID)) and 300 games for bench-25.")
        }
        if let count = signature.benchChallenges, count > 0 {
            try await BenchChallenges.seed(count: count, app: app)
            context.console.print("Added \(count) benchmark challenges to maya's inbox.")
        }
        if let count = signature.benchArticles, count > 0 {
            try await BenchLearn.seed(count: count, app: app)
            context.console.print("Learn now has at least \(count) benchmark articles (/learn/bench-1 …).")
        }
        if signature.benchTraining {
            try await BenchTraining.seed(app: app)
            try await BenchTraining.seedSquad(app: app)
            context.console.print("Added bench_athlete with a one-hour run, 30 days of heart rate and 2,000 workouts, and bench_coach with 40 athletes.")
        }
        if learn.added + learn.updated > 0 { context.console.print("Learn: \(learn.added) articles added, \(learn.updated) updated.") }
        if squad > 0 { context.console.print("Jonas now coaches \(squad) demo athletes, with plans and comments (sign in as jonas, open Coaching).") }
        if teams > 0 { context.console.print("Added \(teams) demo teams with members, requests and leagues.") }
        if games > 0 { context.console.print("Added \(games) demo games with answers, a waitlist and a substitute request.") }
        if challenges > 0 { context.console.print("Added \(challenges) demo photo challenges with replies in every state.") }
        if workouts > 0 { context.console.print("Added \(workouts) demo workouts (a year of them), a week of all-day heart rate, goals and reminders for maya.") }
        context.console.print(added == 0
            ? "Demo data is already present."
            : "Added \(added) demo people. Sign in as maya (or any of them) with the password \(DemoPeople.password(app: app) ?? "in Resources/Demo/people.json").")
    }
}
