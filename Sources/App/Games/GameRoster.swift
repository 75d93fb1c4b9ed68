import Fluent
import Foundation
import SQLKit
import Vapor

/// Every change to who holds a place in a game. Places are counted on the game row and taken with
/// one guarded UPDATE (`… WHERE joined_count < capacity`), so two people taking the last place at
/// the same moment can never both get it, on SQLite or PostgreSQL. Each transaction starts with
/// its write, so SQLite takes the write lock first and never has to upgrade a read snapshot.
enum GameRoster {
    enum Outcome: Equatable { case joined, waitlisted, requested }

    /// Joins a pick-up game: straight in while there is room, onto the waitlist when full, or as a
    /// request the organiser answers when the game is protected.
    /// `letIn`: the organiser invited them, so a protected game asks for no approval.
    static func join(_ game: Game, user: User, note: String?, letIn: Bool = false, now: Date, on db: any Database) async throws -> Outcome {
        let gameID = try game.requireID(), userID = try user.requireID()
        if game.privacy == Team.Privacy.protected.rawValue && !letIn {
            try await insert(GamePlayer(gameID: gameID, userID: userID, status: .requested, note: note, at: now), on: db)
            try await Notification.send(
                to: [game.$organiser.id], from: user.id, kind: .gameJoinRequest,
                text: t("{name} asked to join your {sport} game", user.displayName, game.sportLabel.lowercased()), link: SiteURL.game(gameID).path, on: db
            )
            return .requested
        }
        return try await db.inTransaction { db in
            let took = try await takePlace(in: gameID, on: db)
            try await insert(GamePlayer(gameID: gameID, userID: userID, status: took ? .joined : .waitlisted, note: note, at: now), on: db)
            return took ? .joined : .waitlisted
        }
    }

    /// The organiser lets in someone who asked: a place if there is one, else the end of the waitlist.
    /// Nil when the request was answered already (a second click, or the person withdrew).
    static func approve(_ player: GamePlayer, in game: Game, now: Date, on db: any Database) async throws -> Outcome? {
        let gameID = try game.requireID()
        let outcome: Outcome? = try await db.inTransaction { db in
            let sql = db.sql
            // The row changes first, guarded by its status, so the place is taken once.
            guard
                try await sql.raw(
                    """
                    UPDATE game_players SET status = \(bind: GamePlayer.Status.waitlisted.rawValue), queued_at = \(bind: now)
                    WHERE id = \(bind: player.requireID()) AND status = \(bind: GamePlayer.Status.requested.rawValue) RETURNING id
                    """
                ).first() != nil
            else { return nil }
            guard try await takePlace(in: gameID, on: db) else { return .waitlisted }
            try await sql.raw("UPDATE game_players SET status = \(bind: GamePlayer.Status.joined.rawValue) WHERE id = \(bind: player.requireID())").run()
            return .joined
        }
        guard let outcome else { return nil }
        try await Notification.send(
            to: [player.$user.id], from: nil, kind: .gamePlace,
            text: outcome == .joined
                ? t("You're in the {sport} game", game.sportLabel.lowercased())
                : t("You're on the waitlist for the {sport} game", game.sportLabel.lowercased()),
            link: SiteURL.game(gameID).path, on: db
        )
        return outcome
    }

