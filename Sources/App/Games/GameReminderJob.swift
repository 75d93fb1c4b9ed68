import Fluent
import Foundation
import SQLKit

/// A day and two hours before a game, everyone coming (said going or maybe, joined, or came as a
/// substitute; not those still waiting for a place) hears when and where. Runs every minute; a game created or
/// moved to within two hours gets only the second reminder.
enum GameReminderJob {
    static let dayBefore: TimeInterval = 24 * 3600
    static let soon: TimeInterval = 2 * 3600

    static let kind = JobKind("games.reminders", every: 60) { run in
        try await send(now: run.now, on: run.db)
    }

    static func send(now: Date, on db: any Database) async throws {
        // Only games owed the reminder of their moment: a game told a day before waits, unread, until
        // it is two hours away (reading every game of the next day each minute cost a busy site a
        // tenth of its CPU).
        let soonLimit = now.addingTimeInterval(soon)
        let games = try await Game.query(on: db).filter(\.$status == .scheduled)
            .filter(\.$startsAt > now).filter(\.$startsAt <= now.addingTimeInterval(dayBefore))
            .group(.or) { owed in
                owed.group(.and) { $0.filter(\.$startsAt <= soonLimit).filter(\.$soonReminderSent == false) }
                owed.group(.and) { $0.filter(\.$startsAt > soonLimit).filter(\.$dayReminderSent == false) }
            }
            .with(\.$team).all()
        for game in games {
            let isSoon = game.startsAt <= now.addingTimeInterval(soon)
            guard isSoon ? !game.soonReminderSent : !game.dayReminderSent else { continue }
            // Claimed first, and only for the time it was loaded with (within a second: a date does
            // not survive a round trip to the bit): a concurrent run cannot send it twice, and a
            // game moved meanwhile keeps its reminders for the new time.
            let claimed = try await db.sql.raw(
                """
                UPDATE games SET day_reminder_sent = \(bind: true), soon_reminder_sent = \(bind: isSoon || game.soonReminderSent)
                WHERE id = \(bind: game.requireID())
                  AND starts_at BETWEEN \(bind: game.startsAt.addingTimeInterval(-1)) AND \(bind: game.startsAt.addingTimeInterval(1))
                  AND \(unsafeRaw: isSoon ? "soon_reminder_sent" : "day_reminder_sent") = \(bind: false)
                RETURNING id
                """
            ).all()
            guard !claimed.isEmpty else { continue }
            // Someone who left the team keeps no place in its games (see `GameAccess.holdsPlace`).
            var members: Set<UUID>?
            if let teamID = game.$team.id {
                members = Set(try await Membership.query(on: db).filter(\.$team.$id == teamID).all().map { $0.$user.id })
            }
            let holders = try await GamePlayer.query(on: db).filter(\.$game.$id == game.requireID()).all()
                .filter { [.going, .maybe, .joined].contains($0.status) || $0.isSub }
                .filter { members?.contains($0.$user.id) ?? true || $0.isSub }
                .map { $0.$user.id }
            try await Notification.send(
                to: holders, from: nil, kind: .gameReminder,
                text: Self.text(for: game),
                link: SiteURL.game(try game.requireID()).path, on: db)
        }
    }

    /// "Riverside Futsal vs. Old Town Thu 26 Nov at 19:30, Riverside Sports Hall", in the reader's
    /// language (called inside `Notification.send`'s `text:`).
    static func text(for game: Game) -> String {
        let title = game.title(teamName: game.team?.name)
        let day = GameTime.shortDay(game.startsAt, zone: game.timeZone), time = GameTime.clock(game.startsAt, zone: game.timeZone)
        guard let place = game.placeName else { return t("{game} {day} at {time}", title, day, time) }
        return t("{game} {day} at {time}, {place}", title, day, time, place)
    }
}
