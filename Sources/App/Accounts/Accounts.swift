import NIOCore
import Vapor

/// People: signing up and in, profiles, follows, settings, and the export and deletion of an account.
enum Accounts: Feature {
    static func boot(_ app: Application) throws {
        try app.register(collection: AccountController())
        try app.register(collection: ProfileController())
        try app.register(collection: SettingsController(maxUploadBytes: app.config.maxUploadBytes))
        try app.register(collection: DeleteAccountController())
        try app.register(collection: ExportController())
        try app.register(collection: FollowController())
        try app.register(collection: BlockController())
        try app.register(collection: EmailController())
        try app.register(collection: PasswordResetController())
        try app.register(collection: LanguageController())
        app.asyncCommands.use(UserCommands(), as: "user")
        // Every request reads its session and person from this cache first; a saved account
        // changes what it holds.
        _ = app.signInCache
        app.useModelMiddleware(PersonChangeMiddleware<User>(changes: app.personChanges, bus: app.liveBus, person: { $0.id }))
    }

    static func seedDemo(_ app: Application) async throws -> [String] {
        let added = try await DemoPeople.seed(app: app)
        guard added > 0 else { return [] }
        return [
            "Added \(added) demo people. Sign in as maya (or any of them) with the password \(DemoPeople.password(app: app) ?? "in Resources/Demo/people.json")."
        ]
    }

    static func resume(_ app: Application) async throws {
        AccountExport.removeExpired(config: app.config, now: app.clock.now)
        try await AvatarStore.catchUp(app)
    }

    static var jobKinds: [JobKind] { [AccountCleanupJob.kind, ExportJob.kind] }

    static var routePatterns: [String] { AccountPath.patterns }

    /// Avatars are uploads; exports are made again on request.
    static var dataFolders: [DataFolder] { [DataFolder(path: AvatarStore.folder, backedUp: true), DataFolder(path: AccountExport.folder, backedUp: false)] }

    static var settingsTabs: [SettingsTab] {
        [
            SettingsTab(order: 10, label: t("Profile"), url: .profileSettings),
            SettingsTab(order: 20, label: t("Picture"), url: .avatarSettings),
            SettingsTab(order: 30, label: t("Privacy"), url: .privacySettings),
            SettingsTab(order: 50, label: t("Password"), url: .passwordSettings),
            SettingsTab(order: 100, label: t("Export"), url: .exportSettings),
            SettingsTab(order: 110, label: t("Delete account"), url: .deleteAccountSettings),
        ]
    }
}
