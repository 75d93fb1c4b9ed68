import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Everything the team page shows, limited to what the viewer may see and do.
struct TeamPage: Encodable {
    struct Member: Encodable {
        let username: String
        let displayName: String
        let role: String
        let roleValue: String
        let profileURL: String?
        let isYou: Bool
        /// Managers may change anyone but owners; owners may change anyone.
        let canEdit: Bool
    }

    struct Pending: Encodable {
        let id: String
        let username: String
        let displayName: String
        let message: String?
        /// "15–17": managers decide knowing who is asking.
        var ageGroup: String? = nil
    }

    struct LinkInvite: Encodable {
        let id: String
        let created: String
        /// The whole link, to copy; nil for a link made before links could be shown again.
        let url: String?
    }

    /// What was typed into the page's small forms (a username to invite, a message with a request
    /// to join), shown again with `errors` beside the field when it was refused.
    struct Typed: Encodable {
        var username = ""
        var message = ""
        var email = ""
    }

    /// An invitation sent by e-mail and not used yet.
    struct EmailInvite: Encodable {
        let id: String
        let email: String
        let sent: String
        let expired: Bool
    }

    struct LeagueLink: Encodable {
        let slug: String
        let name: String
    }

    let layout: Layout
    /// Where the person came from (their teams, the leagues, home), else their teams.
    let back: BackLink
    let team: TeamCard
    let description: String
    let place: String?
    let mapURL: String?
    /// A map of the exact place (SVG), for those who may know it; empty otherwise.
    var map = ""
    let isMember: Bool
    /// The team's conversation (`Messages`), for its members.
    let conversationURL: String?
    let yourRole: String?
    let canManage: Bool
    let isOwner: Bool
    let canJoinNow: Bool
    let canRequest: Bool
    let hasRequested: Bool
    let isInvited: Bool
    let inviteID: String?
    let signInURL: String?
    let memberCount: Int
    let roster: [Member]?
    let requests: [Pending]
    let personInvites: [Pending]
    let linkInvites: [LinkInvite]
    var emailInvites: [EmailInvite] = []
    /// Invitations by e-mail are offered only by a server that sends e-mail.
    let sendsMail: Bool
    let typed: Typed
    let errors: FieldErrors
    let leagues: [LeagueLink]
    let games: [GameCard]
    let feedURL: String?
    let roles: [SelectOption]
    /// Members recording now whom the viewer may watch live.
    let liveNow: [LiveNowCard]

    /// Members and their roles in one plain-SQL query (a roster of 25 through Fluent's reflective
    /// model loading cost more than everything else on the page).
    static func roster(of teamID: UUID, on db: any Database) async throws -> [(role: Membership.Role, user: User)] {
        let rows = try await db.sql.raw(
            """
            SELECT m.role, u.id, u.username, u.display_name, u.visibility, u.birth_date
            FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.team_id = \(bind: teamID)
            """
        ).all()
        // Only what a roster shows and the profile policy needs; reading single columns avoids
        // the generic row decoder, the largest cost on this page after the template.
        return try rows.map { row in
            let user = try User.forPolicy(row)
            let role = Membership.Role(rawValue: try row.decode(column: "role", as: String.self)) ?? .player
            return (role, user)
        }
    }

