import FieldhouseKit
import Fluent
import Vapor

/// Load-test data for `make bench`: the demo person maya with `count` challenges in her inbox,
/// half received from jonas, half sent by her, with replies waiting for her judgement. Every bench
/// photo row points at one shared file; nothing deletes bench data.
enum BenchChallenges {
    static func seed(count: Int, app: Application) async throws {
        let config = app.config
        try await app.db.inTransaction { db in
            let people = Dictionary(
                uniqueKeysWithValues: try await User.query(on: db).filter(\.$username ~~ ["maya", "jonas", "amara"]).all().map { ($0.username, $0) })
            guard let maya = try people["maya"]?.requireID(), let jonas = try people["jonas"]?.requireID(),
                let amara = try people["amara"]?.requireID()
            else {
                throw Abort(.internalServerError, reason: "Seed the demo people first.")
            }
            let bytes = DemoChallenges.Picture.hill.png()
            let file = "bench-" + UUID().uuidString.lowercased() + ".png"
            try Data(bytes).write(to: URL(fileURLWithPath: PhotoStore.originalPath(file, config: config)))
            try Data(bytes).write(to: URL(fileURLWithPath: PhotoStore.servedPath(file, config: config)))
            let now = app.clock.now
            for index in 0..<count {
                let sentByMaya = index % 2 == 1
                let owner = sentByMaya ? maya : jonas
                let photo = Photo()
                photo.$owner.id = owner
                photo.format = ImageFormat.png.rawValue
                photo.originalFile = file
                photo.servedFile = file
                photo.byteCount = bytes.count
                photo.width = DemoChallenges.Picture.size
                photo.height = DemoChallenges.Picture.size
                photo.orientation = 1
                photo.sizes = .pending
                try await photo.create(on: db)
                let challenge = Challenge()
                challenge.$sender.id = owner
                challenge.$photo.id = try photo.requireID()
                challenge.caption = "Bench challenge \(index): run to the lighthouse and back"
                challenge.isPublic = false
                challenge.deadline = now.addingTimeInterval(Double(index % 20 + 1) * 86_400)
                challenge.latitude = 55.69
                challenge.longitude = 12.57
                challenge.locationSource = "typed"
                challenge.recipientCount = sentByMaya ? 2 : 1
                challenge.completedCount = 0
                challenge.clientKey = "bench-\(index)"
                try await challenge.create(on: db)
                let challengeID = try challenge.requireID()
                for recipient in sentByMaya ? [jonas, amara] : [maya] {
                    try await ChallengeRecipient(challenge: challengeID, user: recipient).create(on: db)
                }
                if sentByMaya, index % 10 == 1 {
                    let response = ChallengeResponse()
                    response.$challenge.id = challengeID
                    response.$challenger.id = maya
                    response.$user.id = jonas
                    response.$photo.id = try photo.requireID()
                    response.note = "Done"
                    response.takenBefore = false
                    response.status = .pending
                    response.clientKey = "bench-reply-\(index)"
                    try await response.create(on: db)
                }
            }
        }
    }
}
