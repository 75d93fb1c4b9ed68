import Foundation

/// Every path Places serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them.
enum PlacePath: String, RoutePattern {
    case places = "/places"
    case newPlace = "/places/new"
    case searchPlaces = "/places/search"
    case place = "/places/:id"
    case editPlace = "/places/:id/edit"
    case acceptManager = "/places/:id/manage/accept"
    case declineManager = "/places/:id/manage/decline"
    case placePhotos = "/places/:id/photos"
    case deletePlacePhoto = "/places/:id/photos/:photo/delete"
    case placeReward = "/places/:id/reward"
    case placeCheckin = "/places/:id/checkin"
    case placeRedeem = "/places/:id/redeem"
    case myRewards = "/rewards"
    case rewardSettings = "/rewards/settings"
    case apiCheckins = "/api/v1/checkins"
    case apiCheckinOffer = "/api/v1/checkins/offer"
    case tile = "/tiles/:z/:x/:file"
}

extension SiteURL {
    static let places = SiteURL(PlacePath.places)
    static let newPlace = SiteURL(PlacePath.newPlace)
    static func place(_ place: UUID) -> SiteURL { SiteURL(PlacePath.place, id(place)) }
    static func editPlace(_ place: UUID) -> SiteURL { SiteURL(PlacePath.editPlace, id(place)) }
    /// The place's reward offer, for its managers.
    static func placeReward(_ place: UUID) -> SiteURL { SiteURL(PlacePath.placeReward, id(place)) }
    /// "I'm here" (POST, with the phone's position).
    static func placeCheckin(_ place: UUID) -> SiteURL { SiteURL(PlacePath.placeCheckin, id(place)) }
    /// Where the place's managers take codes at the counter.
    static func placeRedeem(_ place: UUID) -> SiteURL { SiteURL(PlacePath.placeRedeem, id(place)) }
    /// Adding a photo (POST, a streamed form).
    static func placePhotos(_ place: UUID) -> SiteURL { SiteURL(PlacePath.placePhotos, id(place)) }
    static func deletePlacePhoto(_ place: UUID, photo: UUID) -> SiteURL { SiteURL(PlacePath.deletePlacePhoto, id(place), id(photo)) }
    /// Answering an invitation to help manage the place (POST).
    static func answerPlaceManager(_ place: UUID, accept: Bool) -> SiteURL {
        SiteURL(accept ? PlacePath.acceptManager : PlacePath.declineManager, id(place))
    }
    /// The signed-in person's cycling state, its history and their codes.
    static let myRewards = SiteURL(PlacePath.myRewards)
    /// Turning rewards on or off (POST).
    static let rewardSettings = SiteURL(PlacePath.rewardSettings)
}
