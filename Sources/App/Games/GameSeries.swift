import FieldhouseKit
import Fluent
import Foundation

/// A team's weekly sessions: a game or a training repeated every week until a date. Each session
/// is a `Game` of its own (answers, substitutes, reminders and calendar entries work as for any
/// game), tied to the others by `Game.seriesID`, so a change or a cancellation can reach the
/// sessions after it.
enum GameSeries {
    /// About a year of weeks.
    static let mostSessions = 53

    /// What an edit or a cancellation of one session reaches.
    enum Scope: String {
        case one, following

        init(_ text: String?) { self = Scope(rawValue: text ?? "") ?? .one }
    }

    /// The starts of every session the form asks for, each at the typed time of day on the venue's
    /// clock (a 19:00 session stays at 19:00 when the clocks change), or nil with a message on
    /// `repeats` or `until`. Nil without a message when the first date itself is wrong: its own
    /// field says so.
    static func starts(_ form: GameForm, errors: inout FieldErrors) -> [Date]? {
        let zone = (form.time_zone ?? "").trimmingCharacters(in: .whitespaces)
        let time = (form.time ?? "").trimmingCharacters(in: .whitespaces)
        let firstText = (form.day ?? "").trimmingCharacters(in: .whitespaces)
        switch (form.repeats ?? "").trimmingCharacters(in: .whitespaces) {
        case "", "never":
            return LocalTime.instant(day: firstText, time: time, zone: zone).map { [$0] }
        case "weekly":
            break
        default:
            errors["repeats"] = t("Choose whether the game repeats")
            return nil
        }
        guard let until = CalendarDate(iso: (form.until ?? "").trimmingCharacters(in: .whitespaces)) else {
            errors["until"] = t("Enter the date of the last session, for example 2026-12-23")
            return nil
        }
        guard let first = CalendarDate(iso: firstText) else { return nil }
        let weeks = (until.dayNumber - first.dayNumber) / 7
        guard until.dayNumber > first.dayNumber, weeks >= 1 else {
            errors["until"] = t("Choose a last date at least a week after the first session")
            return nil
        }
        guard weeks < mostSessions else {
            errors["until"] = t("A series has at most {count} weekly sessions: choose a last date within a year of the first", mostSessions)
            return nil
        }
        let starts = (0...weeks).compactMap { LocalTime.instant(day: first.adding(days: 7 * $0).description, time: time, zone: zone) }
        return starts.count == weeks + 1 ? starts : nil
    }

    /// The sessions of `game`'s series after it that are still on, soonest first.
    static func following(_ game: Game, on db: any Database) async throws -> [Game] {
        guard let seriesID = game.seriesID else { return [] }
        return try await Game.query(on: db).filter(\.$seriesID == seriesID).filter(\.$startsAt > game.startsAt)
            .filter(\.$status == .scheduled).sort(\.$startsAt).all()
    }

    /// A session as it was before an edit: what changed is what the later sessions take.
    struct Before {
        let day: CalendarDate
        let time: String
        let zone: String
        let durationMinutes: Int
        let place: NamedPlace
        let description: String
        let opponent: (name: String?, team: UUID?, league: UUID?)

        init(_ game: Game) {
            day = LocalTime.day(of: game.startsAt, zone: game.timeZone)
            time = LocalTime.parts(of: game.startsAt, zone: game.timeZone).time
            zone = game.timeZone
            durationMinutes = game.durationMinutes
            place = NamedPlace(name: game.placeName, latitude: game.latitude, longitude: game.longitude)
            description = game.description
            opponent = (game.opponentName, game.$opponentTeam.id, game.$league.id)
        }
    }

