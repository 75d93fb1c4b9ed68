import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// A viewer's access to a person: who may see what of them. Pages, lists, search and avatar URLs
/// all ask here, so a private profile cannot leak through a side door.
struct PersonAccess {
    let person: User
    let relation: Relation

    /// The person named in the URL, with how the viewer relates to them; 404 when the viewer may
    /// not know they exist.
    static func load(_ req: Request) async throws -> PersonAccess {
        let username = (req.parameters.get("username") ?? "").lowercased()
        guard let user = try await User.query(on: req.db).filter(\.$username == username).first() else {
            throw Abort(.notFound)
        }
        let relation = try await Relations.load(viewer: req.currentUser, people: [user.requireID()], today: req.clock.today, on: req.db).relation(to: user)
        guard canSeeExists(user, relation) else { throw Abort(.notFound) }
        return PersonAccess(person: user, relation: relation)
    }

    /// Bio, sports, counts, avatar and follower lists.
    var canViewProfile: Bool { Self.canViewProfile(person, relation) }

    /// How the viewer and the person are connected.
    struct Relation {
        /// The day the relation is judged on: whether someone is under 16 depends on it.
        var today: CalendarDate
        var isSelf = false
        /// The viewer's follow of the person, if any.
        var viewerFollows: Follow.Status?
        /// The person's follow of the viewer, if any.
        var followsViewer: Follow.Status?
        /// Both are in a team one is let into (not a public one anyone joins), or the viewer runs
        /// or coaches a team the person is in.
        var sharesTeam = false
        /// The viewer blocked the person (`Block`).
        var viewerBlocked = false
    }

    /// Bio, sports, counts, avatar and follower lists.
    static func canViewProfile(_ user: User, _ relation: Relation) -> Bool {
        relation.isSelf || user.visibility == .public || relation.viewerFollows == .accepted
    }

    /// Whether the viewer may know the person exists at all (page not 404, listed in search).
    /// Someone who follows you, or asked to, is never hidden from you: you must see who they are.
    /// A child's profile for followers is hidden like a private one, except from teammates: strangers
    /// cannot find, and so cannot ask to follow, someone under 16 who has not followed them first.
    static func canSeeExists(_ user: User, _ relation: Relation) -> Bool {
        if canViewProfile(user, relation) || relation.viewerFollows != nil || relation.followsViewer != nil { return true }
        switch user.visibility {
        case .public: return true
        case .followers: return !user.isUnder16(on: relation.today) || relation.sharesTeam
        case .private: return false
        }
    }

    /// How `person` is named to a viewer with this relation, in news, e-mails and lists of who did
    /// something (kudos, comments, gifts, replies): their name when the viewer may know they exist,
    /// else nil, which the caller writes as "Someone" with no link. A request to be let in (to follow,
    /// join a team or game, be coached) names its sender, who chose to be known to the one asked.
    static func knownName(of person: User, _ relation: Relation) -> String? {
        canSeeExists(person, relation) ? person.displayName : nil
    }

    /// How a person is named on a list others can open (a public team's roster, a public game's
    /// players, accepted replies to a public challenge, a scoreboard): a person under 16 is "a player
    /// under 16", without name or picture, to everyone but themselves, those they share a team with
    /// and their accepted followers; nil then, and the caller writes `childOnAList`. Organisers,
    /// managers and a challenge's sender are told the name by their page, which knows their role.
    static func listedName(_ person: User, _ relation: Relation) -> String? {
        guard person.isUnder16(on: relation.today), !relation.isSelf, !relation.sharesTeam, relation.viewerFollows != .accepted else {
            return person.displayName
        }
        return nil
    }

    static var childOnAList: String { t("A player under 16") }

    /// What a request (a team invitation, a coaching request) from `sender` does when it names `person`.
    enum Reach {
        /// `person` is hidden from `sender`: answer exactly as for a username nobody has.
        case unknown
        /// `person` is under 16 and does not know `sender`: answer as if sent, and send nothing.
        case dropped
        case allowed
    }

    /// Strangers cannot find private people through a request, and cannot reach children: someone
    /// under 16 (or without a birth date) hears only from people they follow or share a team with.
    /// Nobody hears from someone they blocked, who is not told.
    static func reach(_ person: User?, from sender: User, today: CalendarDate, on db: any Database) async throws -> Reach {
        guard let person else { return .unknown }
        let relation = try await Relations.load(viewer: sender, people: [try person.requireID()], today: today, on: db).relation(to: person)
        guard canSeeExists(person, relation) else { return .unknown }
        if try await Block.between(person.requireID(), sender.requireID(), on: db) { return .dropped }
        guard person.isUnder16(on: today) else { return .allowed }
        return relation.followsViewer == .accepted || relation.sharesTeam ? .allowed : .dropped
    }

    /// Following a public profile needs nobody's approval; anything else, and following anyone under
    /// 16, is a request they answer.
    static func followStatus(for target: User, today: CalendarDate) -> Follow.Status {
        target.visibility == .public && !target.isUnder16(on: today) ? .accepted : .pending
    }
}

extension User {
    /// A person read from a plain-SQL row for a list, with every column `PersonAccess` decides by
    /// (`id`, `username`, `display_name`, `visibility`, `birth_date`). A missing birth date reads as
    /// under 16, so a loader that left it out would hide every adult with a followers profile.
    static func forPolicy(_ row: any SQLRow) throws -> User {
        let user = User()
        user.id = try row.decode(column: "id", as: UUID.self)
        user.username = try row.decode(column: "username", as: String.self)
        user.setDisplayName(try row.decode(column: "display_name", as: String.self))
        user.visibility = User.Visibility(rawValue: try row.decode(column: "visibility", as: String.self)) ?? .private
        user.birthDate = try row.decode(column: "birth_date", as: String?.self)
        return user
    }
}

