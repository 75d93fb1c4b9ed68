import Fluent
import SQLKit
import Vapor

/// `/leaderboard?scope=friends|team:{slug}&period=week|month&by=minutes|distance|workouts|points`:
/// the viewer's rank among friends or a team (see `Leaderboard`).
struct LeaderboardController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CommunityPath.leaderboard, use: page)
    }

    struct Tab: Encodable {
        let label: String
        let url: String
        let current: Bool
    }

    struct Entry: Encodable {
        let rank: Int
        let name: String
        let url: String?
        let value: String
        let detail: String
        let isMe: Bool
    }

    struct Page: Encodable {
        let layout: Layout
        let heading: String
        let scopes: [Tab]
        let periods: [Tab]
        let measures: [Tab]
        let entries: [Entry]
        /// The viewer's own row when it falls below the rows shown.
        let mine: Entry?
        let measureLabel: String
        let pointsRule: String
        let back: String
    }

    static let shown = 50

    func page(req: Request) async throws -> View {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let scopeText = req.query[String.self, at: "scope"] ?? "friends"
        guard let period = CalendarPeriod(rawValue: req.query[String.self, at: "period"] ?? "week"),
            let measure = Leaderboard.Measure(rawValue: req.query[String.self, at: "by"] ?? "minutes")
        else { throw Abort(.badRequest, reason: t("That leaderboard does not exist: choose a period and a measure from the page.")) }
        let teams = try await Team.query(on: req.db).join(Membership.self, on: \Membership.$team.$id == \Team.$id)
            .filter(Membership.self, \.$user.$id == userID).sort(\.$name).all()
        let scope: Leaderboard.Scope
        let heading: String
        if scopeText == "friends" {
            scope = .friends
            heading = t("You and your friends")
        } else if scopeText.hasPrefix("team:"), let team = teams.first(where: { "team:\($0.slug)" == scopeText }) {
            scope = .team(try team.requireID())
            heading = team.name
        } else {
            // Not one of the viewer's teams: whether it exists is not theirs to learn.
            throw Abort(.notFound)
        }
        let now = req.now
        let totals = try await Leaderboard.totals(
            scope: scope, viewer: userID, from: period.start(zone: user.timeZone, now: now), to: now, by: measure, today: req.clock.today, on: req.db)
        let sql = req.db.sql
        let people = try await sql.select().columns("id", "username", "display_name", "visibility", "birth_date").from(User.schema)
            .where("id", .in, Array(totals.keys)).all().map(User.forPolicy)
        let byID = Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let relations = try await Relations.load(viewerID: userID, people: people.compactMap(\.id), today: req.clock.today, on: req.db)
        // People the viewer may not know of are left out before ranking, so no rank counts them.
        let rows = Leaderboard.rows(
            totals.filter { person, _ in
                person == userID || byID[person].map { PersonAccess.canSeeExists($0, relations.relation(to: $0)) } ?? false
            }, by: measure)
        let format = Format(user)
        // Ties read in name order, so the list does not reshuffle from one visit to the next.
        let entries = rows.compactMap { Self.entry($0, person: byID[$0.person], isMe: $0.person == userID, by: measure, format: format) }
            .sorted { ($0.rank, $0.name) < ($1.rank, $1.name) }
        let top = Array(entries.prefix(Self.shown))
        let mine = top.contains { $0.isMe } ? nil : entries.first { $0.isMe }
        func url(scope: String, period: CalendarPeriod, by: Leaderboard.Measure) -> String {
            SiteURL.leaderboard(scope: scope, period: period.rawValue, by: by.rawValue)
        }
        return try await req.view.render(
            "community/leaderboard",
            Page(
                layout: req.layout(title: t("Leaderboard"), section: .home), heading: "\(heading), \(period.label.lowercased())",
                scopes: [Tab(label: t("Friends"), url: url(scope: "friends", period: period, by: measure), current: scopeText == "friends")]
                    + teams.map {
                        Tab(label: $0.name, url: url(scope: "team:\($0.slug)", period: period, by: measure), current: scopeText == "team:\($0.slug)")
                    },
                periods: CalendarPeriod.allCases.map { Tab(label: $0.label, url: url(scope: scopeText, period: $0, by: measure), current: $0 == period) },
                measures: Leaderboard.Measure.allCases.map {
                    Tab(label: $0.label, url: url(scope: scopeText, period: period, by: $0), current: $0 == measure)
                },
                entries: top, mine: mine, measureLabel: measure.label,
                pointsRule: t("Points: one for every active minute and {points} for every workout.", Leaderboard.pointsPerWorkout),
                back: SiteURL.newsFeed.path))
    }

    /// A row as the page shows it; nil for a person no longer there.
    private static func entry(_ row: Leaderboard.Row, person: User?, isMe: Bool, by measure: Leaderboard.Measure, format: Format) -> Entry? {
        guard let person else { return nil }
        let minutes = Int(row.totals.seconds / 60)
        let value: String
        switch measure {
        case .minutes: value = t("{minutes} min", minutes)
        case .distance: value = format.distance(row.totals.metres)
        case .workouts: value = "\(row.totals.workouts)"
        case .points: value = "\(Int(row.value))"
        }
        let workouts = tn("{count} workout", "{count} workouts", row.totals.workouts)
        return Entry(
            rank: row.rank, name: person.displayName, url: SiteURL.person(username: person.username).path, value: value,
            detail: workouts + " · " + t("{minutes} min", minutes) + " · " + format.distance(row.totals.metres), isMe: isMe)
    }
}
