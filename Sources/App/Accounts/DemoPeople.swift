import FieldhouseKit
import Fluent
import Vapor

/// Demo people from `Resources/Demo/people.json`, created through the same rules as sign-up.
enum DemoPeople {
    struct File: Decodable {
        struct Person: Decodable {
            let username, name, email, birth, gender, home, zone, bio: String
            let height, weight, lat, lon: Double
            let sports: [String: String]
            let role: String?
            let visibility: String?
            /// The language of their pages, notifications and e-mails; English when not given.
            let language: String?
        }
        let password: String
        let people: [Person]
        let follows: [[String]]
    }

    static func load(app: Application) throws -> File {
        let path = app.directory.workingDirectory + "Resources/Demo/people.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Abort(.internalServerError, reason: "Demo data not found at \(path)")
        }
        return try JSONDecoder().decode(File.self, from: data)
    }

    static func password(app: Application) -> String? { try? load(app: app).password }

    /// Returns how many people were added.
    static func seed(app: Application) async throws -> Int {
        let file = try load(app: app)
        // One hash for every demo person: they share the published demo password anyway.
        let hash = try app.password.hash(file.password)
        return try await app.db.inTransaction { db -> Int in
            var added = 0
            var ids: [String: UUID] = [:]
            for person in file.people {
                if let existing = try await User.query(on: db).filter(\.$username == person.username).first() {
                    ids[person.username] = existing.id
                    continue
                }
                guard AccountRules.username(person.username).error == nil,
                    let birth = CalendarDate(iso: person.birth)
                else {
                    throw Abort(.internalServerError, reason: "Demo person \(person.username) is invalid")
                }
                let user = User(
                    username: person.username, email: person.email, passwordHash: hash,
                    displayName: person.name, birthDate: person.birth,
                    role: User.Role(rawValue: person.role ?? "") ?? .member
                )
                user.bio = person.bio
                user.gender = User.Gender(rawValue: person.gender) ?? .unspecified
                user.heightCm = person.height
                user.weightKg = person.weight
                user.homeName = person.home
                user.homeLat = person.lat
                user.homeLon = person.lon
                user.timeZone = person.zone
                user.languageCode = person.language.flatMap(Language.init(rawValue:))?.rawValue
                user.visibility =
                    person.visibility.flatMap(User.Visibility.init(rawValue:))
                    ?? AccountRules.defaultVisibility(birthDate: birth, today: app.clock.today)
                try await user.create(on: db)
                let id = try user.requireID()
                ids[person.username] = id
                for (sport, skill) in person.sports {
                    guard let sport = Sport(rawValue: sport), let skill = Skill(rawValue: skill) else { continue }
                    try await UserSport(userID: id, sport: sport, skill: skill).create(on: db)
                }
                added += 1
            }
            guard added > 0 else { return 0 }
            for pair in file.follows where pair.count == 2 {
                guard let from = ids[pair[0]], let to = ids[pair[1]] else { continue }
                try await Follow(follower: from, followee: to, status: .accepted).create(on: db)
            }
            return added
        }
    }
}
