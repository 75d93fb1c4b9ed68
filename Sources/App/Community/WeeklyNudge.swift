import FieldhouseKit
import Fluent
import Foundation
import SQLKit

/// On Monday between 08:00 and 09:00 in their own time zone, people who moved less than the WHO
/// advises for their age last week (under 18: 60 minutes a day, 420 a week; adults: 150 a week) get
/// one encouraging note with one concrete idea: a public pick-up game nearby in a sport of theirs
/// this week, else a challenge a friend sent them, else a Learn article. Accounts younger than a
/// week are left alone, as is anyone who turned the nudge off. `weekly_nudges` holds one row per
/// person and week, written before the note, so a second run or process sends nothing twice.
enum WeeklyNudge {
    static let kind = JobKind("community.nudge", every: 3600) { run in
        try await send(hourStarting: run.due, now: run.now, on: run.db)
    }

    static let youthMinutes = 420.0
    static let adultMinutes = 150.0

    static func send(hourStarting due: Date, now: Date, on db: any Database) async throws {
        let sql = db.sql
        struct Zone: Decodable { let time_zone: String }
        for zone in try await sql.raw("SELECT DISTINCT time_zone FROM users").all(decoding: Zone.self).map(\.time_zone) {
            let clock = WallClock(due, zone: TimeZone.named(zone))
            // WallClock's weekday: 0 is Sunday, 1 Monday.
            guard clock.weekday == 1, clock.hour == 8 else { continue }
            let thisWeek = CalendarPeriod.week.start(zone: zone, now: due)
            var calendar = Calendar(identifier: .iso8601)
            calendar.timeZone = TimeZone.named(zone)
            guard let lastWeek = calendar.date(byAdding: .day, value: -7, to: thisWeek) else { continue }
            try await nudge(zone: zone, from: lastWeek, to: thisWeek, accountsBefore: lastWeek, now: now, on: db)
        }
    }

    /// Nudges the quiet people in `zone` about the week [from, to), among accounts made before
    /// `accountsBefore` (the demo passes its own start: its people are new but have a history).
    static func nudge(zone: String, from: Date, to: Date, accountsBefore: Date, now: Date, on db: any Database) async throws {
        let sql = db.sql
        struct Person: Decodable {
            let id: UUID
            let birth_date: String?
            let home_lat: Double?
            let home_lon: Double?
            let seconds: Double?
        }
        let today = LocalTime.utcDay(of: now)
        let eighteen = Format.isoDay(year: today.year - 18, month: today.month, day: today.day)
        let people = try await sql.raw(
            """
            SELECT u.id, u.birth_date, u.home_lat, u.home_lon,
                   (SELECT SUM(w.duration_s) FROM workouts w WHERE w.user_id = u.id AND w.end_ms IS NOT NULL
                     AND w.start_ms >= \(bind: Feed.milliseconds(from)) AND w.start_ms < \(bind: Feed.milliseconds(to))) AS seconds
            FROM users u
            WHERE u.time_zone = \(bind: zone) AND u.created_at <= \(bind: accountsBefore)
              AND NOT EXISTS (SELECT 1 FROM notification_settings s WHERE s.user_id = u.id AND s.topic = 'nudges' AND s.in_app = \(bind: false))
            """
        ).all(decoding: Person.self)
        // The week nudged about, named by the Monday it ended on.
        let monday = WallClock(to, zone: TimeZone.named(zone))
        let week = Format.isoDay(monday)
        for person in people {
            let minutes = (person.seconds ?? 0) / 60
            let young = person.birth_date.map { $0 > eighteen } ?? true
            let target = young ? youthMinutes : adultMinutes
            guard minutes < target else { continue }
            guard
                try await sql.raw(
                    """
                    INSERT INTO weekly_nudges (id, user_id, week) VALUES (\(bind: UUID()), \(bind: person.id), \(bind: week))
                    ON CONFLICT (user_id, week) DO NOTHING RETURNING id
                    """
                ).first() != nil
            else { continue }
            let suggested = try await suggestion(
                for: person.id, young: young, home: person.home_lat.flatMap { lat in person.home_lon.map { (lat, $0) } }, now: now, on: db)
            let done = Int(minutes)
            // A function, called inside `send`, which reads the text in its recipient's language.
            func text() -> String {
                let summary = done == 0 ? t("A quiet week last week.") : tn("Last week: {count} active minutes.", "Last week: {count} active minutes.", done)
                let advice = young ? t("Moving an hour a day keeps you strong and sleeping well.") : t("150 minutes a week keeps you healthy.")
                return summary + " " + advice + " " + suggested.idea.text
            }
            try await Notification.send(to: [person.id], from: nil, kind: .nudge, text: text(), link: suggested.link, on: db)
        }
    }

    /// One concrete idea, put in words only when the note is written (`text` reads the language).
    enum Idea {
        case game(Game)
        case challenge(caption: String)
        case article(title: String)
        case plan