    static func build(_ access: TeamAccess, req: Request, typed: Typed = .init(), errors: FieldErrors = [:]) async throws -> TeamPage {
        let team = access.team
        let teamID = try team.requireID()
        let memberships = try await Self.roster(of: teamID, on: req.db)
        let viewerID = req.currentUser?.id

        var roster: [Member]?
        if access.canSeeRoster {
            // Names on a roster link to profiles only where the viewer may see that profile.
            let relations = try await Relations.load(viewer: req.currentUser, people: memberships.compactMap { $0.user.id }, today: req.clock.today, on: req.db)
            roster = memberships.sorted { ($0.role, $0.user.searchName) < ($1.role, $1.user.searchName) }.map { m in
                let relation = relations.relation(to: m.user)
                // A child on a public team's roster is "a player under 16" to those outside it; managers see the name.
                let name = access.canManage ? m.user.displayName : PersonAccess.listedName(m.user, relation)
                let visible = name != nil && PersonAccess.canSeeExists(m.user, relation)
                return Member(
                    username: name == nil ? "" : m.user.username, displayName: name ?? PersonAccess.childOnAList, role: m.role.label,
                    roleValue: m.role.rawValue, profileURL: visible ? SiteURL.person(username: m.user.username).path : nil,
                    isYou: m.user.id == viewerID,
                    canEdit: access.canManage && m.user.id != viewerID && (access.isOwner || m.role != .owner)
                )
            }
        }

        var requests: [Pending] = []
        var personInvites: [Pending] = []
        var linkInvites: [LinkInvite] = []
        var emailInvites: [EmailInvite] = []
        if access.canManage {
            requests = try await JoinRequest.query(on: req.db).filter(\.$team.$id == teamID).with(\.$user).sort(\.$createdAt).all().map {
                Pending(
                    id: SiteURL.id($0.id!), username: $0.user.username, displayName: $0.user.displayName, message: $0.message,
                    ageGroup: $0.user.ageGroup(on: req.clock.today)?.label ?? t("age unknown"))
            }
            let invites = try await TeamInvite.query(on: req.db).filter(\.$team.$id == teamID).with(\.$invitee).sort(\.$createdAt).all()
            personInvites = invites.compactMap { invite in
                invite.invitee.map { Pending(id: SiteURL.id(invite.id!), username: $0.username, displayName: $0.displayName, message: nil) }
            }
            let secret = req.application.serverSecret
            let format = Format(viewer: req.currentUser)
            linkInvites = invites.filter { $0.tokenHash != nil }.map {
                LinkInvite(
                    id: SiteURL.id($0.id!),
                    created: format.date($0.createdAt ?? req.now),
                    url: $0.shownToken(secret: secret).map { req.application.config.absolute(.join(token: $0)) })
            }
            emailInvites = try await TeamEmailInvite.query(on: req.db).filter(\.$team.$id == teamID).filter(\.$usedAt == nil).sort(\.$createdAt).all()
                .map { EmailInvite(id: SiteURL.id($0.id!), email: $0.email, sent: format.date($0.createdAt), expired: $0.expiresAt <= req.now) }
        }

        let leagueRows = try await LeagueTeam.query(on: req.db).filter(\.$team.$id == teamID)
            .filter(\.$status == .active).with(\.$league).all()
        let leagues = leagueRows.filter { !$0.league.isPrivate || access.isMember }
            .map { LeagueLink(slug: $0.league.slug, name: $0.league.name) }

        let shownPlace = PlaceView(
            name: team.placeName, coordinate: team.coordinate, exact: access.canSeeExactLocation,
            hiddenNote: t("exact place shown to members"))

        // The next games; their page applies the same rules as this one.
        var games: [GameCard] = []
        for companion in Features.teamCompanions {
            games += try await companion.upcomingGames(of: team, showPlace: access.canSeeExactLocation, now: req.now, on: req.db)
        }
        // Members recording now, for members who may watch them.
        var liveNow: [LiveNowCard] = []
        if access.isMember, let viewer = req.currentUser {
            let members = try memberships.map { try $0.user.requireID() }
            for companion in Features.teamCompanions {
                liveNow += try await companion.liveNow(in: team, members: members, viewer: viewer, now: req.now, on: req.db)
            }
        }
        var feedURL: String?
        if access.isMember, let viewer = req.currentUser {
            feedURL = try await CalendarFeed.url(for: viewer, req: req, team: team.slug)
        }

        let leadsHere = [BackLink(.teams, t("My teams")), BackLink(.leagues, t("Leagues")), BackLink(.home, t("Home"))]
        return TeamPage(
            layout: req.layout(title: team.name, section: .teams),
            back: BackLink.back(on: req, to: leadsHere[0], from: leadsHere),
            team: TeamCard(team, role: access.role),
            description: team.description,
            place: shownPlace.text, mapURL: shownPlace.mapURL, map: shownPlace.map(tiles: req.application.mapTiles),
            isMember: access.isMember,
            conversationURL: access.isMember ? SiteURL.teamConversation(slug: team.slug).path : nil,
            yourRole: access.role?.label,
            canManage: access.canManage, isOwner: access.isOwner,
            canJoinNow: access.canJoinNow, canRequest: access.canRequest,
            hasRequested: access.joinRequest != nil,
            isInvited: access.invite != nil, inviteID: access.invite?.id.map(SiteURL.id),
            signInURL: req.currentUser == nil ? SiteURL.login(next: .team(slug: team.slug)) : nil,
            memberCount: memberships.count,
            roster: roster, requests: requests, personInvites: personInvites, linkInvites: linkInvites, emailInvites: emailInvites,
            sendsMail: req.application.config.sendsMail, typed: typed, errors: errors, leagues: leagues,
            games: Array(games), feedURL: feedURL,
            roles: (access.isOwner ? Membership.Role.allCases : [.manager, .coach, .player]).map { SelectOption(value: $0.rawValue, label: $0.label) },
            liveNow: liveNow
        )
    }

    /// The team page again after one of its forms was refused: what was typed, the message beside
    /// the field, and the refusal's status.
    static func refused(_ access: TeamAccess, req: Request, typed: Typed, errors: FieldErrors, status: HTTPStatus) async throws -> Response {
        try await req.view.render("teams/show", build(access, req: req, typed: typed, errors: errors)).encodeResponse(status: status, for: req)
    }
}
