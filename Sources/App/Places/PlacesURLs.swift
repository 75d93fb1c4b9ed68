import Foundation

extension SiteURL {
    static let places = SiteURL("places")
    static let newPlace = SiteURL("places", "new")
    static func place(_ place: UUID) -> SiteURL { SiteURL("places", id(place)) }
    static func editPlace(_ place: UUID) -> SiteURL { SiteURL("places", id(place), "edit") }
    /// The place's reward offer, for its managers.
    static func placeReward(_ place: UUID) -> SiteURL { SiteURL("places", id(place), "reward") }
    /// "I'm here" (POST, with the phone's position).
    static func placeCheckin(_ place: UUID) -> SiteURL { SiteURL("places", id(place), "checkin") }
    /// Where the place's managers take codes at the counter.
    static func placeRedeem(_ place: UUID) -> SiteURL { SiteURL("places", id(place), "redeem") }
    /// Adding a photo (POST, a streamed form).
    static func placePhotos(_ place: UUID) -> SiteURL { SiteURL("places", id(place), "photos") }
    static func deletePlacePhoto(_ place: UUID, photo: UUID) -> SiteURL { SiteURL("places", id(place), "photos", id(photo), "delete") }
    /// Answering an invitation to help manage the place (POST).
    static func answerPlaceManager(_ place: UUID, accept: Bool) -> SiteURL {
        SiteURL("places", id(place), "manage", accept ? "accept" : "decline")
    }
    /// The signed-in person's cycling state, its history and their codes.
    static let myRewards = SiteURL("rewards")
    /// Turning rewards on or off (POST).
    static let rewardSettings = SiteURL("rewards", "settings")
}
