import FieldhouseKit
import Fluent
import Vapor

/// Demo challenges between demo friends, with simple drawn pictures: one waiting for Maya, one
/// Maya sent with replies in every state (accepted, waiting, not accepted), a finished one, and a
/// public one.
enum DemoChallenges {
    /// Returns how many challenges were added; does nothing once Maya has sent or received one.
    static func seed(app: Application) async throws -> Int {
        let config = app.config
        return try await app.db.inTransaction { db -> Int in
            let people = Dictionary(uniqueKeysWithValues: try await User.query(on: db).all().map { ($0.username, $0) })
            guard let maya = people["maya"], try await Challenge.query(on: db).first() == nil else { return 0 }
            func id(_ username: String) throws -> UUID {
                try people[username]?.requireID() ?? { throw Abort(.internalServerError, reason: "demo person \(username) missing") }()
            }
            let now = app.clock.now

            func photo(_ picture: Picture, owner: String) async throws -> Photo {
                let bytes = picture.png()
                let name = UUID().uuidString.lowercased() + ".png"
                try Data(bytes).write(to: URL(fileURLWithPath: PhotoStore.originalPath(name, config: config)))
                try Data(bytes).write(to: URL(fileURLWithPath: PhotoStore.servedPath(name, config: config)))
                let photo = Photo()
                photo.$owner.id = try id(owner)
                photo.format = ImageFormat.png.rawValue
                photo.originalFile = name
                photo.servedFile = name
                photo.byteCount = bytes.count
                photo.width = Picture.size
                photo.height = Picture.size
                photo.orientation = 1
                photo.sizes = .pending
                try await photo.create(on: db)
                return photo
            }

            func challenge(
                from sender: String, to recipients: [String], caption: String, picture: Picture, at point: Coordinate?,
                daysAgo: Double, deadlineInDays: Double?, isPublic: Bool = false
            ) async throws -> Challenge {
                let challenge = Challenge()
                challenge.$sender.id = try id(sender)
                challenge.$photo.id = try await photo(picture, owner: sender).requireID()
                challenge.caption = caption
                challenge.isPublic = isPublic
                challenge.deadline = deadlineInDays.map { now.addingTimeInterval($0 * 86_400) }
                challenge.latitude = point?.latitude
                challenge.longitude = point?.longitude
                challenge.locationSource = point == nil ? nil : "photo"
                challenge.recipientCount = recipients.count
                challenge.completedCount = 0
                challenge.clientKey = RandomToken.make()
                try await challenge.create(on: db)
                challenge.createdAt = now.addingTimeInterval(-daysAgo * 86_400)
                try await challenge.update(on: db)
                for person in recipients {
                    try await ChallengeRecipient(challenge: challenge.requireID(), user: id(person)).create(on: db)
                }
                return challenge
            }

            func reply(
                _ challenge: Challenge, by person: String, picture: Picture, note: String, at point: Coordinate?,
                status: ChallengeResponse.Status, stars: Int? = nil, reason: String? = nil
            ) async throws {
                let response = ChallengeResponse()
                response.$challenge.id = try challenge.requireID()
                response.$challenger.id = challenge.$sender.id
                response.$user.id = try id(person)
                response.$photo.id = try await photo(picture, owner: person).requireID()
                response.note = note
                response.latitude = point?.latitude
                response.longitude = point?.longitude
                response.locationSource = point == nil ? nil : "device"
                if let point, let there = challenge.coordinate { response.distanceMetres = Geo.distance(point, there) }
                response.takenBefore = false
                response.status = status
                response.stars = stars
                response.reason = reason
                response.judgedAt = status == .pending ? nil : now.addingTimeInterval(-3600)
                response.clientKey = RandomToken.make()
                try await response.create(on: db)
                if status == .accepted {
                    challenge.completedCount += 1
                    try await challenge.update(on: db)
                    try await ChallengeRecipient.query(on: db).filter(\.$challenge.$id == challenge.requireID())
                        .filter(\.$user.$id == id(person)).set(\.$completedAt, to: now).update()
                }
            }

            let lake = Coordinate(latitude: 55.6905, longitude: 12.5652)
            let bench = try await challenge(
                from: "maya", to: ["jonas", "amara", "sofia"], caption: "Find the red bench by the lake and do 10 step-ups on it",
                picture: .bench, at: lake, daysAgo: 2, deadlineInDays: 5)
            try await reply(
                bench, by: "jonas", picture: .bench, note: "Ten done, legs on fire!",
                at: Coordinate(latitude: 55.6907, longitude: 12.5655), status: .accepted, stars: 4)
            try await reply(
                bench, by: "amara", picture: .lake, note: "Found a red bench!",
                at: Coordinate(latitude: 55.6610, longitude: 12.5420), status: .pending)
            try await reply(
                bench, by: "sofia", picture: .mural, note: "Close enough?", at: nil, status: .rejected,
                reason: "That's a wall, not the bench. Try again!")

            _ = try await challenge(
                from: "jonas", to: ["maya", "elin"], caption: "Touch the top of Bakken hill before Sunday",
                picture: .hill, at: Coordinate(latitude: 55.7745, longitude: 12.5790), daysAgo: 1, deadlineInDays: 3)

            let mural = try await challenge(
                from: "amara", to: ["maya"], caption: "Copy the pose of the runner on the Nørrebro mural",
                picture: .mural, at: Coordinate(latitude: 55.6930, longitude: 12.5480), daysAgo: 9, deadlineInDays: nil)
            try await reply(
                mural, by: "maya", picture: .mural, note: "Nailed it", at: Coordinate(latitude: 55.6931, longitude: 12.5482),
                status: .accepted, stars: 5)

            let goal = try await challenge(
                from: "sofia", to: [], caption: "Trick shot: hit the crossbar from the penalty spot at Fælledparken",
                picture: .goal, at: Coordinate(latitude: 55.7003, longitude: 12.5720), daysAgo: 3, deadlineInDays: 10, isPublic: true)
            try await reply(
                goal, by: "priya", picture: .goal, note: "Third try!", at: Coordinate(latitude: 55.7004, longitude: 12.5722),
                status: .accepted, stars: 5)

            try await Notification.send(
                to: [maya.requireID()], from: id("jonas"), kind: .challengeReceived,
                text: t("{name} challenged you: {caption}", "Jonas", "Touch the top of Bakken hill before Sunday"), link: SiteURL.challenges.path, on: db)
            return 4
        }
    }

