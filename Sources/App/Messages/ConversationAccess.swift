import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// One viewer in one conversation: what it is about, whether they may write and whether they
/// moderate. Every conversation route loads this first; someone without a seat
/// (`ConversationSeats`) gets 404, exactly as for a conversation that does not exist.
struct ConversationAccess {
    let conversation: Conversation
    let viewer: User
    let moderates: Bool
    /// The team's name, the game's title, the plan's words, or the other person's name.
    let title: String
    /// The page the conversation belongs to.
    let subjectURL: String
    /// The other person of a direct conversation.
    let other: User?
    /// Why the viewer cannot write here now (a direct conversation whose rule no longer holds).
    let refusal: String?

    var id: UUID { conversation.id! }

    static func load(_ req: Request) async throws -> ConversationAccess {
        let viewer = try req.requireUser()
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)), let conversation = try await Conversation.find(id, on: req.db)
        else { throw Abort(.notFound) }
        return try await of(conversation, viewer: viewer, today: req.clock.today, on: req.db)
    }

    static func of(_ conversation: Conversation, viewer: User, today: CalendarDate, on db: any Database) async throws -> ConversationAccess {
        let seat = try await ConversationSeats.seat(of: viewer.requireID(), in: conversation.requireID(), on: db)
        guard seat.seated else { throw Abort(.notFound) }
        let (title, url, other) = try await subject(of: conversation, viewer: viewer, on: db)
        var refusal: String?
        if let other {
            refusal = DirectMessageRule.refusal(try await DirectMessageRule.verdict(from: viewer, to: other, today: today, on: db), person: other)
        }
        return ConversationAccess(
            conversation: conversation, viewer: viewer, moderates: seat.moderates, title: title, subjectURL: url, other: other, refusal: refusal)
    }

    private static func subject(of conversation: Conversation, viewer: User, on db: any Database) async throws -> (String, String, User?) {
        switch conversation.kind {
        case .team:
            guard let id = conversation.teamID, let team = try await Team.find(id, on: db) else { throw Abort(.notFound) }
            return (team.name, SiteURL.team(slug: team.slug).path, nil)
        case .game:
            guard let id = conversation.gameID, let game = try await Game.find(id, on: db) else { throw Abort(.notFound) }
            var teamName: String?
            if let teamID = game.$team.id { teamName = try await Team.find(teamID, on: db)?.name }
            return (game.title(teamName: teamName), SiteURL.game(id).path, nil)
        case .plan:
            guard let id = conversation.planID, let plan = try await Plan.find(id, on: db) else { throw Abort(.notFound) }
            return ("“\(Format.excerpt(plan.text))”", SiteURL.plan(id).path, nil)
        case .direct:
            guard let otherID = conversation.otherPerson(than: try viewer.requireID()), let other = try await User.find(otherID, on: db)
            else { throw Abort(.notFound) }
            return (other.displayName, SiteURL.person(username: other.username).path, other)
        }
    }

    /// The conversation of a team, game or plan, made on first use by someone who would have a seat
    /// in it (anyone else gets 404, and no row); the caller then loads access.
    static func conversation(of kind: Conversation.Kind, subject id: UUID, for viewer: UUID, on db: any Database, now: Date) async throws
        -> Conversation
    {
        let column: KeyPath<Conversation, OptionalFieldProperty<Conversation, UUID>>
        let table: String
        switch kind {
        case .team: (column, table) = (\.$teamID, "teams")
        case .game: (column, table) = (\.$gameID, "games")
        case .plan: (column, table) = (\.$planID, "plans")
        case .direct: throw Abort(.notFound)
        }
        if let found = try await Conversation.query(on: db).filter(column == id).first() { return found }
        guard try await db.sql.raw("SELECT 1 AS found FROM \(ident: table) WHERE id = \(bind: id)").first() != nil,
            try await ConversationSeats.wouldSeat(viewer, kind: kind, subject: id, on: db)
        else { throw Abort(.notFound) }
        let made = Conversation()
        made.kind = kind
        made[keyPath: column].value = id
        made.createdAt = now
        return try await saveOrFind(made, on: db) { try await Conversation.query(on: db).filter(column == id).first() }
    }

    /// Two people's direct conversation, made on first use (the caller checked the rule).
    static func direct(between a: UUID, and b: UUID, on db: any Database, now: Date) async throws -> Conversation {
        func find() async throws -> Conversation? { try await existingDirect(between: a, and: b, on: db) }
        if let found = try await find() { return found }
        let (first, second) = ordered(a, b)
        let made = Conversation()
        made.kind = .direct
        made.personA = first
        made.personB = second
        made.createdAt = now
        return try await saveOrFind(made, on: db, find)
    }

    static func existingDirect(between a: UUID, and b: UUID, on db: any Database) async throws -> Conversation? {
        let (first, second) = ordered(a, b)
        return try await Conversation.query(on: db).filter(\.$personA == first).filter(\.$personB == second).first()
    }

    /// A pair's one order, so two people have one conversation whoever starts it.
    private static func ordered(_ a: UUID, _ b: UUID) -> (UUID, UUID) { a.uuidString < b.uuidString ? (a, b) : (b, a) }

    /// Saves a new conversation; when another request made the same one meanwhile, the unique
    /// index refuses this one and theirs is used.
    private static func saveOrFind(_ made: Conversation, on db: any Database, _ find: () async throws -> Conversation?) async throws -> Conversation {
        do {
            try await made.create(on: db)
            return made
        } catch {
            if let found = try await find() { return found }
            throw error
        }
    }
}
