import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Profile pages, follower lists, avatars and finding people.
struct ProfileController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPath.person, use: profile)
        routes.get(AccountPath.avatar, use: avatar)
        routes.get(AccountPath.followers) { try await followList(req: $0, direction: .followers) }
        routes.get(AccountPath.following) { try await followList(req: $0, direction: .following) }
        routes.get(AccountPath.people, use: people)
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
        let followers: Int
        let following: Int
        /// What the features add (teams, challenge points), for those who may see the full profile.
        let parts: ProfileParts
        let memberSince: String
        let visibilityNote: String?
        let signInToFollow: String?
        /// Direct messages, offered to people who follow each other (the page there says more).
        let messageURL: String?
        /// Block or unblock, for anyone signed in but the person themselves.
        let blockAction: String?
        let unblockAction: String?
    }

    struct SportLine: Encodable {
        let sport: String
        let skill: String
    }

    func profile(req: Request) async throws -> View {
        let username = (req.parameters.get("username") ?? "").lowercased()
        guard let (user, followers, following) = try await ProfileQuery.load(username: username, on: req.db) else {
            throw Abort(.notFound)
        }
        let relation = try await Relations.load(viewer: req.currentUser, people: [user.requireID()], today: req.clock.today, on: req.db).relation(to: user)
        guard PersonAccess.canSeeExists(user, relation) else { throw Abort(.notFound) }
        let full = PersonAccess.canViewProfile(user, relation)
        let counts = full ? (followers, following) : (0, 0)
        let age = user.birthDate.flatMap(CalendarDate.init(iso:)).map { $0.age(on: req.clock.today) }

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
                case .public: t("Your profile is public.")
                case .followers: t("Only your followers see your profile.")
                case .private: t("Your profile is private: hidden from search, seen only by your followers.")
                }
        }
        let blocked = relation.viewerBlocked
        let other = req.currentUser != nil && !relation.isSelf
        let page = ProfilePage(
            layout: req.layout(title: user.displayName, section: .people),
            person: PersonCard(user, relation: relation),
            isSelf: relation.isSelf,
            isLimited: !full,
            ageGroup: full ? age.map { AgeGroup.of(age: $0).label } : nil,
            gender: full && user.gender != .unspecified ? user.gender.label : nil,
            homeName: full ? user.homeName : nil,
            sports: sports,
            followers: counts.0, following: counts.1,
            parts: full ? try await Self.parts(of: user.requireID(), from: req.application.features, on: req.db) : ProfileParts(),
            memberSince: Self.monthYear(user.createdAt ?? req.now),
            visibilityNote: note,
            signInToFollow: req.currentUser == nil ? SiteURL.login(next: .person(username: user.username)) : nil,
            messageURL: other && !blocked && relation.viewerFollows == .accepted && relation.followsViewer == .accepted
                ? SiteURL.directConversation(username: user.username).path : nil,
            blockAction: other && !blocked ? SiteURL.block(username: user.username).path : nil,
            unblockAction: other && blocked ? SiteURL.unblock(username: user.username).path : nil
        )
        return try await req.view.render("accounts/profile", page)
    }

    static func parts(of userID: UUID, from features: [any Feature.Type], on db: any Database) async throws -> ProfileParts {
        var all = ProfileParts()
        for feature in features {
            let parts = try await feature.profileParts(of: userID, on: db)
            all.counts += parts.counts
            all.lists += parts.lists
        }
        return all
    }

    /// "November 2026", in UTC: when someone joined.
    static func monthYear(_ date: Date) -> String {
        let day = WallClock(date, zone: .utc)
        return Format.monthAndYear(month: day.month, year: day.year)
    }

    func avatar(req: Request) async throws -> Response {
        let access = try await PersonAccess.load(req)
        let (user, relation) = (access.person, access.relation)
        guard PersonAccess.canViewProfile(user, relation), let file = user.avatarFile,
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
        let access = try await PersonAccess.load(req)
        let (user, relation) = (access.person, access.relation)
        guard PersonAccess.canViewProfile(user, relation) else { throw Abort(.notFound) }
        var pager = Pager(req: req)
        let rows = try await PeopleQueries.follows(of: user, direction: direction, viewer: req.currentUser, pager: pager, today: req.clock.today, on: req.db)
        let list: SiteURL = direction == .followers ? .followers(username: user.username) : .following(username: user.username)
        let users = pager.finish(rows, at: list, query: [])
        let heading = direction == .followers ? t("Followers of {name}", user.displayName) : t("People {name} follows", user.displayName)
        let page = FollowListPage(
            layout: req.layout(title: heading, section: .people),
            owner: PersonCard(user, relation: relation),
            heading: heading,
            people: try await PersonCard.list(users, viewer: req.currentUser, today: req.clock.today, on: req.db),
            pager: pager,
            emptyMessage: direction == .followers ? t("No followers yet.") : t("Not following anyone yet.")
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
        let rows = try await PeopleQueries.search(query, viewer: req.currentUser, pager: pager, today: req.clock.today, on: req.db)
        let users = pager.finish(rows, at: .people, query: [("q", query)])
        let page = PeoplePage(
            layout: req.layout(title: query.isEmpty ? t("People") : t("People matching “{query}”", query), section: .people),
            query: query,
            people: try await PersonCard.list(users, viewer: req.currentUser, today: req.clock.today, on: req.db),
            pager: pager
        )
        return try await req.view.render("accounts/people", page)
    }
}
