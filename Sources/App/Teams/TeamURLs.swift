import Foundation

/// The typed paths Teams owns (see `RoutePattern`); its other routes are still spelled where they
/// are registered.
enum TeamPath: String, RoutePattern {
    /// A team's new game (served by Games).
    case newTeamGame = "/teams/:slug/games/new"
}

extension SiteURL {
    static let teams = SiteURL("teams")
    static let newTeam = SiteURL("teams", "new")
    static func team(slug: String) -> SiteURL { SiteURL("teams", slug) }
    static func editTeam(slug: String) -> SiteURL { SiteURL("teams", slug, "edit") }
    static func newTeamGame(slug: String) -> SiteURL { SiteURL(TeamPath.newTeamGame, slug) }
    static let leagues = SiteURL("leagues")
    static func league(slug: String) -> SiteURL { SiteURL("leagues", slug) }
    /// An invitation link: the token is the secret that lets its holder join.
    static func join(token: String) -> SiteURL { SiteURL("join", token) }
}