    /// Removes someone from a game (they left, let an offered place go, or the organiser removed
    /// them). A place they held is offered to the first person waiting; a substitute's place
    /// reopens the request. Returns false when they had no place.
    /// `onlyIf` removes them only while their place is still in that state (an offer running out
    /// must not remove someone who took it a moment before).
    @discardableResult
    static func remove(
        userID: UUID, from game: Game, now: Date, onlyIf status: GamePlayer.Status? = nil, offeredUntil: Date? = nil, on db: any Database
    ) async throws -> Bool {
        let gameID = try game.requireID()
        let removed: Bool = try await db.inTransaction { db in
            let sql = db.sql
            var guardStatus: SQLQueryString = status.map { "AND status = \(bind: $0.rawValue)" } ?? ""
            // The offer the caller saw, not a newer one made since (they left, rejoined and were
            // offered again: a later deadline). Dates do not survive a round trip to the exact bit.
            if let offeredUntil { guardStatus = "\(guardStatus) AND offer_until <= \(bind: offeredUntil.addingTimeInterval(1))" }
            guard
                let row = try await sql.raw(
                    """
                    DELETE FROM game_players WHERE game_id = \(bind: gameID) AND user_id = \(bind: userID) \(guardStatus) RETURNING status, is_sub
                    """
                ).first()
            else { return false }
            let status = GamePlayer.Status(rawValue: try row.decode(column: "status", as: String.self))
            if try row.decode(column: "is_sub", as: Bool.self) {
                try await sql.raw("UPDATE games SET subs_filled = subs_filled - 1 WHERE id = \(bind: gameID) AND subs_filled > 0").run()
            }
            if status == .joined || status == .offered {
                try await sql.raw("UPDATE games SET joined_count = joined_count - 1 WHERE id = \(bind: gameID) AND joined_count > 0").run()
                try await promoteWaiting(in: game, now: now, on: db)
            }
            return true
        }
        return removed
    }

    /// Someone left a team or was removed: their answers to its games go too, since an answer lets a
    /// person see a game (its place, roster and notices) and follow it in their calendar feed.
    /// Substitute places are not a member's and stay.
    static func forgetAnswers(of userID: UUID, inTeam teamID: UUID, on db: any Database) async throws {
        try await db.sql.raw(
            """
            DELETE FROM game_players WHERE user_id = \(bind: userID) AND is_sub = \(bind: false)
              AND game_id IN (SELECT id FROM games WHERE team_id = \(bind: teamID))
            """
        ).run()
    }

    /// How long a place offered from the waitlist is held: long enough to see the message, short
    /// enough that the next person still has time to plan.
    static let offerHours: TimeInterval = 12 * 3600
    /// Offers end this long before the game starts; closer to it, a freed place is simply given.
    static let offerCutoff: TimeInterval = 3600

    /// Offers free places to the people on the waitlist, first come first served, and tells them.
    /// Each offer holds the place until `offerUntil`; `OfferExpiryJob` passes it on after that.
    /// When the game is too close for anyone to answer, the place is given outright.
    static func promoteWaiting(in game: Game, now: Date, on db: any Database) async throws {
        let gameID = try game.requireID()
        // A game under way or over moves nobody in.
        guard game.startsAt > now, !game.isCancelled else { return }
        let until = offerDeadline(offered: now.addingTimeInterval(offerHours), startsAt: game.startsAt)
        let waiting = try await GamePlayer.query(on: db).filter(\.$game.$id == gameID).filter(\.$status == .waitlisted).count()
        let free = try await Game.find(gameID, on: db).map { fresh in fresh.capacity.map { $0 - fresh.joinedCount } ?? .max } ?? 0
        // An offer is for a queue at least as long as the places: with more places than people
        // waiting, all are simply in.
        let offering = until > now.addingTimeInterval(10 * 60) && waiting >= free
        while true {
            guard
                let next = try await GamePlayer.query(on: db).filter(\.$game.$id == gameID).filter(\.$status == .waitlisted)
                    .sort(\.$queuedAt).sort(\.$id).first()
            else { return }
            guard try await takePlace(in: gameID, on: db) else { return }
            // Guarded by its status: a person who left the queue this instant gets nothing, and the
            // place is given back.
            let moved = try await db.sql.raw(
                """
                UPDATE game_players SET status = \(bind: (offering ? GamePlayer.Status.offered : .joined).rawValue), offer_until = \(bind: offering ? until : nil)
                WHERE id = \(bind: next.requireID()) AND status = \(bind: GamePlayer.Status.waitlisted.rawValue) RETURNING id
                """
            ).first()
            guard moved != nil else {
                try await db.sql.raw("UPDATE games SET joined_count = joined_count - 1 WHERE id = \(bind: gameID) AND joined_count > 0").run()
                continue
            }
            try await Notification.send(
                to: [next.$user.id], from: nil, kind: .gamePlace,
                text: offering
                    ? t(
                        "A place opened up in the {sport} game: it's yours if you take it by {day} {time}", game.sportLabel.lowercased(),
                        GameTime.shortDay(until, zone: game.timeZone), GameTime.clock(until, zone: game.timeZone))
                    : t("A place opened up: you're in the {sport} game", game.sportLabel.lowercased()),
                link: SiteURL.game(gameID).path, on: db
            )
        }
    }

