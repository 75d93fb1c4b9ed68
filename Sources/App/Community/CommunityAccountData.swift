import Fluent
import Foundation

/// The kudos a person gave go into their export; they go with their account (ON DELETE CASCADE),
/// as do the kudos on their workouts.
extension Community {
    static var archiveEntries: [ArchiveEntry] {
        [ArchiveEntry(path: "kudos.json", holds: "the workouts you gave kudos to")]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        struct Given: Encodable {
            let workout: String
            let at: String
        }
        let given = try await Kudos.query(on: archive.db).filter(\.$giver.$id == archive.userID).sort(\.$createdAt).all()
        try archive.add("kudos.json", json: given.map { Given(workout: SiteURL.workout($0.$workout.id).path, at: AccountArchive.time($0.createdAt)) })
    }
}
