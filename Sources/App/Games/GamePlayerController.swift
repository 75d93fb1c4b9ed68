import Fluent
import Vapor

/// Who plays: answers to team games, joining and leaving pick-up games, the organiser's requests
/// and removals, reminders, and substitutes.
struct GamePlayerController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(GamePath.rsvp, use: answer)
        routes.post(GamePath.join, use: join)
        routes.post(GamePath.leave, use: leave)
        routes.post(GamePath.takeOffer, use: takeOffer)
        routes.post(GamePath.approvePlayer, use: approve)
        routes.post(GamePath.removePlayer, use: remove)
        routes.post(GamePath.remind, use: remind)
        routes.post(GamePath.subs, use: requestSubs)
        routes.post(GamePath.claimSub, use: claimSub)
        routes.post(GamePath.closeSubs, use: closeSubs)
    }

    private func back(_ req: Request, _ game: Game) -> Response { req.redirect(to: .game(game.id!)) }

    struct AnswerForm: Content {
        var status: String?
        var note: String?
    }

    static func cleanNote(_ text: String?) throws -> String? {
        let note = AccountRules.collapseWhitespace(text ?? "")
        guard note.count <= 200 else { throw Abort(.unprocessableEntity, reason: t("Keep the note to 200 characters or fewer.")) }
        return note.isEmpty ? nil : note
    }

    func answer(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await GameAccess.load(req)
        guard access.isTeamGame, access.isMember else { throw Abort(.forbidden, reason: t("Only the team's members answer for its games.")) }
        guard access.isUpcoming else { throw Abort(.conflict, reason: t("This game is over or cancelled.")) }
        let form = try req.content.decode(AnswerForm.self)
        guard let status = GamePlayer.Status(rawValue: form.status ?? ""), GamePlayer.Status.answers.contains(status) else {
            throw Abort(.unprocessableEntity, reason: t("Answer going, maybe or not going."))
        }
        let note = try Self.cleanNote(form.note)
        if let player = access.player {
            player.status = status
            player.note = note
            try await player.update(on: req.db)
        } else {
            do {
                try await GamePlayer(gameID: access.game.requireID(), userID: user.requireID(), status: status, note: note, at: req.now).create(on: req.db)
            } catch let error as any DatabaseError where error.isConstraintFailure {
                // A second tab answered at the same moment; the first answer stands and is shown.
            }
        }
        req.flash(.success, t("Thanks: you answered “{answer}”.", status.label))
        return back(req, access.game)
    }

    func join(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await GameAccess.load(req)
        guard !access.isTeamGame else {
            throw Abort(.unprocessableEntity, reason: t("Team games are for the team's members; claim a substitute place if one is open."))
        }
        guard access.isUpcoming else { throw Abort(.conflict, reason: t("This game is over or cancelled.")) }
        guard access.player == nil, !access.isOrganiser else { throw Abort(.conflict, reason: t("You are already on this game's list.")) }
        try access.requireAgeFits(user)
        let note = try Self.cleanNote(try req.content.decode(AnswerForm.self).note)
        let outcome = try await GameRoster.join(access.game, user: user, note: note, letIn: access.joinIsLetIn, now: req.now, on: req.db)
        // The invitation did its work; the place (or the request) stands for it now.
        try await access.invite?.delete(on: req.db)
        switch outcome {
        case .joined: req.flash(.success, t("You're in. See you there!"))
        case .waitlisted: req.flash(.info, t("The game is full, so you're on the waitlist. You'll be told if a place opens up."))
        case .requested: req.flash(.info, t("Your request is sent; the organiser will let you know."))
        }
        return back(req, access.game)
    }

    func leave(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await GameAccess.load(req)
        guard access.player != nil else { return back(req, access.game) }
        guard !access.isTeamGame || access.player?.isSub == true else {
            throw Abort(.unprocessableEntity, reason: t("Answer “Not going” instead; your team needs to know."))
        }
        try await GameRoster.remove(userID: user.requireID(), from: access.game, now: req.now, on: req.db)
        let said: String =
            switch access.player?.status {
            case .requested: t("Request withdrawn.")
            case .offered: t("You let the place go; it is offered to the next person waiting.")
            default: t("You've left the game.")
            }
        req.flash(.info, said)
        // A game only its players see is gone for someone who left it: back to their games.
        if access.game.privacy == Team.Privacy.private.rawValue && !access.isTeamGame { return req.redirect(to: .games) }
        return back(req, access.game)
    }

    /// The first person on the waitlist takes the place held for them.
    func takeOffer(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await GameAccess.load(req)
        guard let player = access.player, player.status == .offered else {
            throw Abort(.conflict, reason: t("There is no place held for you in this game."))
        }
        guard !access.game.isCancelled else { throw Abort(.conflict, reason: t("This game is cancelled.")) }
        guard try await GameRoster.takeOffer(player, in: access.game, now: req.now, on: req.db) else {
            throw Abort(.conflict, reason: t("The place was held for you until a set time, which has passed."))
        }
        req.flash(.success, t("You're in."))
        return back(req, access.game)
    }

    private func target(_ req: Request, _ access: GameAccess) async throws -> (User, GamePlayer) {
        let username = (req.parameters.get("username") ?? "").lowercased()
        guard let user = try await User.query(on: req.db).filter(\.$username == username).first(),
            let player = try await GamePlayer.query(on: req.db).filter(\.$game.$id == access.game.requireID())
                .filter(\.$user.$id == user.requireID()).first()
        else { throw Abort(.notFound, reason: t("That person is not on this game's list.")) }
        return (user, player)
    }

    func approve(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireManager()
        let (user, player) = try await target(req, access)
        guard player.status == .requested, !access.game.isCancelled else { return back(req, access.game) }
        guard let outcome = try await GameRoster.approve(player, in: access.game, now: req.now, on: req.db) else { return back(req, access.game) }
        req.flash(.success, outcome == .joined ? t("{name} is in.", user.displayName) : t("The game is full; {name} is on the waitlist.", user.displayName))
        return back(req, access.game)
    }

    func remove(req: Request) async throws -> Response {
        let me = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireManager()
        let (user, player) = try await target(req, access)
        guard user.id != me.id else { throw Abort(.unprocessableEntity, reason: t("Use “Leave game” to take yourself off.")) }
        try await GameRoster.remove(userID: user.requireID(), from: access.game, now: req.now, on: req.db)
        try await Notification.send(
            to: [user.requireID()], from: me.id, kind: .gameRemoved,
            text: player.status == .requested
                ? t("Your request to join the {sport} game was declined", access.game.sportLabel.lowercased())
                : t("The organiser took you off the {sport} game", access.game.sportLabel.lowercased()),
            link: SiteURL.game(access.game.id!).path, on: req.db
        )
        req.flash(.info, t("{name} is off the list.", user.displayName))
        return back(req, access.game)
    }

    func remind(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireManager()
        guard access.isTeamGame, let teamID = access.game.$team.id, access.isUpcoming else {
            throw Abort(.unprocessableEntity, reason: t("Reminders are for upcoming team games."))
        }
        let answered = Set(try await GamePlayer.query(on: req.db).filter(\.$game.$id == access.game.requireID()).all().map { $0.$user.id })
        let waiting = try await Membership.query(on: req.db).filter(\.$team.$id == teamID).all().map { $0.$user.id }.filter { !answered.contains($0) }
        let game = access.game
        try await Notification.send(
            to: waiting, from: nil, kind: .gameReminder,
            text: t(
                "Are you playing? {game}, {day} at {time}", game.title(teamName: access.team?.name),
                GameTime.shortDay(game.startsAt, zone: game.timeZone), GameTime.clock(game.startsAt, zone: game.timeZone)),
            link: SiteURL.game(game.id!).path, on: req.db
        )
        req.flash(
            .success, waiting.isEmpty ? t("Everyone has answered.") : tn("Reminder sent to {count} person.", "Reminder sent to {count} people.", waiting.count))
        return back(req, game)
    }

    // MARK: Substitutes

    struct SubsForm: Content {
        var count: String?
    }

    func requestSubs(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireManager()
        let game = access.game
        guard access.isTeamGame else {
            throw Abort(.unprocessableEntity, reason: t("Pick-up games are listed in Find already; share the game's link to fill places."))
        }
        guard access.team?.privacy != .private else {
            throw Abort(
                .unprocessableEntity, reason: t("A private team's games are never listed, so substitutes can't find them. Invite a player to the team instead.")
            )
        }
        guard access.isUpcoming else { throw Abort(.conflict, reason: t("This game is over or cancelled.")) }
        guard game.coordinate != nil else {
            throw Abort(.unprocessableEntity, reason: t("Add the game's place (with coordinates) first: substitutes find games by distance."))
        }
        guard let count = Int((try req.content.decode(SubsForm.self).count ?? "").trimmingCharacters(in: .whitespaces)), (1...20).contains(count) else {
            throw Abort(.unprocessableEntity, reason: t("Ask for between 1 and 20 substitutes."))
        }
        // Asking again asks for that many more open places beside those already filled.
        game.subsNeeded = game.subsFilled + count
        try await game.update(on: req.db)
        req.flash(
            .success,
            tn(
                "Looking for {count} substitute: the game now shows in Find for players nearby.",
                "Looking for {count} substitutes: the game now shows in Find for players nearby.", count))
        return back(req, game)
    }

    func closeSubs(req: Request) async throws -> Response {
        _ = try req.requireUser()
        let access = try await GameAccess.load(req)
        try access.requireManager()
        access.game.subsNeeded = access.game.subsFilled
        try await access.game.update(on: req.db)
        req.flash(.info, t("The substitute request is closed."))
        return back(req, access.game)
    }

    func claimSub(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await GameAccess.load(req)
        let game = access.game
        guard access.isTeamGame, access.team?.privacy != .private else { throw Abort(.notFound) }
        guard !access.isMember else { throw Abort(.conflict, reason: t("You're on the team: answer “Going” instead.")) }
        guard access.player == nil else { throw Abort(.conflict, reason: t("You already have a place in this game.")) }
        guard access.isUpcoming else { throw Abort(.conflict, reason: t("This game is over or cancelled.")) }
        try access.requireAgeFits(user)
        guard let claimed = try await GameRoster.claimSub(game, user: user, now: req.now, on: req.db) else {
            throw Abort(.conflict, reason: t("Sorry, every substitute place is already filled."))
        }
        if claimed.filled == claimed.needed, let teamID = game.$team.id {
            try await Notification.send(
                to: try await Membership.managerIDs(of: teamID, on: req.db), from: nil, kind: .subsFilled,
                text: tn(
                    "All {count} substitute place is filled for {game}", "All {count} substitute places are filled for {game}", claimed.needed,
                    game.title(teamName: access.team?.name)),
                link: SiteURL.game(game.id!).path, on: req.db
            )
        }
        req.flash(.success, t("You're in as a substitute. Thanks for helping out!"))
        return back(req, game)
    }
}
