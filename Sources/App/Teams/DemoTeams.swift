import FieldhouseKit
import Fluent
import Vapor

/// Demo teams, memberships, requests and leagues from `Resources/Demo/teams.json`.
enum DemoTeams {
    struct File: Decodable {
        struct TeamEntry: Decodable {
            let name, sport, privacy, place, age, gender, skill, description: String
            let lat, lon: Double
            let looking: Bool
            let members: [String: String]
            let requests: [String]
        }
        struct LeagueEntry: Decodable {
            let name, sport, manager: String
            let `private`: Bool
            let teams: [String]
        }
        let teams: [TeamEntry]
        let leagues: [LeagueEntry]
    }

    /// Returns how many teams were added; does nothing when demo teams exist already.
    static func seed(app: Application) async throws -> Int {
        let path = app.directory.workingDirectory + "Resources/Demo/teams.json"
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        let file = try JSONDecoder().decode(File.self, from: data)
        return try await app.db.inTransaction { db -> Int in
            guard let first = file.teams.first,
                try await Team.query(on: db).filter(\.$slug == Slug.make(first.name)).first() == nil
            else { return 0 }
            let users = try await User.query(on: db).all()
            let byName = Dictionary(uniqueKeysWithValues: users.map { ($0.username, $0) })
            var teams: [String: Team] = [:]
            for entry in file.teams {
                let team = Team()
                team.name = entry.name
                team.slug = try await Team.unusedSlug(for: entry.name, on: db)
                team.sport = entry.sport
                team.privacy = Team.Privacy(rawValue: entry.privacy) ?? .private
                team.placeName = entry.place
                team.latitude = entry.lat
                team.longitude = entry.lon
                team.ageGroup = entry.age
                team.gender = entry.gender
                team.skill = entry.skill
                team.description = entry.description
                team.lookingForPlayers = entry.looking
                try await team.create(on: db)
                teams[entry.name] = team
                for (username, role) in entry.members {
                    guard let user = byName[username], let role = Membership.Role(rawValue: role) else { continue }
                    try await Membership(teamID: team.requireID(), userID: user.requireID(), role: role).create(on: db)
                }
                for username in entry.requests {
                    guard let user = byName[username] else { continue }
                    try await JoinRequest(teamID: team.requireID(), userID: user.requireID(), message: "Could I join you?").create(on: db)
                    try await Notification.send(
                        to: try await Membership.managerIDs(of: team.requireID(), on: db), from: user.id, kind: .joinRequest,
                        text: t("{name} asked to join {team}", user.displayName, team.name), link: SiteURL.team(slug: team.slug).path, on: db
                    )
                }
            }
            for entry in file.leagues {
                guard let manager = byName[entry.manager] else { continue }
                let league = League()
                league.name = entry.name
                league.slug = try await League.unusedSlug(for: entry.name, on: db)
                league.sport = entry.sport
                league.skill = TeamSkill.any.rawValue
                league.ageGroup = AgeGroup.any.rawValue
                league.gender = TeamGender.any.rawValue
                league.isPrivate = entry.private
                league.$manager.id = try manager.requireID()
                try await league.create(on: db)
                for name in entry.teams {
                    guard let team = teams[name] else { continue }
                    try await LeagueTeam(leagueID: league.requireID(), teamID: team.requireID(), status: .active).create(on: db)
                }
            }
            return file.teams.count
        }
    }
}
