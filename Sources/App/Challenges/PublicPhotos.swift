import Fluent
import Foundation

/// A feature that shows some photos to everyone (Places: a place's photos). `/photos/{id}` serves
/// a photo to anyone when a feature in `app.features` that adopts this says so; every other photo
/// follows its challenge's rules (`PhotoController.mayView`).
protocol PublicPhotos: Feature {
    /// Whether the photo belongs to something the feature shows everyone.
    static func photoIsPublic(_ photoID: UUID, on db: any Database) async throws -> Bool
}
