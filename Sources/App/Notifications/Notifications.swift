import Vapor

/// What happened that concerns a person: notifications, and the bell in the header.
enum Notifications: Feature {
    static var routePatterns: [String] { NotificationPath.patterns }

    static func boot(_ app: Application) throws {
        try app.register(collection: NotificationController())
        try app.register(collection: NotificationSettingsController())
        try app.register(collection: UnsubscribeController())
        try app.register(collection: PushSubscriptionController())
        app.asyncCommands.use(BenchJobsCommand(), as: "bench-jobs")
        // The header's unread count is kept with the session (`signInCache`).
        app.useModelMiddleware(
            PersonChangeMiddleware<Notification>(changes: app.personChanges, bus: app.liveBus, person: { $0.$recipient.id }))
    }

    static var jobKinds: [JobKind] { [BenchNotificationJob.kind, MailSendJob.kind, PushSendJob.kind] }

    static var settingsTabs: [SettingsTab] {
        [SettingsTab(order: 55, label: t("Notifications"), url: .notificationSettings)]
    }

    static var headerCounts: [HeaderCount] {
        [HeaderCount(name: "unread", subquery: "SELECT COUNT(*) FROM notifications n WHERE n.recipient_id = u.id AND n.read = \(bind: false)")]
    }
}