    /// Simple drawn scenes, so the demo needs no photo files in the repository.
    enum Picture {
        case bench, lake, hill, mural, goal

        static let size = 320

        func png() -> [UInt8] {
            let n = Self.size
            return PNGWriter.rgb(width: n, height: n) { x, y in
                let fx = Double(x) / Double(n), fy = Double(y) / Double(n)
                let sky: (UInt8, UInt8, UInt8) = (UInt8(120 + 80 * fy), UInt8(170 + 60 * fy), 235)
                switch self {
                case .bench, .lake:
                    if fy < 0.45 { return sky }
                    if self == .bench, (0.25...0.75).contains(fx), (0.55...0.6).contains(fy) || (0.64...0.68).contains(fy) { return (200, 30, 40) }
                    if self == .bench, (0.62...0.78).contains(fy), abs(fx - 0.3) < 0.02 || abs(fx - 0.7) < 0.02 { return (90, 20, 25) }
                    return fy < 0.75 ? (40, UInt8(110 + 40 * fx), 180) : (70, 140, 60)
                case .hill:
                    let sun = (fx - 0.78) * (fx - 0.78) + (fy - 0.2) * (fy - 0.2) < 0.006
                    if sun { return (250, 210, 60) }
                    let ridge = 0.55 - 0.3 * sin(fx * .pi)
                    return fy < ridge ? sky : (UInt8(50 + 40 * fy), UInt8(130 + 50 * (1 - fy)), 60)
                case .mural:
                    let band = Int(fx * 6)
                    let colours: [(UInt8, UInt8, UInt8)] = [(230, 80, 60), (245, 170, 50), (250, 220, 80), (80, 170, 110), (60, 130, 200), (140, 90, 190)]
                    let head = (fx - 0.5) * (fx - 0.5) + (fy - 0.3) * (fy - 0.3) < 0.004
                    let body = abs(fx - 0.5 - (fy - 0.4) * 0.5) < 0.03 && (0.35...0.7).contains(fy)
                    return head || body ? (25, 25, 35) : colours[min(band, 5)]
                case .goal:
                    if fy < 0.35 { return sky }
                    let post = (abs(fx - 0.2) < 0.015 || abs(fx - 0.8) < 0.015) && (0.4...0.75).contains(fy)
                    let bar = abs(fy - 0.4) < 0.015 && (0.2...0.8).contains(fx)
                    if post || bar { return (250, 250, 250) }
                    return Int(fx * 10) % 2 == 0 ? (60, 150, 70) : (70, 165, 80)
                }
            }
        }
    }
}
