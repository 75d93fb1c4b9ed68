import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// A new public pick-up game is told to the people it suits: they play the sport (at the game's
/// level, when it names one), their age and gender fit it, and their home is within `radius`.
/// Each person hears of at most one new game a day. Nobody under 16 (or without a birth date) is
/// told: anyone may organise a game, and a message that brings children to a stranger's game is
/// not one to send.
enum NearbyGameJob {
    static let radius = 10_000.0
    static let quiet: TimeInterval = 24 * 3600

    struct Payload: Codable { let game: UUID }

    static let kind = JobKind("games.nearby") { run in
        try await announce(run.payload(as: Payload.self).game, now: run.now, on: run.db)
    }

    static func enqueue(_ game: Game, jobs: JobRunner, now: Date, on db: any Database) async throws {
        let id = try game.requireID()
        try await jobs.enqueue(kind.name, payload: Payload(game: id), at: now, key: "games.nearby:\(SiteURL.id(id))", on: db)
    }

    static func announce(_ gameID: UUID, now: Date, on db: any Database) async throws {
        guard let game = try await Game.find(gameID, on: db), game.kind == .pickup, game.status == .scheduled, game.startsAt > now,
            game.privacy == Team.Privacy.public.rawValue, !game.isFull, let place = game.coordinate
        else { return }
        struct Row: Decodable {
            let id: UUID
            let home_lat: Double
            let home_lon: Double
            let birth_date: String?
            let gender: String
            let units: String
            let skill: String
        }
        let box = Geo.boundingBox(around: place, radius: radius)
        let sql = db.sql
        let rows = try await sql.raw(
            """
            SELECT u.id, u.home_lat, u.home_lon, u.birth_date, u.gender, u.units, s.skill
            FROM users u JOIN user_sports s ON s.user_id = u.id AND s.sport = \(bind: game.sport)
            WHERE u.home_lat BETWEEN \(bind: box.minLatitude) AND \(bind: box.maxLatitude)
              AND u.home_lon BETWEEN \(bind: box.longitudeRanges.map(\.lowerBound).min() ?? -180) AND \(bind: box.longitudeRanges.map(\.upperBound).max() ?? 180)
              AND u.id <> \(bind: game.$organiser.id)
              AND u.id NOT IN (SELECT user_id FROM game_players WHERE game_id = \(bind: gameID))
            """
        ).all(decoding: Row.self)
        let today = LocalTime.utcDay(of: now)
        let suited = rows.filter { row in
            let home = Coordinate(latitude: row.home_lat, longitude: row.home_lon)
            guard box.contains(home), Geo.distance(home, place) <= radius else { return false }
            return suits(game, birthDate: row.birth_date, gender: row.gender, skill: row.skill, today: today)
        }
        for row in suited {
            // At most one a day: the claim succeeds only for someone not told within `quiet`.
            let claimed = try await sql.raw(
                """
                INSERT INTO nearby_alerts (id, user_id, last_sent_at) VALUES (\(bind: UUID()), \(bind: row.id), \(bind: now))
                ON CONFLICT (user_id) DO UPDATE SET last_sent_at = excluded.last_sent_at
                WHERE nearby_alerts.last_sent_at <= \(bind: now.addingTimeInterval(-quiet))
                RETURNING user_id
                """
            ).first()
            guard claimed != nil else { continue }
            let metres = Geo.distance(Coordinate(latitude: row.home_lat, longitude: row.home_lon), place)
            try await Notification.send(
                to: [row.id], from: nil, kind: .gameNearby,
                text: t(
                    "New {sport} pick-up game near you: {day} at {time}, {distance} from home", game.sportLabel.lowercased(),
                    GameTime.shortDay(game.startsAt, zone: game.timeZone), GameTime.clock(game.startsAt, zone: game.timeZone),
                    Format.proximity(metres, imperial: row.units == User.Units.imperial.rawValue)),
                link: SiteURL.game(gameID).path, on: db)
        }
    }

    /// Whether a game may be put to a person who did not look for it (an alert, a suggestion):
    /// 16 or over with a known age, of its age group, its gender and its level in the sport.
    static func suits(_ game: Game, birthDate: String?, gender: String, skill: String, today: CalendarDate) -> Bool {
        guard game.skill == TeamSkill.any.rawValue || game.skill == skill else { return false }
        switch TeamGender(rawValue: game.gender) ?? .any {
        case .women: guard gender == User.Gender.female.rawValue else { return false }
        case .men: guard gender == User.Gender.male.rawValue else { return false }
        case .mixed, .any: break
        }
        guard let age = birthDate.flatMap(CalendarDate.init(iso:))?.age(on: today), age >= 16 else { return false }
        return (AgeGroup(rawValue: game.ageGroup) ?? .any).admits(age: age)
    }
}
