import Vapor

/// Recording in the browser and watching live: `/record` (the recorder's page and its device
/// token), the live page with its server-sent events, and sharing a recording live through the
/// device API. Samples themselves arrive through Ingest's API; `LiveBus` tells every process.
enum Live: Feature {
    static var routePatterns: [String] { LivePath.patterns }

    static func boot(_ app: Application) throws {
        _ = app.liveRooms
        app.lifecycle.use(LiveRoomsLifecycle())
        try app.register(collection: RecordController())
        try app.register(collection: LiveController())
        try app.register(collection: LiveShareAPIController())
    }
}