/// The follows and shared teams between one viewer and a set of people, loaded in one query.
struct Relations {
    private var outgoing: [UUID: Follow.Status] = [:]
    private var incoming: [UUID: Follow.Status] = [:]
    private var teammates: Set<UUID> = []
    private var blocked: Set<UUID> = []
    private let viewerID: UUID?
    private let today: CalendarDate

    static func load(viewer: User?, people: [UUID], today: CalendarDate, on db: any Database) async throws -> Relations {
        try await load(viewerID: viewer?.id, people: people, today: today, on: db)
    }

    static func load(viewerID: UUID?, people: [UUID], today: CalendarDate, on db: any Database) async throws -> Relations {
        guard let viewerID else { return Relations(viewerID: nil, today: today) }
        var relations = Relations(viewerID: viewerID, today: today)
        guard !people.isEmpty else { return relations }
        // One statement for the four questions: a page asks this for every list of people it
        // shows, and each statement is a hop to the database's thread.
        // Anyone can join a public team at once, so only a team one is let into, or runs, counts.
        struct Row: Decodable {
            let kind: String
            let person: UUID
            let status: String
        }
        let rows = try await db.sql.raw(
            """
            SELECT 'out' AS kind, followee_id AS person, status FROM follows WHERE follower_id = \(bind: viewerID) AND followee_id IN (\(binds: people))
            UNION ALL
            SELECT 'in' AS kind, follower_id AS person, status FROM follows WHERE followee_id = \(bind: viewerID) AND follower_id IN (\(binds: people))
            UNION ALL
            SELECT DISTINCT 'team' AS kind, a.user_id AS person, '' AS status
            FROM memberships a JOIN memberships b ON b.team_id = a.team_id JOIN teams t ON t.id = a.team_id
            WHERE a.user_id IN (\(binds: people)) AND b.user_id = \(bind: viewerID)
              AND (t.privacy <> 'public' OR b.role IN ('owner', 'manager', 'coach'))
            UNION ALL
            SELECT 'blocked' AS kind, blocked_id AS person, '' AS status FROM blocks WHERE blocker_id = \(bind: viewerID) AND blocked_id IN (\(binds: people))
            """
        ).all(decoding: Row.self)
        for row in rows {
            switch row.kind {
            case "out": relations.outgoing[row.person] = Follow.Status(rawValue: row.status) ?? .pending
            case "in": relations.incoming[row.person] = Follow.Status(rawValue: row.status) ?? .pending
            case "blocked": relations.blocked.insert(row.person)
            default: relations.teammates.insert(row.person)
            }
        }
        return relations
    }

    private init(viewerID: UUID?, today: CalendarDate) {
        self.viewerID = viewerID
        self.today = today
    }

    func relation(to user: User) -> PersonAccess.Relation {
        guard let id = user.id, let viewerID else { return .init(today: today) }
        return .init(
            today: today, isSelf: id == viewerID, viewerFollows: outgoing[id], followsViewer: incoming[id], sharesTeam: teammates.contains(id),
            viewerBlocked: blocked.contains(id))
    }
}

/// A person as shown in lists and search results: only what the viewer may see.
struct PersonCard: Encodable {
    let username: String
    let displayName: String
    let initials: String
    let avatarURL: String?
    let bio: String?
    let sports: String?
    let isLimited: Bool
    let followsYou: Bool
    let youFollow: Bool
    let requested: Bool

    init(_ user: User, relation: PersonAccess.Relation) {
        let visible = PersonAccess.canViewProfile(user, relation)
        username = user.username
        displayName = user.displayName
        initials = user.initials
        avatarURL = visible && user.avatarFile != nil ? SiteURL.avatar(username: user.username).path : nil
        bio = visible ? user.bio.map { $0.count > 140 ? String($0.prefix(137)) + "…" : $0 } : nil
        sports =
            visible && user.$sports.value != nil
            ? user.sports.compactMap { Sport(rawValue: $0.sport)?.label }.sorted().joined(separator: ", ")
            : nil
        isLimited = !visible
        followsYou = relation.followsViewer == .accepted
        youFollow = relation.viewerFollows == .accepted
        requested = relation.viewerFollows == .pending
    }

    static func list(_ users: [User], viewer: User?, today: CalendarDate, on db: any Database) async throws -> [PersonCard] {
        list(users, relations: try await Relations.load(viewer: viewer, people: users.compactMap(\.id), today: today, on: db))
    }

    /// The cards of people whose relations to the viewer are read already.
    static func list(_ users: [User], relations: Relations) -> [PersonCard] {
        users.compactMap { user in
            let relation = relations.relation(to: user)
            return PersonAccess.canSeeExists(user, relation) ? PersonCard(user, relation: relation) : nil
        }
    }
}

/// A follow as plain values, read with SQL for the pages that check many of them.
struct FollowEdge {
    let follower: UUID
    let followee: UUID
    let status: Follow.Status

    static func all(on db: any Database, _ filter: (SQLSelectBuilder) -> SQLSelectBuilder) async throws -> [FollowEdge] {
        let query = db.sql.select().columns("follower_id", "followee_id", "status").from(Follow.schema)
        return try await filter(query).all().map { row in
            FollowEdge(
                follower: try row.decode(column: "follower_id", as: UUID.self),
                followee: try row.decode(column: "followee_id", as: UUID.self),
                status: Follow.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .pending
            )
        }
    }
}
