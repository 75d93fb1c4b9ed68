import Fluent
import Foundation

/// A person's notifications and their choices of what to hear about go into their export;
/// both go with their account (ON DELETE CASCADE).
extension Notifications {
    static var archiveEntries: [ArchiveEntry] {
        [
            ArchiveEntry(
                path: "notifications.json", holds: t("your notifications, the topics you turned off, those you get by e-mail, and the browsers that show them"))
        ]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        struct Export: Encodable {
            struct Item: Encodable {
                let text, link: String
                let read: Bool
                let at: String
            }
            /// A browser that shows notifications: its topics and dates, not its push address or keys.
            struct Browser: Encodable {
                let topics: [String]
                let since: String
                let lastDelivered: String?
            }
            let topicsOff: [String]
            let byEmail: [String]
            let browsers: [Browser]
            let notifications: [Item]
        }
        let settings = try await NotificationSetting.query(on: archive.db).filter(\.$user.$id == archive.userID).all()
        let off = settings.filter { !$0.inApp }
        let byEmail = NotificationTopic.allCases.filter { topic in settings.first { $0.topic == topic }?.email ?? topic.emailByDefault }
        let browsers = try await PushSubscription.query(on: archive.db).filter(\.$user.$id == archive.userID).sort(\.$createdAt).all()
        let items = try await Notification.query(on: archive.db).filter(\.$recipient.$id == archive.userID).sort(\.$createdAt).all()
        try archive.add(
            "notifications.json",
            json: Export(
                topicsOff: off.map(\.topic.rawValue).sorted(), byEmail: byEmail.map(\.rawValue).sorted(),
                browsers: browsers.map {
                    .init(
                        topics: $0.chosen.map(\.rawValue).sorted(), since: AccountArchive.time($0.createdAt),
                        lastDelivered: $0.lastSuccessAt.map { AccountArchive.time($0) })
                },
                notifications: items.map { .init(text: $0.text, link: $0.link, read: $0.read, at: AccountArchive.time($0.createdAt)) }))
    }
}
