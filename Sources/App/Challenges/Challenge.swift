import FieldhouseKit
import Fluent
import SQLKit
import Foundation

/// A photo and a dare sent to several friends at once, or to everyone ("public").
final class Challenge: Model, @unchecked Sendable {
    static let schema = "challenges"

    @ID(key: .id) var id: UUID?
    @Parent(key: "sender_id") var sender: User
    @Parent(key: "photo_id") var photo: Photo
    @Field(key: "caption") var caption: String
    @Field(key: "is_public") var isPublic: Bool
    @OptionalField(key: "deadline") var deadline: Date?
    @OptionalField(key: "latitude") var latitude: Double?
    @OptionalField(key: "longitude") var longitude: Double?
    /// Where the place came from: "photo" (EXIF), "device" (browser geolocation) or "typed".
    @OptionalField(key: "location_source") var locationSource: String?
    @Field(key: "recipient_count") var recipientCount: Int
    /// Accepted replies, kept on the row for the inbox's "n of m completed".
    @Field(key: "completed_count") var completedCount: Int
    /// The form's one-time key, so a retried submission finds the challenge it already created.
    @Field(key: "client_key") var clientKey: String
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    var url: String { SiteURL.challenge(id!).path }

    func isClosed(at now: Date) -> Bool {
        deadline.map { $0 <= now } ?? false
    }
}

extension Challenge {
    /// Deletes this challenge, its replies and their photos' rows; returns the photos, whose files
    /// the caller removes once the transaction has committed.
    /// Takes a person out of the counts of the challenges they were sent or completed, before their
    /// account (and with it their recipient rows and replies) is deleted: a challenge they left
    /// undone would otherwise stay open for everybody else.
    static func forgetPerson(_ userID: UUID, on db: any Database) async throws {
        let sql = db.sql
        let accepted = try await ChallengeResponse.query(on: db).filter(\.$user.$id == userID).filter(\.$status == .accepted).all()
        for challengeID in Set(accepted.map { $0.$challenge.id }) {
            try await sql.update(Challenge.schema).set("completed_count", to: SQLRaw("completed_count - 1"))
                .where("id", .equal, challengeID).where("completed_count", .greaterThan, 0).run()
        }
        for recipient in try await ChallengeRecipient.query(on: db).filter(\.$user.$id == userID).all() {
            try await sql.update(Challenge.schema).set("recipient_count", to: SQLRaw("recipient_count - 1"))
                .where("id", .equal, recipient.$challenge.id).where("recipient_count", .greaterThan, 0).run()
        }
    }

    func deleteWithReplies(on db: any Database) async throws -> [Photo] {
        let id = try requireID()
        let replyPhotos = try await ChallengeResponse.query(on: db).filter(\.$challenge.$id == id).all().map { $0.$photo.id }
        try await delete(on: db)
        return try await PhotoStore.deleteRows([$photo.id] + replyPhotos, on: db)
    }
}
