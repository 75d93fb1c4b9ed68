import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Profile pages, follower lists, avatars and finding people.
struct ProfileController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("u", ":username", use: profile)
        routes.get("u", ":username", "avatar", use: avatar)
        routes.get("u", ":username", "followers") { try await followList(req: $0, direction: .followers) }
        routes.get("u", ":username", "following") { try await followList(req: $0, direction: .following) }
        routes.get("people", use: people)
    }

    struct ProfilePage: Encodable {
        let layout: Layout
        let person: PersonCard
        let isSelf: Bool
        let isLimited: Bool
        let ageGroup: String?
        let gender: String?
        let homeName: String?
        let sports: [SportLine]
        let teams: [TeamLine]
        let followers: Int
        let following: Int
        /// Challenge points (see `Scoreboard`), for those who may see the full profile.
        let challengeScore: String?
        let memberSince: String
        let visibilityNote: String?
        let signInToFollow: String?
    }

    struct TeamLine: Encodable {
        let slug: String
        let name: String
        let role: String
    }

    struct SportLine: Encodable {
        let sport: String
        let skill: String
    }

    /// Loads the person named in the URL together with how the viewer relates to them, or 404 when
    /// the viewer may not know they exist.
    static func visiblePerson(_ req: Request) async throws -> (User, ProfilePolicy.Relation) {
        let username = (req.parameters.get("username") ?? "").lowercased()
        guard let user = try await User.query(on: req.db).filter(\.$username == username).first() else {
            throw Abort(.notFound)
        }
        let relation = try await Relations.load(viewer: req.currentUser, people: [user.requireID()], on: req.db).relation(to: user)
        guard ProfilePolicy.canSeeExists(user, relation) else { throw Abort(.notFound) }
        return (user, relation)
    }

    func profile(req: Request) async throws -> View {
        let username = (req.parameters.get("username") ?? "").lowercased()
        guard let (user, followers, following) = try await ProfileQuery.load(username: username, on: req.db) else {
            throw Abort(.notFound)
        }
        let relation = try await Relations.load(viewer: req.currentUser, people: [user.requireID()], on: req.db).relation(to: user)
        guard ProfilePolicy.canSeeExists(user, relation) else { throw Abort(.notFound) }
        let full = ProfilePolicy.canViewProfile(user, relation)
        let counts = full ? (followers, following) : (0, 0)
        let age = user.birthDate.flatMap(CalendarDate.init(iso:)).map { $0.age(on: .today) }

        let sports =
            full
            ? user.sports.compactMap { line -> SportLine? in
                guard let sport = Sport(rawValue: line.sport), let skill = Skill(rawValue: line.skill) else { return nil }
                return SportLine(sport: sport.label, skill: skill.label)
            }.sorted { $0.sport < $1.sport } : []

        var note: String?
        if relation.isSelf {
            note =
                switch user.visibility {
                case .public: "Your profile is public."
                case .followers: "Only your followers see your profile."
                case .private: "Your profile is private: hidden from search, seen only by your followers."
                }
        }
        let page = ProfilePage(
            layout: req.layout(title: user.displayName, section: .people),
            person: PersonCard(user, relation: relation),
            isSelf: relation.isSelf,
            isLimited: !full,
            ageGroup: full ? age.map { AgeGroup.of(age: $0).label } : nil,
            gender: full && user.gender != .unspecified ? user.gender.label : nil,
            homeName: full ? user.homeName : nil,
            sports: sports,
            teams: full ? try await Self.listedTeams(of: user.requireID(), on: req.db) : [],
            followers: counts.0, following: counts.1,
            challengeScore: full ? String(try await Scoreboard.score(of: user.requireID(), on: req.db)) : nil,
            memberSince: Self.monthYear(user.createdAt ?? Date()),
            visibilityNote: note,
            signInToFollow: req.currentUser == nil ? SiteURL.login(next: .person(username: user.username)) : nil
        )
        return try await req.view.render("accounts/profile", page)
    }

    /// The person's public and protected teams. Private teams never appear on a profile, not even
    /// to someone who plays in them too: the profile is not the place to reveal them.
    static func listedTeams(of userID: UUID, on db: any Database) async throws -> [TeamLine] {
        try await (db as! any SQLDatabase).raw(
            """
            SELECT t.slug, t.name, m.role FROM memberships m JOIN teams t ON t.id = m.team_id
            WHERE m.user_id = \(bind: userID) AND t.privacy <> \(bind: Team.Privacy.private.rawValue)
            ORDER BY t.name
            """
        ).all().map { row in
            TeamLine(
                slug: try row.decode(column: "slug", as: String.self),
                name: try row.decode(column: "name", as: String.self),
                role: Membership.Role(rawValue: try row.decode(column: "role", as: String.self))?.label ?? ""
            )
        }
    }

    /// "November 2026". Built by hand: Foundation's formatters are costly to create per request.
    static func monthYear(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970)"
    }

    func avatar(req: Request) async throws -> Response {
        let (user, relation) = try await Self.visiblePerson(req)
        guard ProfilePolicy.canViewProfile(user, relation), let file = user.avatarFile,
            let format = AvatarStore.format(ofFile: file)
        else { throw Abort(.notFound) }
        let response = try await req.fileio.asyncStreamFile(at: AvatarStore.path(of: file, config: req.application.config))
        response.headers.replaceOrAdd(name: .contentType, value: format.mimeType)
        // Private: a shared cache must never hand one person's allowed avatar to someone else.
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=3600")
        return response
    }

    struct FollowListPage: Encodable {
        let layout: Layout
        let owner: PersonCard
        let heading: String
        let people: [PersonCard]
        let pager: Pager
        let emptyMessage: String
    }

    func followList(req: Request, direction: PeopleQueries.Direction) async throws -> View {
        let (user, relation) = try await Self.visiblePerson(req)
        guard ProfilePolicy.canViewProfile(user, relation) else { throw Abort(.notFound) }
        var pager = Pager(req: req)
        let rows = try await PeopleQueries.follows(of: user, direction: direction, viewer: req.currentUser, pager: pager, on: req.db)
        let list: SiteURL = direction == .followers ? .followers(username: user.username) : .following(username: user.username)
        let users = pager.finish(rows, at: list, query: [])
        let heading = direction == .followers ? "Followers of \(user.displayName)" : "People \(user.displayName) follows"
        let page = FollowListPage(
            layout: req.layout(title: heading, section: .people),
            owner: PersonCard(user, relation: relation),
            heading: heading,
            people: try await PersonCard.list(users, viewer: req.currentUser, on: req.db),
            pager: pager,
            emptyMessage: direction == .followers ? "No followers yet." : "Not following anyone yet."
        )
        return try await req.view.render("accounts/follow_list", page)
    }

    struct PeoplePage: Encodable {
        let layout: Layout
        let query: String
        let people: [PersonCard]
        let pager: Pager
    }

    func people(req: Request) async throws -> View {
        let query = String((req.query[String.self, at: "q"] ?? "").trimmingCharacters(in: .whitespaces).prefix(100))
        var pager = Pager(req: req)
        let rows = try await PeopleQueries.search(query, viewer: req.currentUser, pager: pager, on: req.db)
        let users = pager.finish(rows, at: .people, query: [("q", query)])
        let page = PeoplePage(
            layout: req.layout(title: query.isEmpty ? "People" : "People matching “\(query)”", section: .people),
            query: query,
            people: try await PersonCard.list(users, viewer: req.currentUser, on: req.db),
            pager: pager
        )
        return try await req.view.render("accounts/people", page)
    }
}
