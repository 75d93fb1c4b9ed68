import Fluent
import Foundation

/// The kudos a person gave, the plans they posted, their badges, gifts and comments go into their export; they go with their
/// account (ON DELETE CASCADE), as do the kudos on their workouts.
extension Community {
    static var archiveEntries: [ArchiveEntry] {
        [
            ArchiveEntry(path: "kudos.json", holds: t("the workouts you gave kudos to")),
            ArchiveEntry(path: "plans.json", holds: t("the plans you posted, who saw them and their games")),
            ArchiveEntry(path: "badges.json", holds: t("your badges and when you earned them")),
            ArchiveEntry(path: "gifts.json", holds: t("the gifts you sent and got: sticker, note, what for")),
            ArchiveEntry(path: "comments.json", holds: t("the comments you wrote under workouts, plans and badges")),
        ]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        struct Given: Encodable {
            let workout: String
            let at: String
        }
        let given = try await Kudos.query(on: archive.db).filter(\.$giver.$id == archive.userID).sort(\.$createdAt).all()
        try archive.add("kudos.json", json: given.map { Given(workout: SiteURL.workout($0.$workout.id).path, at: AccountArchive.time($0.createdAt)) })
        struct Posted: Encodable {
            let text: String
            let audience: String
            let game: String
            let at: String
        }
        let plans = try await Plan.query(on: archive.db).filter(\.$poster.$id == archive.userID).sort(\.$createdAt).all()
        try archive.add(
            "plans.json",
            json: plans.map {
                Posted(text: $0.text, audience: $0.audience.rawValue, game: SiteURL.game($0.$game.id).path, at: AccountArchive.time($0.createdAt))
            })
        struct Earned: Encodable {
            let badge: String
            let at: String
        }
        let badges = try await Badge.query(on: archive.db).filter(\.$owner.$id == archive.userID).sort(\.$earnedAt).all()
        try archive.add("badges.json", json: badges.map { Earned(badge: $0.kind, at: AccountArchive.time($0.earnedAt)) })
        struct Sent: Encodable {
            let direction: String
            let sticker: String
            let note: String
            let subject: String
            let at: String
        }
        let gifts = try await Gift.query(on: archive.db).group(.or) {
            $0.filter(\.$sender.$id == archive.userID).filter(\.$recipient.$id == archive.userID)
        }.sort(\.$createdAt).all()
        // Who the other person was stays out: a gift names them only in the app, where their own
        // privacy is judged.
        try archive.add(
            "gifts.json",
            json: gifts.map {
                Sent(
                    direction: $0.$sender.id == archive.userID ? "sent" : "received", sticker: $0.sticker.rawValue, note: $0.note,
                    subject: $0.subject, at: AccountArchive.time($0.createdAt))
            })
        struct Written: Encodable {
            let on: String
            let text: String
            let at: String
        }
        let comments = try await FeedComment.query(on: archive.db).filter(\.$author.$id == archive.userID).sort(\.$createdAt).all()
        try archive.add("comments.json", json: comments.map { Written(on: $0.subject, text: $0.body, at: AccountArchive.time($0.createdAt)) })
    }
}
