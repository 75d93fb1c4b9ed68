import Foundation

/// Every path Challenges serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them.
enum ChallengePath: String, RoutePattern {
    case challenges = "/challenges"
    case newChallenge = "/challenges/new"
    case publicChallenges = "/challenges/public"
    case scoreboard = "/challenges/scoreboard"
    case challenge = "/challenges/:id"
    case deleteChallenge = "/challenges/:id/delete"
    case responses = "/challenges/:id/responses"
    case acceptResponse = "/challenges/:id/responses/:rid/accept"
    case rejectResponse = "/challenges/:id/responses/:rid/reject"
    case photo = "/photos/:id"
    case photoSize = "/photos/:id/:size"
    case heldPhoto = "/photos/held/:key"
}

extension SiteURL {
    static let challenges = SiteURL(ChallengePath.challenges)
    static let publicChallenges = SiteURL(ChallengePath.publicChallenges)
    static let scoreboard = SiteURL(ChallengePath.scoreboard)
    static func challenge(_ id: UUID) -> SiteURL { SiteURL(ChallengePath.challenge, Self.id(id)) }
    /// A photo as served to the people allowed to see it; `size` nil is the full picture.
    static func photo(_ id: UUID, size: Photo.Size?) -> SiteURL {
        size.map { SiteURL(ChallengePath.photoSize, Self.id(id), $0.rawValue) } ?? SiteURL(ChallengePath.photo, Self.id(id))
    }
    /// A photo kept while its form is fixed (`HeldPhoto`), for its owner only.
    static func heldPhoto(_ key: String) -> SiteURL { SiteURL(ChallengePath.heldPhoto, key) }
}
