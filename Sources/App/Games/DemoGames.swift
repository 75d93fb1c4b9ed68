import FieldhouseKit
import Fluent
import Vapor

/// Demo games around the demo teams, dated from today: a played league-style game with a score,
/// upcoming games with answers, an open substitute request, a full pick-up game with a waitlist,
/// a protected pick-up game with a request, and a private team's game.
enum DemoGames {
    static let zone = "Europe/Copenhagen"

    /// Returns how many games were added; does nothing once the demo teams have games.
    static func seed(app: Application) async throws -> Int {
        try await app.db.inTransaction { db -> Int in
            let teams = Dictionary(uniqueKeysWithValues: try await Team.query(on: db).all().map { ($0.slug, $0) })
            guard let riverside = teams["riverside-futsal"], let volley = teams["old-town-volley"], let northfield = teams["northfield-u16"],
                try await Game.query(on: db).filter(\.$team.$id == riverside.requireID()).first() == nil
            else { return 0 }
            let people = Dictionary(uniqueKeysWithValues: try await User.query(on: db).all().map { ($0.username, $0) })
            func id(_ username: String) throws -> UUID {
                try people[username]?.requireID() ?? { throw Abort(.internalServerError, reason: "demo person \(username) missing") }()
            }

            var added = 0
            func make(
                _ kind: Game.Kind, team: Team?, organiser: String, inDays days: Int, at time: String, minutes: Int = 90,
                opponent: String? = nil, notes: String = ""
            ) throws -> Game {
                let game = Game()
                game.kind = kind
                game.$team.id = team?.id
                game.$organiser.id = try id(organiser)
                game.sport = team?.sport ?? Sport.volleyball.rawValue
                game.ageGroup = team?.ageGroup ?? AgeGroup.any.rawValue
                game.gender = team?.gender ?? TeamGender.any.rawValue
                game.skill = team?.skill ?? TeamSkill.any.rawValue
                game.privacy = team?.privacy.rawValue ?? Team.Privacy.public.rawValue
                let day = LocalTime.parts(of: app.clock.now.addingTimeInterval(Double(days) * 86_400), zone: zone).day
                game.schedule(at: LocalTime.instant(day: day, time: time, zone: zone)!)
                game.durationMinutes = minutes
                game.timeZone = zone
                game.placeName = team?.placeName
                game.latitude = team?.latitude
                game.longitude = team?.longitude
                game.description = notes
                game.opponentName = opponent
                game.joinedCount = 0
                game.subsNeeded = 0
                game.subsFilled = 0
                game.status = .scheduled
                game.sequence = 0
                game.placeForSearch()
                added += 1
                return game
            }
            func answer(_ game: Game, _ answers: [(String, GamePlayer.Status, String?)]) async throws {
                for (index, (username, status, note)) in answers.enumerated() {
                    try await GamePlayer(
                        gameID: game.requireID(), userID: id(username), status: status, note: note,
                        at: app.clock.now.addingTimeInterval(Double(index))
                    ).create(on: db)
                }
            }

            let played = try make(.team, team: riverside, organiser: "maya", inDays: -7, at: "19:00", opponent: "Harbour FC")
            played.homeScore = 4
            played.awayScore = 2
            try await played.create(on: db)
            try await answer(played, [("maya", .going, nil), ("amara", .going, nil), ("felix", .going, nil), ("sofia", .notGoing, "Away for work")])

            let next = try make(
                .team, team: riverside, organiser: "sofia", inDays: 3, at: "19:30", opponent: "Old Town Futsal",
                notes: "Dark shirts. Arrive 20 minutes early to warm up.")
            try await next.create(on: db)
            try await answer(
                next, [("maya", .going, nil), ("amara", .going, "Bringing bibs"), ("felix", .maybe, "Depends on my shift"), ("sofia", .notGoing, nil)])

            let short = try make(
                .team, team: riverside, organiser: "maya", inDays: 10, at: "19:30", opponent: "Northside Rovers",
                notes: "Half the squad is away: substitutes welcome.")
            short.subsNeeded = 2
            try await short.create(on: db)
            try await answer(short, [("maya", .going, nil), ("felix", .notGoing, "Holiday")])

            let volleyNight = try make(.team, team: volley, organiser: "jonas", inDays: 5, at: "18:00", minutes: 120, notes: "Club night, all levels.")
            try await volleyNight.create(on: db)
            try await answer(volleyNight, [("jonas", .going, nil), ("elin", .going, nil)])

            let youth = try make(.team, team: northfield, organiser: "omar", inDays: 4, at: "17:00", minutes: 75, opponent: "Eastside U16")
            try await youth.create(on: db)
            try await answer(youth, [("leo_t", .going, nil)])

            // A beach game that is full, with two people waiting.
            let beach = try make(
                .pickup, team: nil, organiser: "jonas", inDays: 2, at: "18:30", minutes: 120,
                notes: "Beach volleyball, 2 v 2 rotations. Nets are up from 18:00.")
            beach.placeName = "Amager Beach Courts"
            beach.latitude = 55.6545
            beach.longitude = 12.6490
            beach.capacity = 4
            beach.minPlayers = 4
            beach.joinedCount = 4
            beach.placeForSearch()
            try await beach.create(on: db)
            try await answer(
                beach,
                [
                    ("jonas", .joined, nil), ("elin", .joined, nil), ("ingrid", .joined, nil), ("maya", .joined, "Can bring a second ball"),
                    ("sam", .waitlisted, nil), ("tomas", .waitlisted, nil),
                ])

            // A futsal kick-about the organiser vets.
            let kickabout = try make(
                .pickup, team: nil, organiser: "sofia", inDays: 6, at: "20:00", minutes: 60,
                notes: "Small-sided futsal. Indoor shoes only.")
            kickabout.sport = Sport.futsal.rawValue
            kickabout.privacy = Team.Privacy.protected.rawValue
            kickabout.skill = TeamSkill.intermediate.rawValue
            kickabout.placeName = "Riverside Sports Hall, court 2"
            kickabout.latitude = 55.681
            kickabout.longitude = 12.571
            kickabout.capacity = 10
            kickabout.minPlayers = 6
            kickabout.joinedCount = 2
            kickabout.placeForSearch()
            try await kickabout.create(on: db)
            try await answer(kickabout, [("sofia", .joined, nil), ("felix", .joined, nil), ("omar", .requested, "Played futsal at school")])
            return added + (try await season(now: app.clock.now, on: db))
        }
    }

