import Fluent
import Foundation

/// The kudos a person gave and the plans they posted go into their export; they go with their
/// account (ON DELETE CASCADE), as do the kudos on their workouts.
extension Community {
    static var archiveEntries: [ArchiveEntry] {
        [
            ArchiveEntry(path: "kudos.json", holds: "the workouts you gave kudos to"),
            ArchiveEntry(path: "plans.json", holds: "the plans you posted, who saw them and their games"),
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
    }
}
