import FieldhouseKit
import Fluent
import Foundation

/// An uploaded photo. Its files: the original as received (never served); the copy without
/// metadata that `/photos/{id}` sends; and, once `sizes` is `ready`, a 1,280 px copy for pages and a
/// 160 px square for lists. What was read from the original's EXIF is kept here, so the original
/// never needs reading again.
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
    /// EXIF orientation 1–8. Until the photo is re-encoded the served copy is the stored pixels
    /// without EXIF, so pages rotate it with CSS; afterwards the pixels are upright and this is 1.
    @Field(key: "orientation") var orientation: Int
    @OptionalField(key: "exif_latitude") var exifLatitude: Double?
    @OptionalField(key: "exif_longitude") var exifLongitude: Double?
    @OptionalField(key: "taken_at") var takenAt: Date?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Field(key: "sizes") var sizes: Sizes

    /// The re-encoding `PhotoSizer` does after the upload has been answered.
    enum Sizes: String, Codable, Sendable {
        /// Served as the metadata-free copy made while uploading; no smaller sizes yet.
        case pending
        /// Served re-encoded and upright, with `large` and `small` copies.
        case ready
        /// libvips could not read it; the metadata-free copy is served at every size.
        case failed
    }

    /// The copies `/photos/{id}/{size}` serves; each falls back to the full copy until it exists.
    enum Size: String, CaseIterable, Sendable {
        case large, small

        /// Long side in pixels (`small` is a square, cropped from the centre).
        var box: Int { self == .large ? 1280 : 160 }
    }

    init() {}

    var imageFormat: ImageFormat { ImageFormat(rawValue: format) ?? .jpeg }

    var exifCoordinate: Coordinate? {
        guard let exifLatitude, let exifLongitude else { return nil }
        return Coordinate(latitude: exifLatitude, longitude: exifLongitude)
    }

    var url: String { Self.url(id!) }

    static func url(_ id: UUID, size: Size? = nil) -> String {
        SiteURL.photo(id, size: size).path
    }
}
