import FieldhouseKit
import Fluent
import Foundation

/// A game: a team's fixture, or a pick-up game anyone may join. Who plays is in `GamePlayer`; who
/// may see and do what is in `GameAccess`.
final class Game: Model, @unchecked Sendable {
    static let schema = "games"

    @ID(key: .id) var id: UUID?
    @Enum(key: "kind") var kind: Kind
    @OptionalParent(key: "team_id") var team: Team?
    /// Set when the opponent is a team of the same league; the result then counts in its standings.
    @OptionalParent(key: "league_id") var league: League?
    @OptionalParent(key: "opponent_team_id") var opponentTeam: Team?
    @OptionalField(key: "opponent_name") var opponentName: String?
    /// A season's fixture is one game for each of its two teams, both with this id: moving or
    /// scoring one changes the other. Nil for every other game.
    @OptionalField(key: "fixture_id") var fixtureID: UUID?
    /// The round of the season the fixture belongs to, from 1.
    @OptionalField(key: "league_round") var leagueRound: Int?
    /// The away team's copy of a fixture (`team` is the away team). Scores are kept from each copy's
    /// own team's side, so the table counts the home copy alone.
    @OptionalField(key: "plays_away") var playsAway: Bool?
    /// A fixture's result entered by this team's manager and not yet confirmed by the other team's:
    /// it does not count in the table until then.
    @OptionalField(key: "result_by_team_id") var resultByTeamID: UUID?
    /// A team's weekly sessions share this id, one game per week (`GameSeries`). Nil for a game
    /// that does not repeat.
    @OptionalField(key: "series_id") var seriesID: UUID?
    @Parent(key: "organiser_id") var organiser: User
    @Field(key: "sport") var sport: String
    @Field(key: "age_group") var ageGroup: String
    @Field(key: "gender") var gender: String
    @Field(key: "skill") var skill: String
    /// Pick-up games: public or protected. Team games follow their team's privacy.
    @Field(key: "privacy") var privacy: String
    @Field(key: "starts_at") var startsAt: Date
    @Field(key: "duration_minutes") var durationMinutes: Int
    /// The venue's zone: times are typed and shown in it.
    @Field(key: "time_zone") var timeZone: String
    @OptionalField(key: "place_name") var placeName: String?
    @OptionalField(key: "latitude") var latitude: Double?
    @OptionalField(key: "longitude") var longitude: Double?
    /// Where searches place the game: exactly for public games, at its area otherwise, so
    /// distances in search results never reveal a protected place. Set by `placeForSearch()`.
    @OptionalField(key: "find_lat") var findLat: Double?
    @OptionalField(key: "find_lon") var findLon: Double?
    @Field(key: "description") var description: String
    @OptionalField(key: "capacity") var capacity: Int?
    @OptionalField(key: "min_players") var minPlayers: Int?
    /// Pick-up places taken: players joined, and places offered to someone from the waitlist.
    /// Changed only by the guarded updates in `GameRoster`.
    @Field(key: "joined_count") var joinedCount: Int
    @Field(key: "subs_needed") var subsNeeded: Int
    @Field(key: "subs_filled") var subsFilled: Int
    @Enum(key: "status") var status: Status
    /// The iCalendar SEQUENCE: bumped whenever a calendar should show a change.
    @Field(key: "sequence") var sequence: Int
    @OptionalField(key: "home_score") var homeScore: Int?
    @OptionalField(key: "away_score") var awayScore: Int?
    /// Set by `GameReminderJob`; cleared when the game moves.
    @Field(key: "day_reminder_sent") var dayReminderSent: Bool
    @Field(key: "soon_reminder_sent") var soonReminderSent: Bool
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    enum Kind: String, Codable, Sendable { case team, pickup }
    enum Status: String, Codable, Sendable { case scheduled, cancelled }

    var endsAt: Date { startsAt.addingTimeInterval(Double(durationMinutes) * 60) }

