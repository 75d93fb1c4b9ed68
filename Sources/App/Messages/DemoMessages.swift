import FieldhouseKit
import Fluent
import Vapor

/// A few messages in Riverside Futsal's conversation, so `make run` shows a team talking: the
/// owner, a manager and players, over the last day. Added once.
enum DemoMessages {
    static func seed(app: Application) async throws -> Int {
        let db = app.db
        guard let team = try await Team.query(on: db).filter(\.$slug == Slug.make("Riverside Futsal")).first(),
            let maya = try await User.query(on: db).filter(\.$username == "maya").first()
        else { return 0 }
        let conversation = try await ConversationAccess.conversation(
            of: .team, subject: try team.requireID(), for: try maya.requireID(), on: db, now: app.clock.now)
        guard try await Message.query(on: db).filter(\.$conversation.$id == conversation.requireID()).count() == 0 else { return 0 }
        let lines: [(String, String, TimeInterval)] = [
            ("maya", "Hall is booked for Thursday as usual. **Doors at 19:45**, kick-off 20:00.", 26 * 3600),
            ("sofia", "Who can bring the bibs? Mine are still at the cleaners.", 25 * 3600),
            ("felix", "I'll bring them, and the spare ball.", 24 * 3600),
            ("amara", "Running 10 minutes late, keep a place for me!", 2 * 3600),
        ]
        let people = try await User.query(on: db).filter(\.$username ~~ lines.map(\.0)).all()
        var added = 0
        for (username, body, ago) in lines {
            guard let author = people.first(where: { $0.username == username }) else { continue }
            let message = Message()
            message.$conversation.id = try conversation.requireID()
            message.$author.id = try author.requireID()
            message.body = body
            message.createdAt = app.clock.now.addingTimeInterval(-ago)
            try await message.create(on: db)
            added += 1
        }
        conversation.lastMessageAt = app.clock.now.addingTimeInterval(-2 * 3600)
        try await conversation.update(on: db)
        // Everyone in the team has read up to the day before, so the latest message is new to them.
        let seated = try await ConversationSeats.everyone(in: conversation, on: db)
        try await MessagePosting.addMembers(seated, to: conversation.requireID(), readUpTo: app.clock.now.addingTimeInterval(-3 * 3600), on: db)
        return added
    }
}
