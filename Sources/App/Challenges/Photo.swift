import FieldhouseKit
import Fluent
import Foundation

/// An uploaded photo. Two files exist for it: the original as received (never served) and the
/// copy without metadata that `/photos/{id}` sends. What was read from the original's EXIF is kept
/// here, so the original never needs reading again.
final class Photo: Model, @unchecked Sendable {
    static let schema = "photos"

    @ID(key: .id) var id: UUID?
    @Parent(key: "owner_id") var owner: User
    @Field(key: "format") var format: String
    @Field(key: "original_file") var originalFile: String
    @Field(key: "served_file") var servedFile: String
    @Field(key: "byte_count") var byteCount: Int
    @OptionalField(key: "width") var width: Int?
    @OptionalField(key: "height") var height: Int?
    /// EXIF orientation 1–8; the served copy has no EXIF, so pages rotate it with CSS.
    @Field(key: "orientation") var orientation: Int
    @OptionalField(key: "exif_latitude") var exifLatitude: Double?
    @OptionalField(key: "exif_longitude") var exifLongitude: Double?
    @OptionalField(key: "taken_at") var takenAt: Date?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    var imageFormat: ImageFormat { ImageFormat(rawValue: format) ?? .jpeg }

    var exifCoordinate: Coordinate? {
        guard let exifLatitude, let exifLongitude else { return nil }
        return Coordinate(latitude: exifLatitude, longitude: exifLongitude)
    }

    var url: String { "/photos/\(id!.uuidString.lowercased())" }
}