        var text: String {
            switch self {
            case .game(let game):
                t(
                    "How about the {sport} pick-up game on {day} near you?", game.sportLabel.lowercased(),
                    GameTime.shortDay(game.startsAt, zone: game.timeZone))
            case .challenge(let caption): t("A friend's challenge is waiting: “{caption}”", Format.excerpt(caption))
            case .article(let title): t("A few minutes' read to get going: “{title}”.", title)
            case .plan: t("Plan something with a friend this week.")
            }
        }
    }

    /// One concrete idea: a game nearby in the person's sports this week, a challenge waiting for
    /// them, or something to read.
    static func suggestion(for userID: UUID, young: Bool, home: (Double, Double)?, now: Date, on db: any Database) async throws -> (idea: Idea, link: String) {
        let sql = db.sql
        if let (lat, lon) = home {
            // About 10 km around home: a box is enough for a suggestion. The same rule as the
            // alerts for new games decides who may be offered one (age, gender, level).
            let dLat = 0.09, dLon = 0.09 / max(0.1, cos(lat * .pi / 180))
            struct Person: Decodable {
                let birth_date: String?
                let gender: String
            }
            let person = try await sql.raw("SELECT birth_date, gender FROM users WHERE id = \(bind: userID)").first(decoding: Person.self)
            let skills = Dictionary(
                try await UserSport.query(on: db).filter(\.$user.$id == userID).all().map { ($0.sport, $0.skill) }, uniquingKeysWith: { first, _ in first })
            let games = try await Game.query(on: db).filter(\.$kind == .pickup).filter(\.$privacy == Team.Privacy.public.rawValue)
                .filter(\.$status == .scheduled).filter(\.$startsAt > now).filter(\.$startsAt < now.addingTimeInterval(7 * 86_400))
                .filter(\.$findLat >= lat - dLat).filter(\.$findLat <= lat + dLat).filter(\.$findLon >= lon - dLon).filter(\.$findLon <= lon + dLon)
                .filter(\.$sport ~~ Array(skills.keys)).filter(\.$organiser.$id != userID).sort(\.$startsAt).limit(20).all()
            let mine = Set(
                try await GamePlayer.query(on: db).filter(\.$user.$id == userID).filter(\.$game.$id ~~ games.compactMap(\.id)).all().map { $0.$game.id })
            let today = LocalTime.utcDay(of: now)
            if let person,
                let game = games.first(where: { game in
                    !game.isFull && !mine.contains(game.id ?? UUID())
                        && NearbyGameJob.suits(game, birthDate: person.birth_date, gender: person.gender, skill: skills[game.sport] ?? "", today: today)
                })
            {
                return (.game(game), SiteURL.game(try game.requireID()).path)
            }
        }
        struct Waiting: Decodable {
            let id: UUID
            let caption: String
        }
        if let challenge = try await sql.raw(
            """
            SELECT c.id, c.caption FROM challenge_recipients r JOIN challenges c ON c.id = r.challenge_id
            WHERE r.user_id = \(bind: userID) AND r.completed_at IS NULL AND (c.deadline IS NULL OR c.deadline > \(bind: now))
              AND NOT EXISTS (SELECT 1 FROM challenge_responses p WHERE p.challenge_id = c.id AND p.user_id = \(bind: userID))
            ORDER BY c.created_at DESC LIMIT 1
            """
        ).first(decoding: Waiting.self) {
            return (.challenge(caption: challenge.caption), SiteURL.challenge(challenge.id).path)
        }
        struct Article: Decodable {
            let slug: String
            let title: String
            let audience: String
            let translated: Bool
        }
        struct Reader: Decodable { let language: String? }
        let language = try await sql.raw("SELECT language FROM users WHERE id = \(bind: userID)").first(decoding: Reader.self)?.language
        // An article for everyone, or for young people when the person is one; a different one
        // each week; in the reader's language when one is translated (its title too), so a
        // Portuguese reader is not sent to an English page while Portuguese ones wait.
        let suitable = try await sql.raw(
            """
            SELECT a.slug, COALESCE(t.title, a.title) AS title, a.audience, (t.id IS NOT NULL) AS translated
            FROM learn_articles a LEFT JOIN learn_translations t ON t.article_id = a.id AND t.language = \(bind: language ?? "en")
            WHERE a.published = \(bind: true) ORDER BY a.title
            """
        ).all(decoding: Article.self).filter { $0.audience == "everyone" || (young && $0.audience.contains("young")) }
        let inTheirLanguage = suitable.filter(\.translated)
        let articles = inTheirLanguage.isEmpty ? suitable : inTheirLanguage
        if !articles.isEmpty {
            let week = Int((now.timeIntervalSince1970 / (7 * 86_400)).rounded(.down))
            let article = articles[((week % articles.count) + articles.count) % articles.count]
            return (.article(title: article.title), SiteURL.article(slug: article.slug).path)
        }
        return (.plan, SiteURL.newPlan.path)
    }
}
