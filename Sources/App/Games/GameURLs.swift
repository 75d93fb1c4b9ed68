import FieldhouseKit
import Foundation

extension SiteURL {
    static let games = SiteURL("games")
    static let newGame = SiteURL("games", "new")
    /// The pick-up game form with its venue filled in (a place's "Organise a game here").
    static func newGame(venue: String, at point: Coordinate, zone: String) -> String {
        newGame.with([("venue", venue), ("lat", FormNumber.text(point.latitude)), ("lon", FormNumber.text(point.longitude)), ("zone", zone)])
    }
    static func game(_ id: UUID) -> SiteURL { SiteURL("games", Self.id(id)) }
    static func editGame(_ id: UUID) -> SiteURL { SiteURL("games", Self.id(id), "edit") }
    /// Search for games and teams near a place; the page's filters ride in the query.
    static let apiFind = SiteURL("api", "v1", "find")
    static let calendarSettings = SiteURL("settings", "calendar")
}
