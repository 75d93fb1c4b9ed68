import Foundation

/// Every path Teams serves, spelled once (see `RoutePattern`): its controllers register these cases
/// and its links are made from them. `newTeamGame` and `leagueSchedule` are served by Games.
enum TeamPath: String, RoutePattern {
    case teams = "/teams"
    case newTeam = "/teams/new"
    case team = "/teams/:slug"
    /// The team's conversation, served by Messages.
    case teamConversation = "/teams/:slug/messages"
    case editTeam = "/teams/:slug/edit"
    case deleteTeam = "/teams/:slug/delete"
    case joinTeam = "/teams/:slug/join"
    case leaveTeam = "/teams/:slug/leave"
    case approveRequest = "/teams/:slug/requests/:id/approve"
    case declineRequest = "/teams/:slug/requests/:id/decline"
    case changeRole = "/teams/:slug/members/:username/role"
    case removeMember = "/teams/:slug/members/:username/remove"
    case invites = "/teams/:slug/invites"
    case revokeInvite = "/teams/:slug/invites/:id/revoke"
    /// Invitations by e-mail, for people who may not be on Fieldhouse yet.
    case emailInvites = "/teams/:slug/email-invites"
    case cancelEmailInvite = "/teams/:slug/email-invites/:id/cancel"
    /// An e-mailed invitation's link: the token works once, until it expires.
    case emailInvite = "/team-invitations/:token"
    /// A team's new game (served by Games).
    case newTeamGame = "/teams/:slug/games/new"
    case acceptInvite = "/invites/:id/accept"
    case declineInvite = "/invites/:id/decline"
    /// An invitation link: the token is the secret that lets its holder join.
    case join = "/join/:token"
    case leagues = "/leagues"
    case newLeague = "/leagues/new"
    case league = "/leagues/:slug"
    case leagueTeams = "/leagues/:slug/teams"
    case acceptLeagueTeam = "/leagues/:slug/teams/:team/accept"
    case declineLeagueTeam = "/leagues/:slug/teams/:team/decline"
    case removeLeagueTeam = "/leagues/:slug/teams/:team/remove"
    /// Scheduling a league's season into games (served by Games).
    case leagueSchedule = "/leagues/:slug/schedule"
}

extension SiteURL {
    static let teams = SiteURL(TeamPath.teams)
    static let newTeam = SiteURL(TeamPath.newTeam)
    static func team(slug: String) -> SiteURL { SiteURL(TeamPath.team, slug) }
    static func teamConversation(slug: String) -> SiteURL { SiteURL(TeamPath.teamConversation, slug) }
    static func editTeam(slug: String) -> SiteURL { SiteURL(TeamPath.editTeam, slug) }
    static func newTeamGame(slug: String) -> SiteURL { SiteURL(TeamPath.newTeamGame, slug) }
    static let leagues = SiteURL(TeamPath.leagues)
    static func league(slug: String) -> SiteURL { SiteURL(TeamPath.league, slug) }
    static func leagueSchedule(slug: String) -> SiteURL { SiteURL(TeamPath.leagueSchedule, slug) }
    /// An invitation link: the token is the secret that lets its holder join.
    static func join(token: String) -> SiteURL { SiteURL(TeamPath.join, token) }
    /// An e-mailed invitation's link, which works once.
    static func emailInvite(token: String) -> SiteURL { SiteURL(TeamPath.emailInvite, token) }
}
