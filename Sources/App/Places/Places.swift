import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Places to play and to arrive at (parks, pitches, cafés), the routes near them, and rewards for
/// arriving by bike: a state machine over the phone's motion readings decides who is cycling.
enum Places: Feature, MovementListener, PublicPhotos {
    static var routePatterns: [String] { PlacePath.patterns }

    /// The first path segment of map tiles (`TileController`), which every map's tiles point at.
    static var tileSegment: String { String(PlacePath.tile.rawValue.split(separator: "/")[0]) }

    static func boot(_ app: Application) throws {
        try app.register(collection: PlaceController())
        try app.register(collection: RewardController())
        try app.register(collection: CheckinAPIController())
        try app.register(collection: PlacePhotoController())
        try app.register(collection: TileController())
        app.tileRoute = "/" + tileSegment
        app.tileStore = TileStore(folder: app.config.dataDirectory + "/" + TileStore.folder, capacity: app.config.tileCacheBytes)
        app.tileLimiter = TileLimiter()
        // Kept tiles cost a visitor too, at twice the rate: a person browsing maps never meets it.
        app.tileViewLimiter = TileLimiter(burst: 400, perSecond: 10, everyoneBurst: .infinity, everyonePerSecond: 0)
        app.tileFetches = TileFetches()
        try app.register(collection: PlaceFinderController())
        // The gazetteer takes a moment to read: read it now, off the request path, not on the first search.
        Task.detached(priority: .background) { _ = Gazetteer.shared }
    }

    /// Every place on the map is public.
    static func knownPlaces(matching text: String, limit: Int, on db: any Database) async throws -> [PlaceMatch] {
        try await db.sql.select().columns("name", "latitude", "longitude").from(Place.schema)
            .where(SQLLike.startsWith("name", text)).orderBy("name").limit(limit).all(decoding: NamedPoint.self)
            .map { PlaceMatch(name: $0.name, detail: t("place on Fieldhouse"), latitude: $0.latitude, longitude: $0.longitude) }
    }

    static func photoIsPublic(_ photoID: UUID, on db: any Database) async throws -> Bool {
        try await PlacePhoto.query(on: db).filter(\.$photo.$id == photoID).first() != nil
    }

    static func seedDemo(_ app: Application) async throws -> [String] {
        try await DemoPlaces.seed(app: app)
    }

    static func seedBench(_ app: Application, options: BenchOptions) async throws -> [String] {
        guard options.places > 0, try await BenchPlaces.seed(count: options.places, app: app) else { return [] }
        return ["Added \(options.places) places around the bench city."]
    }

    static func movementReceived(
        _ events: [CyclingEligibility.Event], positions: [RideFix], by userID: UUID, timeZone: String, now: Date, config: AppConfig,
        on db: any Database
    ) async throws {
        if !events.isEmpty {
            try await CyclingTracker.advance(userID, timeZone: timeZone, events: events, now: now, rules: config.cyclingRules, on: db)
        }
        try await RideFixes.keep(positions, for: userID, now: now, on: db)
    }

    static var jobKinds: [JobKind] { [RideFixes.sweepKind] }

    /// Map tiles are a cache of the tile server's, fetched again when missing.
    static var dataFolders: [DataFolder] { [DataFolder(path: TileStore.folder, backedUp: false)] }

    static var archiveEntries: [ArchiveEntry] {
        [
            ArchiveEntry(path: "ride_positions.json", holds: t("the positions your phone sent in the last hour, kept for reward check-ins")),
            ArchiveEntry(path: "reward_codes.json", holds: t("the reward codes you earned at places, and when each was redeemed")),
            ArchiveEntry(path: "cycling_states.json", holds: t("when your phone's readings changed whether you counted as cycling, and why")),
        ]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        let db = archive.db
        let userID = archive.userID
        try archive.add("reward_codes.json", json: try await RewardCode.query(on: db).filter(\.$user.$id == userID).sort(\.$issuedAt).all())
        try archive.add("cycling_states.json", json: try await CyclingTransition.query(on: db).filter(\.$user.$id == userID).sort(\.$atMS).all())
        struct Position: Encodable {
            let t: Int64
            let lat: Double
            let lon: Double
            let received_ms: Int64
        }
        try archive.add(
            "ride_positions.json",
            json: try await RideFixes.all(of: userID, on: db).map {
                Position(t: $0.time, lat: $0.place.latitude, lon: $0.place.longitude, received_ms: $0.received)
            })
    }
}
