import Foundation

extension SiteURL {
    static let challenges = SiteURL("challenges")
    static let publicChallenges = SiteURL("challenges", "public")
    static let scoreboard = SiteURL("challenges", "scoreboard")
    static func challenge(_ id: UUID) -> SiteURL { SiteURL("challenges", Self.id(id)) }
    /// A photo as served to the people allowed to see it; `size` nil is the full picture.
    static func photo(_ id: UUID, size: Photo.Size?) -> SiteURL {
        size.map { SiteURL("photos", Self.id(id), $0.rawValue) } ?? SiteURL("photos", Self.id(id))
    }
    /// A photo kept while its form is fixed (`HeldPhoto`), for its owner only.
    static func heldPhoto(_ key: String) -> SiteURL { SiteURL("photos", "held", key) }
}