    /// Gives the sessions in `later` what changed on `game` (edited from `before`), in the caller's
    /// transaction: a new time of day (and a day moved by as many days as this one), duration,
    /// place, notes or opponent. What a later session had changed alone stays unless this edit
    /// changed the same thing. Returns the sessions whose time or place moved; their members answer again.
    static func follow(_ game: Game, before: Before, later: [Game], on db: any Database) async throws -> [Game] {
        let now = LocalTime.parts(of: game.startsAt, zone: game.timeZone)
        let shift = LocalTime.day(of: game.startsAt, zone: game.timeZone).dayNumber - before.day.dayNumber
        let timeChanged = shift != 0 || now.time != before.time || game.timeZone != before.zone
        let place = NamedPlace(name: game.placeName, latitude: game.latitude, longitude: game.longitude)
        let placeChanged = place.name != before.place.name || place.latitude != before.place.latitude || place.longitude != before.place.longitude
        let opponent = (game.opponentName, game.$opponentTeam.id, game.$league.id)
        let opponentChanged = opponent.0 != before.opponent.name || opponent.1 != before.opponent.team || opponent.2 != before.opponent.league
        var moved: [Game] = []
        for session in later {
            let start = session.startsAt
            let placeBefore = (session.placeName, session.latitude, session.longitude)
            if timeChanged {
                let day = LocalTime.day(of: session.startsAt, zone: session.timeZone).adding(days: shift)
                if let start = LocalTime.instant(day: day.description, time: now.time, zone: game.timeZone) {
                    session.schedule(at: start)
                    session.timeZone = game.timeZone
                }
            }
            if placeChanged {
                session.placeName = place.name
                session.latitude = place.latitude
                session.longitude = place.longitude
                session.placeForSearch()
            }
            if game.durationMinutes != before.durationMinutes { session.durationMinutes = game.durationMinutes }
            if game.description != before.description { session.description = game.description }
            if opponentChanged, session.fixtureID == nil {
                session.opponentName = opponent.0
                session.$opponentTeam.id = opponent.1
                session.$league.id = opponent.2
            }
            let wasMoved = session.startsAt != start || placeBefore != (session.placeName, session.latitude, session.longitude)
            if wasMoved || game.durationMinutes != before.durationMinutes { session.sequence += 1 }
            guard session.hasChanges else { continue }
            try await session.update(on: db)
            if wasMoved { moved.append(session) }
        }
        return moved
    }

    /// Cancels `game` and the sessions of its series after it, in the caller's transaction, and
    /// tells everyone on any of them once.
    static func cancel(from game: Game, by userID: UUID, teamName: String?, on db: any Database) async throws {
        let sessions = [game] + (try await following(game, on: db))
        var everyone: Set<UUID> = []
        var holders: Set<UUID> = []
        for session in sessions {
            session.status = .cancelled
            session.sequence += 1
            try await session.update(on: db)
            everyone.formUnion(try await session.everyone(on: db))
            holders.formUnion(try await session.holders(on: db))
        }
        let later = sessions.count - 1
        // Worded in each recipient's language: the day is named inside the text.
        let title = game.title(teamName: teamName)
        func day() -> String { GameTime.shortDay(game.startsAt, zone: game.timeZone) }
        try await Notification.send(
            to: everyone.filter { $0 != userID }, from: nil, kind: .gameCancelled,
            // The last session of a series has none after it: said as a single game's.
            text: later == 0
                ? t("Cancelled: {game} on {day}", title, day())
                : tn(
                    "Cancelled: {game} on {day} and the {count} session after it",
                    "Cancelled: {game} on {day} and the {count} sessions after it", later, title, day()),
            link: SiteURL.game(try game.requireID()).path, always: holders, on: db
        )
    }

    /// What the game page says of a session's series: "Every Tuesday until 23 Dec", on the weekday
    /// most of its sessions fall on (one moved alone does not change it), and the next session.
    struct Summary {
        let text: String
        let next: Game?
        let hasFollowing: Bool
    }

    static func summary(of game: Game, on db: any Database) async throws -> Summary? {
        guard let seriesID = game.seriesID else { return nil }
        let sessions = try await Game.query(on: db).filter(\.$seriesID == seriesID).sort(\.$startsAt).all()
        let on = sessions.filter { !$0.isCancelled }
        guard let last = (on.isEmpty ? sessions : on).last else { return nil }
        var weekdays: [Int: Int] = [:]
        for session in on.isEmpty ? sessions : on { weekdays[LocalTime.day(of: session.startsAt, zone: session.timeZone).weekday, default: 0] += 1 }
        let weekday = weekdays.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? 0
        let next = on.first { $0.startsAt > game.startsAt }
        return Summary(
            text: Format.everyWeekdayUntil(weekday, until: LocalTime.day(of: last.startsAt, zone: last.timeZone)),
            next: next, hasFollowing: next != nil)
    }
}
