import Foundation

extension SiteURL {
    static let games = SiteURL("games")
    static let newGame = SiteURL("games", "new")
    static func game(_ id: UUID) -> SiteURL { SiteURL("games", Self.id(id)) }
    static func editGame(_ id: UUID) -> SiteURL { SiteURL("games", Self.id(id), "edit") }
    /// Search for games and teams near a place; the page's filters ride in the query.
    static let find = SiteURL("find")
    static let apiFind = SiteURL("api", "v1", "find")
    static let calendarSettings = SiteURL("settings", "calendar")
}
