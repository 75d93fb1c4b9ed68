import Vapor

/// Workouts: the history, pages with charts and maps, imports, privacy zones, stats, goals,
/// heart rate and reminders.
enum Workouts: Feature {
    static var routePatterns: [String] { WorkoutPath.patterns }

    static func boot(_ app: Application) throws {
        try app.register(collection: ImportController())
        try app.register(collection: WorkoutEditController())
        try app.register(collection: WorkoutController())
        try app.register(collection: WorkoutCommentController())
        try app.register(collection: RouteController())
        try app.register(collection: PrivacyZoneController())
        try app.register(collection: ResetWorkoutsController())
        try app.register(collection: StatsController())
        try app.register(collection: GoalController())
        try app.register(collection: HeartRateController())
        try app.register(collection: ReminderController())
        // Charts, map and splits of workout pages: about 60 KB each.
        app.workoutDrawings = MemoryCache(capacity: 256)
    }

    static func seedDemo(_ app: Application) async throws -> [String] {
        let workouts = try await DemoWorkouts.seed(app: app)
        return workouts > 0 ? ["Added \(workouts) demo workouts (a year of them), a week of all-day heart rate, goals and reminders for maya."] : []
    }

    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] {
        guard options.training else { return [] }
        try await BenchTraining.seed(app: app)
        return ["Added bench_athlete with a one-hour run, 30 days of heart rate and 2,000 workouts."]
    }

    static var jobKinds: [JobKind] { [ReminderJob.kind, SharedPartJob.kind, ResummariseJob.kind] }

    static var settingsTabs: [SettingsTab] {
        [
            SettingsTab(order: 40, label: t("Privacy zones"), url: .privacyZoneSettings),
            SettingsTab(order: 90, label: t("Reset workouts"), url: .resetWorkoutsSettings),
        ]
    }
}

extension Application {
    private struct WorkoutDrawingsKey: StorageKey { typealias Value = MemoryCache<WorkoutDrawings> }

    /// Set once by `Workouts.boot`, before any request.
    var workoutDrawings: MemoryCache<WorkoutDrawings> {
        get { storage[WorkoutDrawingsKey.self]! }
        set { storage[WorkoutDrawingsKey.self] = newValue }
    }
}
