import Vapor

/// The device API: tokens, sensor samples, live workouts, file uploads, and its OpenAPI document.
enum Ingest: Feature {
    static func boot(_ app: Application) throws {
        try app.register(collection: DeviceController())
        try app.register(collection: SampleController(maxBodyBytes: app.config.maxUploadBytes))
        try app.register(collection: WorkoutAPIController())
        try app.register(collection: OpenAPIController(app: app))
        try app.register(collection: UploadController(maxBytes: app.config.maxActivityFileBytes))
    }

    static var settingsTabs: [SettingsTab] {
        [SettingsTab(order: 70, label: t("Devices"), url: .deviceSettings)]
    }
}
