import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Leaf
import NIOPosix
import SQLKit
import Vapor

/// All wiring in one place: configuration, database, migrations, middleware, views and routes.
public func configure(_ app: Application, config: AppConfig) async throws {
    app.config = config
    app.features = Features.all
    _ = app.clock
    // SQLite statements, bcrypt and file IO run on this pool. SQLiteNIO's busy handler retries at
    // once, without end, on the thread that waits: with the shared pool's one thread per core, two
    // statements waiting for the write lock took every thread, and the transaction holding the lock
    // never got one to commit (seen as a hung test run). A pool of its own, with more threads than
    // the app has SQLite connections, always leaves the holder a thread.
    app.threadPool = NIOThreadPool(numberOfThreads: max(8, 4 * System.coreCount))
    app.logger.logLevel = config.logLevel
    try config.prepareDataDirectory(folders: app.dataFolders)
    app.serverSecret = try ServerSecret.load(config: config)
    app.vapidKey = try VAPIDKey.load(dataDirectory: config.dataDirectory)

    app.http.server.configuration.hostname = config.host
    app.http.server.configuration.port = config.port
    // The one outside HTTP server asked (for map tiles) must not send this one anywhere else.
    app.http.client.configuration.redirectConfiguration = .disallow
    // Ordinary forms are small; upload routes raise their own limit up to the configured maximum.
    app.routes.defaultMaxBodySize = "1mb"
    // The API speaks snake_case with RFC 3339 times, as apps on every platform expect.
    let json = JSONEncoder()
    json.keyEncodingStrategy = .convertToSnakeCase
    json.dateEncodingStrategy = .iso8601
    ContentConfiguration.global.use(encoder: json, for: .json)

    switch config.database {
    case .sqlite(let path):
        app.databases.use(.sqlite(.file(path), sqlLogLevel: .trace), as: .sqlite)
        // WAL lets readers carry on while one writer writes; it is a property of the file, so
        // setting it once per start is enough. Foreign keys are switched on per connection by
        // SQLiteKit's default configuration.
        try await app.db.sql.raw("PRAGMA journal_mode=WAL").run()
    case .postgres(let url, let searchPath):
        var postgres = try SQLPostgresConfiguration(url: url)
        if let searchPath { postgres.searchPath = [searchPath] }
        app.databases.use(.postgres(configuration: postgres, sqlLogLevel: .trace), as: .psql)
    }
    Migrations.register(on: app)
    // Model middleware belongs to the database, so it is added with it (features also boot without one).
    app.databases.middleware.use(WorkoutSeriesMiddleware())

    app.passwords.use(.bcrypt(cost: config.passwordCost))
    try app.makeDummyPasswordHash()

    // The translations are read once; a catalogue that does not parse stops the start with its line.
    Words.install(try Catalogue.load(directory: app.directory.workingDirectory + "Resources/Locales"))

    app.views.use(.leaf)
    app.leaf.configuration.rootDirectory = app.directory.workingDirectory + "Views/"
    app.leaf.cache.isEnabled = app.environment.isRelease

    // Order matters: headers go on everything, errors become pages before those headers are added,
    // static files are served without touching the database, and only then are sessions read.
    app.middleware = Middlewares()
    app.middleware.use(SecurityHeadersMiddleware(strictTransportSecurity: config.secureCookies))
    app.metrics = AppMetrics()
    app.middleware.use(RequestLogMiddleware(logLevel: .info))
    // Error pages speak the visitor's language (browser or footer choice)...
    app.middleware.use(LanguageMiddleware())
    app.middleware.use(ErrorPageMiddleware())
    let vendor = VendorFiles(leafletDirectory: config.leafletDirectory)
    app.assets = AssetURLs(publicDirectory: app.directory.publicDirectory, vendor: vendor)
    app.middleware.use(StaticFilesMiddleware(publicDirectory: app.directory.publicDirectory, assets: app.assets, vendor: vendor))
    app.middleware.use(SessionMiddleware())
    // ...and everything after the session the signed-in person's.
    app.middleware.use(LanguageMiddleware())
    app.middleware.use(FlashMiddleware())
    app.middleware.use(CSRFMiddleware(maxUploadBytes: config.maxUploadBytes))

    // Registered before the features, so it shuts down after them (handlers stop in reverse order).
    app.photoThreadPool = NIOThreadPool(numberOfThreads: 1)
    app.photoThreadPool.start()
    app.lifecycle.use(PhotoThreadPoolLifecycle())

    app.asyncCommands.use(SeedCommand(), as: "seed")
    app.asyncCommands.use(JobsCommand(), as: "jobs")
    app.asyncCommands.use(BackupCommand(), as: "backup")
    app.asyncCommands.use(RestoreCommand(), as: "restore")
    _ = app.liveBus
    _ = app.personChanges
    app.lifecycle.use(LiveBusLifecycle())
    app.jobs = JobRunner(kinds: app.features.flatMap { $0.jobKinds }, lease: config.jobLeaseSeconds)
    app.lifecycle.use(JobRunnerLifecycle())

    try routes(app)
    app.leaf.tags["url"] = URLTag(routes: app.routes.all)
    app.leaf.tags["t"] = TranslateTag()
    app.leaf.tags["tn"] = TranslatePluralTag()
}

/// Work `fieldhouse serve` resumes once the database is ready, feature by feature.
public func startBackgroundWork(_ app: Application) async throws {
    for feature in app.features {
        try await feature.resume(app)
    }
    app.jobs.start(app, interval: app.config.jobPollSeconds)
}

