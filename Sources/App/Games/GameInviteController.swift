import Fluent
import Vapor

/// Asking a person to a pick-up game: by username, among the people the asker may reach.
struct GameInviteController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(GamePath.invite, use: invite)
    }

    struct InviteForm: Content {
        var username: String?
    }

    func invite(req: Request) async throws -> Response {
        let inviter = try req.requireUser()
        let access = try await GameAccess.load(req)
        let game = access.game
        guard !access.isTeamGame else {
            throw Abort(.unprocessableEntity, reason: t("Team games are for the team's members; invite the person to the team instead."))
        }
        guard access.isUpcoming else { throw Abort(.conflict, reason: t("This game is over or cancelled.")) }
        guard access.canInvite else {
            throw Abort(.forbidden, reason: t("Only the organiser and the people playing can invite others to this game."))
        }
        let gameID = try game.requireID(), inviterID = try inviter.requireID()
        let typed = String((try req.content.decode(InviteForm.self).username ?? "").prefix(100))
        func mistake(_ message: String, _ status: HTTPStatus = .unprocessableEntity) async throws -> Response {
            var page = try await GamePage.build(access, req: req)
            page.inviteTyped = typed
            page.errors = ["invite": message]
            return try await req.view.render("games/show", page).encodeResponse(status: status, for: req)
        }
        let username = AccountRules.collapseWhitespace(typed).lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "@"))
        guard !username.isEmpty else { return try await mistake(t("Enter the username of the person to invite.")) }
        let found = try await User.query(on: req.db).filter(\.$username == username).first()
        // The rules of team invitations: a hidden profile answers as a name nobody has; a child who
        // does not know the inviter, or someone either of the two blocked, hears nothing, and the
        // inviter is told it was sent, so the answer gives nothing away. The refusals below are
        // asked of everyone alike: were they asked only of those who may be reached, a stranger's
        // "invited" would tell the inviter that the person is under 16, or blocked them.
        let reach = try await PersonAccess.reach(found, from: inviter, today: req.clock.today, on: req.db)
        guard let invitee = found, reach != .unknown else {
            return try await mistake(t("Nobody has the username “{username}”. Check the spelling on their profile page.", typed))
        }
        let inviteeID = try invitee.requireID()
        if let refused = try await refusal(of: invitee, by: inviter, to: game, ageShown: reach == .allowed, on: req) {
            return try await mistake(refused.0, refused.1)
        }
        let overLimit = try await Self.store(
            game, invitee: inviteeID, inviter: inviter, byOrganiser: access.isOrganiser, send: reach != .dropped, now: req.now, today: req.clock.today,
            on: req.db)
        if overLimit {
            return try await mistake(
                t("You have invited {count} people to games today, the most a day allows. Try again tomorrow.", GameInvite.dailyLimit),
                .tooManyRequests)
        }
        req.flash(.success, t("{name} is invited. They will find the game under their notifications.", invitee.displayName))
        return req.redirect(to: .game(gameID))
    }

    /// Why `invitee` cannot be asked: already on the list, or not someone the inviter knows.
    /// `ageShown` false: the invitee is a child who does not know the inviter, and an age refusal
    /// would tell the inviter their age group (as a held team invitation answers as if sent).
    private func refusal(of invitee: User, by inviter: User, to game: Game, ageShown: Bool, on req: Request) async throws -> (String, HTTPStatus)? {
        let inviteeID = try invitee.requireID()
        if inviteeID == inviter.id { return (t("You are already on this game's list."), .unprocessableEntity) }
        let relation = try await Relations.load(viewer: inviter, people: [inviteeID], today: req.clock.today, on: req.db).relation(to: invitee)
        guard relation.viewerFollows == .accepted || relation.followsViewer == .accepted || relation.sharesTeam else {
            return (t("You can invite people you follow, people who follow you and your teammates."), .unprocessableEntity)
        }
        let playing = try await GamePlayer.query(on: req.db).filter(\.$game.$id == game.requireID()).filter(\.$user.$id == inviteeID).first()
        if inviteeID == game.$organiser.id || playing != nil { return (t("{name} is already on this game's list.", invitee.displayName), .conflict) }
        // As for a team's age rules: told to the inviter, who knows the person, rather than to the invitee too late.
        let group = AgeGroup(rawValue: game.ageGroup) ?? .any
        if ageShown, !invitee.fits(group, today: LocalTime.utcDay(of: req.now)) {
            return (t("{name} cannot play in this game: it is for the age group {group}.", invitee.displayName, group.label), .unprocessableEntity)
        }
        return nil
    }

    /// Writes the invitation and tells the invitee, unless the inviter has used up the day's
    /// invitations (true then). Counted and written under a lock on the inviter's row, so parallel
    /// presses count one after the other. A second invitation of the same person changes nothing,
    /// and someone who cannot be reached (`send` false) gets none.
    private static func store(
        _ game: Game, invitee inviteeID: UUID, inviter: User, byOrganiser: Bool, send: Bool, now: Date, today: CalendarDate, on db: any Database
    ) async throws -> Bool {
        let gameID = try game.requireID(), inviterID = try inviter.requireID()
        return try await db.inTransaction { db in
            try await db.lockForCount(User.schema, id: inviterID)
            let sentToday = try await GameInvite.query(on: db).filter(\.$inviter.$id == inviterID)
                .filter(\.$createdAt > now.addingTimeInterval(-86_400)).count()
            guard sentToday < GameInvite.dailyLimit else { return true }
            guard send, try await GameInvite.query(on: db).filter(\.$game.$id == gameID).filter(\.$invitee.$id == inviteeID).first() == nil
            else { return false }
            try await GameInvite(gameID: gameID, invitee: inviteeID, inviter: inviterID, byOrganiser: byOrganiser, at: now).create(on: db)
            try await Notification.send(
                to: [inviteeID], by: inviter, kind: .gameInvite, today: today,
                text: { name in
                    t(
                        "{name} invited you to a {sport} game on {day} at {time}", name, game.sportLabel.lowercased(),
                        GameTime.shortDay(game.startsAt, zone: game.timeZone), GameTime.clock(game.startsAt, zone: game.timeZone))
                },
                link: SiteURL.game(gameID).path, on: db)
            return false
        }
    }
}
