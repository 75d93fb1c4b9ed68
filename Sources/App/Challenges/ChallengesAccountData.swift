import Fluent
import Foundation

/// What Challenges keeps about a person: the photos they took (originals, as uploaded), the
/// challenges they sent and the replies they made. On deletion their challenges go with every
/// reply, and the photo files once the deletion is committed.
extension Challenges {
    static var archiveEntries: [ArchiveEntry] {
        [
            ArchiveEntry(path: "photos.json, photos/", holds: t("your challenge and reply photos, as you uploaded them")),
            ArchiveEntry(path: "challenges/", holds: t("challenges you sent and replies you made")),
        ]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        let userID = archive.userID, db = archive.db
        let photos = try await Photo.query(on: db).filter(\.$owner.$id == userID).sort(\.$createdAt).all()
        try archive.add("photos.json", json: photos)
        // Two photos can share one stored file (a held photo sent twice): each file goes in once,
        // as a zip holds one entry per name (photos.json says which photo is which file).
        var written: Set<String> = []
        for photo in photos where written.insert(photo.originalFile).inserted {
            if let bytes = FileManager.default.contents(atPath: PhotoStore.originalPath(photo.originalFile, config: archive.config)) {
                try archive.add("photos/" + photo.originalFile, bytes: Array(bytes), modified: photo.createdAt ?? archive.now)
            }
        }
        try archive.add("challenges/sent.json", json: try await Challenge.query(on: db).filter(\.$sender.$id == userID).all())
        try archive.add("challenges/replies.json", json: try await ChallengeResponse.query(on: db).filter(\.$user.$id == userID).all())
    }

    static func deleteAccount(of userID: UUID, now: Date, on db: any Database, config: AppConfig) async throws -> AfterDeletion {
        try await Challenge.forgetPerson(userID, on: db)
        var photos: [Photo] = []
        for challenge in try await Challenge.query(on: db).filter(\.$sender.$id == userID).all() {
            photos += try await challenge.deleteWithReplies(on: db)
        }
        let own = try await Photo.query(on: db).filter(\.$owner.$id == userID).all().map { try $0.requireID() }
        photos += try await PhotoStore.deleteRows(own, on: db)
        let files = photos
        return { PhotoStore.removeFiles(of: files, config: config) }
    }
}
