import Fluent
import Foundation

/// A photo of a place, added by one of its managers. Places are public, and so are their photos
/// (the served copies carry no metadata: see `PhotoReceiver`).
final class PlacePhoto: Model, @unchecked Sendable {
    static let schema = "place_photos"

    @ID(key: .id) var id: UUID?
    @Parent(key: "place_id") var place: Place
    @Parent(key: "photo_id") var photo: Photo
    @Field(key: "added_at") var addedAt: Date

    init() {}

    init(place: UUID, photo: UUID, addedAt: Date) {
        self.$place.id = place
        self.$photo.id = photo
        self.addedAt = addedAt
    }

    /// A place shows at most this many.
    static let perPlace = 12
}
