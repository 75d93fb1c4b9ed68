import Vapor

/// Games: team fixtures and pick-up games, finding them, answering, and the calendar feed.
enum Games: Feature {
    static var routePatterns: [String] { GamePath.patterns }

    static func boot(_ app: Application) throws {
        try app.register(collection: FindController())
        try app.register(collection: GameController())
        try app.register(collection: SeasonController())
        try app.register(collection: GamePlayerController())
        try app.register(collection: GameInviteController())
        try app.register(collection: MyGamesController())
        try app.register(collection: CalendarController())
    }

    static func seedDemo(_ app: Application) async throws -> [String] {
        let games = try await DemoGames.seed(app: app)
        return games > 0 ? ["Added \(games) demo games with answers, a waitlist and a substitute request."] : []
    }

    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] {
        guard options.games > 0 else { return [] }
        try await BenchGames.seed(count: options.games, app: app)
        return ["Added \(options.games) benchmark games, a game of 30 (/games/\(BenchGames.bigGameID)) and 300 games for bench-25."]
    }

    static var jobKinds: [JobKind] { [GameReminderJob.kind, OfferExpiryJob.kind, NearbyGameJob.kind] }

    static var settingsTabs: [SettingsTab] {
        [SettingsTab(order: 65, label: t("Calendar"), url: .calendarSettings)]
    }
}
