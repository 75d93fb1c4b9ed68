import Vapor

/// Coaching: consent both ways, the coach's athletes and week, plans, comments and zones.
enum Coaching: Feature {
    static var routePatterns: [String] { CoachPath.patterns }

    static func boot(_ app: Application) throws {
        try app.register(collection: CoachController())
        try app.register(collection: CoachAthleteController())
        try app.register(collection: CoachWeekController())
        try app.register(collection: CoachSettingsController())
        try app.register(collection: ZonesController())
        try app.register(collection: CommentController())
    }

    static func seedDemo(_ app: Application) async throws -> [String] {
        let squad = try await DemoCoaching.seed(app: app)
        return squad > 0 ? ["Jonas now coaches \(squad) demo athletes, with plans and comments (sign in as jonas, open Coaching)."] : []
    }

    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] {
        guard options.training else { return [] }
        try await BenchCoaching.seed(app: app)
        return ["Added bench_coach with 40 athletes, two years of workouts each."]
    }

    static var settingsTabs: [SettingsTab] {
        [
            SettingsTab(order: 60, label: t("Heart-rate zones"), url: .zoneSettings),
            SettingsTab(order: 80, label: t("Coaches"), url: .coachSettings),
        ]
    }
}