enum Migrations {
    /// Every migration in the order it landed. A landed migration is never edited; add a new one.
    static func register(on app: Application) {
        app.migrations.add(CreateUser())
        app.migrations.add(CreateUserSport())
        app.migrations.add(CreateFollow())
        app.migrations.add(CreateUserSession())
        app.migrations.add(CreateLoginAttempt())
        app.migrations.add(CreateTeam())
        app.migrations.add(CreateMembership())
        app.migrations.add(CreateJoinRequest())
        app.migrations.add(CreateTeamInvite())
        app.migrations.add(CreateNotification())
        app.migrations.add(CreateLeague())
        app.migrations.add(CreateLeagueTeam())
        app.migrations.add(CreateGame())
        app.migrations.add(CreateGamePlayer())
        app.migrations.add(AddCalendarTokenToUsers())
        app.migrations.add(CreatePhoto())
        app.migrations.add(CreateChallenge())
        app.migrations.add(CreateChallengeRecipient())
        app.migrations.add(CreateChallengeResponse())
        app.migrations.add(CreateDeviceToken())
        app.migrations.add(CreateHeartRateSample())
        app.migrations.add(CreateRRInterval())
        app.migrations.add(CreateLocationSample())
        app.migrations.add(CreateStepSample())
        app.migrations.add(CreateMotionSample())
        app.migrations.add(CreateHeartRateMinute())
        app.migrations.add(CreateCadenceSample())
        app.migrations.add(CreateWorkout())
        app.migrations.add(CreateWorkoutFile())
        app.migrations.add(CreateRoute())
        app.migrations.add(CreatePrivacyZone())
        app.migrations.add(CreateGoal())
        app.migrations.add(CreateReminder())
        app.migrations.add(CreateHeartRateQuarter())
        app.migrations.add(CreateCoachGrant())
        app.migrations.add(CreatePlannedWorkout())
        app.migrations.add(CreateWorkoutComment())
        app.migrations.add(AddHeartRateZonesToUsers())
        app.migrations.add(CreateLearnArticle())
        app.migrations.add(AddDetailsToLearnRevisions())
        app.migrations.add(AddPublishedRevisionToLearnArticles())
        app.migrations.add(CreateLearnSlug())
        app.migrations.add(AddImportNotesToWorkouts())
        app.migrations.add(AddHiddenCircleToPrivacyZones())
        app.migrations.add(AddHeldToTeamInvites())
        app.migrations.add(AddHeldToCoachGrants())
        app.migrations.add(AddSizesToPhotos())
        app.migrations.add(AddCalendarTokenHashToUsers())
        app.migrations.add(AddActorToNotifications())
        app.migrations.add(CreateJob())
        app.migrations.add(AddLastSentToReminders())
        app.migrations.add(AddRemindersSentToGames())
        app.migrations.add(AddOfferUntilToGamePlayers())
        app.migrations.add(CreateNotificationSetting())
        app.migrations.add(CreateNearbyAlert())
        app.migrations.add(CreateOutboxMessage())
        app.migrations.add(AddEmailConfirmedToUsers())
        app.migrations.add(CreatePasswordReset())
        app.migrations.add(AddEmailChoiceToNotificationSettings())
        app.migrations.add(CreateKudos())
        app.migrations.add(CreatePlan())
        app.migrations.add(CreateBadge())
        app.migrations.add(CreateGift())
        app.migrations.add(CreateFeedComment())
        app.migrations.add(CreateWeeklyNudge())
        app.migrations.add(CreateNearbyShare())
        app.migrations.add(AddFeedIndexToWorkouts())
        app.migrations.add(AddVisibilityToRoutes())
        app.migrations.add(CreatePlace())
        app.migrations.add(CreateRewardCode())
        app.migrations.add(CreateCyclingStatus())
        app.migrations.add(AddRouteToPlans())
        app.migrations.add(CreatePlacePhoto())
        app.migrations.add(AddLanguageToUsers())
        app.migrations.add(CreateLearnTranslation())
        app.migrations.add(AddSeriesToWorkouts())
        app.migrations.add(AddClockToUsers())
        app.migrations.add(AddSharedPartToWorkouts())
        app.migrations.add(AddAcceptedToPlaceManagers())
        app.migrations.add(CreateRideFix())
        app.migrations.add(AddAddressTakenToUsers())
        app.migrations.add(AddLegsToWorkouts())
        app.migrations.add(AddSummaryVersionToWorkouts())
        app.migrations.add(CreateLiveShare())
        app.migrations.add(CreateBlock())
        app.migrations.add(CreateConversation())
        app.migrations.add(CreateMessage())
        app.migrations.add(CreateConversationMember())
        app.migrations.add(CreateMessageReport())
        app.migrations.add(AddFixtureToGames())
        app.migrations.add(AddResultByTeamToGames())
        app.migrations.add(CreatePushSubscription())
        app.migrations.add(AddSeriesToGames())
        app.migrations.add(CreateGameInvite())
        app.migrations.add(CreateTeamEmailInvite())
        app.migrations.add(CreateMessageDigest())
        app.migrations.add(CreateTeamEmailInviteSend())
    }
}

/// Lets the photo and the exports in hand finish before the database closes.
struct PhotoThreadPoolLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        try? await application.photoThreadPool.shutdownGracefully()
    }
}
