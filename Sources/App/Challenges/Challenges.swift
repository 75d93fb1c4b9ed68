import Vapor

/// Photo challenges: sending, replying, judging, scoreboards, and the photo pipeline behind them.
enum Challenges: Feature {
    static var routePatterns: [String] { ChallengePath.patterns }

    static func boot(_ app: Application) throws {
        try app.register(collection: InboxController())
        try app.register(collection: ChallengeController())
        try app.register(collection: ResponseController())
        try app.register(collection: PhotoController())
        app.photoSizer = PhotoSizer(application: app)
        app.lifecycle.use(PhotoSizerLifecycle())
        // The header's count of replies to judge is kept with the session (`signInCache`).
        app.useModelMiddleware(
            PersonChangeMiddleware<ChallengeResponse>(changes: app.personChanges, bus: app.liveBus, person: { $0.$challenger.id }))
    }

    static func seedDemo(_ app: Application) async throws -> [String] {
        let challenges = try await DemoChallenges.seed(app: app)
        return challenges > 0 ? ["Added \(challenges) demo photo challenges with replies in every state."] : []
    }

    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] {
        guard options.challenges > 0 else { return [] }
        try await BenchChallenges.seed(count: options.challenges, app: app)
        return ["Added \(options.challenges) benchmark challenges to maya's inbox."]
    }

    /// Photos left half-sized by a restart, and every photo stored before sizes existed.
    static func resume(_ app: Application) async throws {
        try await app.photoSizer.catchUp()
    }

    static var jobKinds: [JobKind] { [HeldPhoto.sweepKind] }

    /// The photos as uploaded and their served copies; a held photo lives a quarter of an hour.
    static var dataFolders: [DataFolder] { PhotoStore.folders.map { DataFolder(path: $0, backedUp: true) } }

    static var headerCounts: [HeaderCount] {
        [HeaderCount(name: "toJudge", subquery: "SELECT COUNT(*) FROM challenge_responses r WHERE r.challenger_id = u.id AND r.status = 'pending'")]
    }
}

/// The sizer stops taking photos before the photo thread pool and the database close.
struct PhotoSizerLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        await application.photoSizer.stop()
    }
}