    /// When an offer runs out: at the time it was given for, but never later than `offerCutoff`
    /// before the game (which may have moved earlier since).
    static func offerDeadline(offered until: Date, startsAt: Date) -> Date {
        min(until, startsAt.addingTimeInterval(-offerCutoff))
    }

    /// The person offered a place takes it, in one guarded statement (the expiry job may be
    /// running). False when the offer has run out, or there is none.
    static func takeOffer(_ player: GamePlayer, in game: Game, now: Date, on db: any Database) async throws -> Bool {
        guard let until = player.offerUntil, offerDeadline(offered: until, startsAt: game.startsAt) > now, !game.isCancelled else { return false }
        return try await db.sql.raw(
            """
            UPDATE game_players SET status = \(bind: GamePlayer.Status.joined.rawValue), offer_until = NULL
            WHERE id = \(bind: player.requireID()) AND status = \(bind: GamePlayer.Status.offered.rawValue) AND offer_until > \(bind: now)
              AND game_id IN (SELECT id FROM games WHERE status = \(bind: Game.Status.scheduled.rawValue))
            RETURNING id
            """
        ).first() != nil
    }

    /// Offers nobody took in time: each person is taken off the game and told, and the place is
    /// offered to the next in the queue. Offers in cancelled games are left alone: nothing to pass on.
    static func expireOffers(now: Date, on db: any Database) async throws {
        let offered = try await GamePlayer.query(on: db).filter(\.$status == .offered).with(\.$game).all()
        for player in offered where player.game.status == .scheduled {
            guard let until = player.offerUntil, offerDeadline(offered: until, startsAt: player.game.startsAt) <= now else { continue }
            guard try await remove(userID: player.$user.id, from: player.game, now: now, onlyIf: .offered, offeredUntil: until, on: db) else { continue }
            try await Notification.send(
                to: [player.$user.id], from: nil, kind: .gamePlace,
                text: t("The place held for you in the {sport} game ran out; join again to wait for another", player.game.sportLabel.lowercased()),
                link: SiteURL.game(try player.game.requireID()).path, on: db)
        }
    }

    /// Claims one substitute place. Returns nil when every place is already filled.
    static func claimSub(_ game: Game, user: User, now: Date, on db: any Database) async throws -> (filled: Int, needed: Int)? {
        let gameID = try game.requireID(), userID = try user.requireID()
        return try await db.inTransaction { db in
            guard
                let row = try await db.sql.raw(
                    """
                    UPDATE games SET subs_filled = subs_filled + 1
                    WHERE id = \(bind: gameID) AND subs_filled < subs_needed AND status = 'scheduled'
                    RETURNING subs_filled, subs_needed
                    """
                ).first()
            else { return nil }
            try await insert(GamePlayer(gameID: gameID, userID: userID, status: .going, isSub: true, at: now), on: db)
            return (try row.decode(column: "subs_filled", as: Int.self), try row.decode(column: "subs_needed", as: Int.self))
        }
    }

    /// Takes one place if the game has room. The only statement that raises `joined_count`.
    private static func takePlace(in gameID: UUID, on db: any Database) async throws -> Bool {
        try await db.sql.raw(
            """
            UPDATE games SET joined_count = joined_count + 1
            WHERE id = \(bind: gameID) AND status = 'scheduled' AND (capacity IS NULL OR joined_count < capacity)
            RETURNING joined_count
            """
        ).first() != nil
    }

    /// Inserts a place, answering "already in" as a clear 409 rather than a database error.
    private static func insert(_ player: GamePlayer, on db: any Database) async throws {
        do {
            try await player.create(on: db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Abort(.conflict, reason: t("You are already on this game's list."))
        }
    }
}
