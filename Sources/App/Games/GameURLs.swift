import FieldhouseKit
import Foundation

/// Every path Games serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them. Games also serves `SitePath.find`,
/// `AccountPath.calendarFeed` and `TeamPath.newTeamGame`, which features below it link to.
enum GamePath: String, RoutePattern {
    case games = "/games"
    case newGame = "/games/new"
    case game = "/games/:id"
    /// The game's conversation, served by Messages.
    case gameConversation = "/games/:id/messages"
    case editGame = "/games/:id/edit"
    case cancel = "/games/:id/cancel"
    case result = "/games/:id/result"
    case confirmResult = "/games/:id/result/confirm"
    case rsvp = "/games/:id/rsvp"
    case join = "/games/:id/join"
    case leave = "/games/:id/leave"
    /// The organiser or a player asks someone to a pick-up game.
    case invite = "/games/:id/invites"
    case takeOffer = "/games/:id/offer/take"
    case approvePlayer = "/games/:id/players/:username/approve"
    case removePlayer = "/games/:id/players/:username/remove"
    case remind = "/games/:id/remind"
    case subs = "/games/:id/subs"
    case claimSub = "/games/:id/subs/claim"
    case closeSubs = "/games/:id/subs/close"
    case apiFind = "/api/v1/find"
    case calendarSettings = "/settings/calendar"
    case resetCalendar = "/settings/calendar/reset"
}

extension SiteURL {
    static let games = SiteURL(GamePath.games)
    static let newGame = SiteURL(GamePath.newGame)
    /// The pick-up game form with its venue filled in (a place's "Organise a game here").
    static func newGame(venue: String, at point: Coordinate, zone: String) -> String {
        newGame.with([("venue", venue), ("lat", FormNumber.text(point.latitude)), ("lon", FormNumber.text(point.longitude)), ("zone", zone)])
    }
    static func game(_ id: UUID) -> SiteURL { SiteURL(GamePath.game, Self.id(id)) }
    static func gameConversation(_ id: UUID) -> SiteURL { SiteURL(GamePath.gameConversation, Self.id(id)) }
    static func editGame(_ id: UUID) -> SiteURL { SiteURL(GamePath.editGame, Self.id(id)) }
    /// Search for games and teams near a place; the page's filters ride in the query.
    static let apiFind = SiteURL(GamePath.apiFind)
    static let calendarSettings = SiteURL(GamePath.calendarSettings)
}
