import Vapor

/// The device API: tokens, sensor samples, live workouts, file uploads, and its OpenAPI document.
enum Ingest: Feature {
    static var routePatterns: [String] { IngestPath.patterns }

    static func boot(_ app: Application) throws {
        // Rules for the whole API, whichever feature's route answers under /api/: a wrong method
        // is a 405 (outermost: it is known before any route runs), a parameter given twice a
        // 400, and a device token signs the request in.
        app.middleware.use(MethodNotAllowedMiddleware())
        app.middleware.use(RepeatedParameterMiddleware())
        app.middleware.use(DeviceTokenMiddleware())
        _ = app.sqliteWriters
        try app.register(collection: DeviceController())
        try app.register(collection: SampleController(maxBodyBytes: app.config.maxUploadBytes))
        try app.register(collection: WorkoutAPIController())
        let document = try OpenAPIController(app: app)
        try app.register(collection: document)
        try app.register(collection: DeveloperController(document: Data(document.document.readableBytesView), baseURL: app.config.baseURL))
        try app.register(collection: UploadController(maxBytes: app.config.maxActivityFileBytes))
    }

    static var settingsTabs: [SettingsTab] {
        [SettingsTab(order: 70, label: t("Devices"), url: .deviceSettings)]
    }
}