    /// City Futsal League's season, home and away, begun eight days ago: round 1 is waiting for its
    /// score and round 2 was a confirmed draw, so the table, a bye and games to come all show.
    private static func season(now: Date, on db: any Database) async throws -> Int {
        guard let league = try await League.query(on: db).filter(\.$slug == "city-futsal-league").first() else { return 0 }
        let teams = try await LeagueTeam.query(on: db).filter(\.$league.$id == league.requireID()).filter(\.$status == .active).with(\.$team).all()
            .map(\.team).sorted { $0.name < $1.name }
        let first = LocalTime.day(of: now, zone: zone).adding(days: -8)
        let valid = SeasonForm.Valid(double: true, firstRound: first, time: "19:30", timeZone: zone, durationMinutes: 60)
        let rounds = Season.plan(valid, teams: teams)
        try await Season.create(rounds, league: league, organiser: league.$manager.id, valid: valid, on: db)
        // A draw reads the same from both copies of the fixture.
        for game in try await Game.query(on: db).filter(\.$league.$id == league.requireID()).filter(\.$leagueRound == 2).all() {
            game.homeScore = 2
            game.awayScore = 2
            try await game.update(on: db)
        }
        return rounds.reduce(0) { $0 + $1.fixtures.count } * 2
    }
}