    /// Sets (or changes) when the game starts. A new time means new reminders.
    func schedule(at start: Date) {
        guard $startsAt.value != start else { return }
        startsAt = start
        dayReminderSent = false
        soonReminderSent = false
    }
    var isCancelled: Bool { status == .cancelled }
    var subsOpen: Bool { subsFilled < subsNeeded && !isCancelled }
    var isFull: Bool { capacity.map { joinedCount >= $0 } ?? false }
    var sportLabel: String { Sport(rawValue: sport)?.label ?? sport }

    var coordinate: Coordinate? {
        guard let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Updates the search position after the place or privacy changed.
    func placeForSearch() {
        let shown = coordinate.map { privacy == Team.Privacy.public.rawValue ? $0 : PlaceView.area(of: $0) }
        findLat = shown?.latitude
        findLon = shown?.longitude
    }

    /// "Riverside Futsal vs. Old Town" or "Volleyball pick-up".
    func title(teamName: String?) -> String {
        Self.title(kind: kind, sportLabel: sportLabel, teamName: teamName, opponent: opponentName)
    }

    /// The one wording of a game's title, for the game itself, `MyGames` rows and search results.
    static func title(kind: Kind, sportLabel: String, teamName: String?, opponent: String?) -> String {
        switch kind {
        case .team:
            guard let opponent else { return teamName ?? sportLabel }
            return t("{team} vs. {opponent}", teamName ?? sportLabel, opponent)
        case .pickup:
            return t("{sport} pick-up game", sportLabel)
        }
    }
}

/// One person's place in one game and their answer.
final class GamePlayer: Model, @unchecked Sendable {
    static let schema = "game_players"

    @ID(key: .id) var id: UUID?
    @Parent(key: "game_id") var game: Game
    @Parent(key: "user_id") var user: User
    @Enum(key: "status") var status: Status
    @OptionalField(key: "note") var note: String?
    /// A substitute who claimed a place through a substitute request.
    @Field(key: "is_sub") var isSub: Bool
    /// Order on the waitlist: when the person joined it.
    @Field(key: "queued_at") var queuedAt: Date
    /// For `.offered`: the place is theirs to take until then, and passes on after.
    @OptionalField(key: "offer_until") var offerUntil: Date?
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?

    init() {}

    init(gameID: UUID, userID: UUID, status: Status, note: String? = nil, isSub: Bool = false, at: Date) {
        self.$game.id = gameID
        self.$user.id = userID
        self.status = status
        self.note = note
        self.isSub = isSub
        self.queuedAt = at
    }

    /// Team games: going, maybe, not going (no row: no answer). Pick-up games: joined, waitlisted,
    /// requested, and offered (first on the waitlist when a place opened: it is held for them a while).
    enum Status: String, Codable, CaseIterable, Sendable {
        case going, maybe, notGoing = "not_going", joined, waitlisted, requested, offered

        var label: String {
            switch self {
            case .going: t("Going")
            case .maybe: t("Maybe")
            case .notGoing: t("Not going")
            case .joined: t("Joined")
            case .waitlisted: t("Waitlist")
            case .offered: t("Offered a place")
            case .requested: t("Asked to join")
            }
        }

        /// What follows a count of players with this status on the game page ("4 Joined"): in
        /// Portuguese it agrees with the count ("1 inscrito", "4 inscritos"), where `label` is
        /// one person's answer ("Inscrito", "Vou").
        func counted(_ count: Int) -> String {
            switch self {
            case .going: tn("Going", "Going", count)
            case .maybe: tn("Maybe", "Maybe", count)
            case .notGoing: tn("Not going", "Not going", count)
            case .joined: tn("Joined", "Joined", count)
            case .waitlisted: tn("Waitlist", "Waitlist", count)
            case .offered: tn("Offered a place", "Offered a place", count)
            case .requested: tn("Asked to join", "Asked to join", count)
            }
        }

        static let answers: [Status] = [.going, .maybe, .notGoing]
    }
}
