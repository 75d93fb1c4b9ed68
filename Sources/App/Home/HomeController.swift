import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/`: a landing page for visitors, a dashboard for people who are signed in.
struct HomeController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SitePath.home, use: home)
    }

    struct LandingPage: Encodable {
        let layout: Layout
    }

    struct DashboardPage: Encodable {
        let layout: Layout
        let firstName: String
        /// The newest few entries of the person's feed, first on the page.
        let feed: [FeedItem]
        let feedURL: String
        /// This page, for the kudos buttons to come back to.
        let here: String
        let profileIncomplete: Bool
        let followRequests: Int
        let friends: Int
        let followers: Int
        let following: Int
        let newFollowers: [PersonCard]
        let suggestions: [PersonCard]
        let games: [GameCard]
        /// The WHO's advice for the person's age: 60 active minutes a day from 5 to 17, at least
        /// 150 a week for adults. The bar counts today's or this week's workouts against it.
        let activity: ActivityAdvice
        let goals: [GoalProgress]
        let recent: [RecentWorkout]
        /// Sessions the person's coaches planned for today and the week ahead.
        let planned: [String]
    }

    struct ActivityAdvice: Encodable {
        let line: String
        let advice: String
        let percent: Int
    }

    /// The advice that fits a person of `age` (adults' when the age is unknown), with how far they are.
    static func advice(age: Int?, today: [Workout], week: [Workout]) -> ActivityAdvice {
        func minutes(_ workouts: [Workout]) -> Int {
            Int((workouts.map { $0.moving > 0 ? $0.moving : $0.duration }.reduce(0, +) / 60).rounded(.down))
        }
        if let age, age < 18 {
            let done = minutes(today)
            return ActivityAdvice(
                line: t("{minutes} of 60 active minutes today", done), advice: t("The WHO advises 60 minutes a day for 5–17 year olds."),
                percent: min(100, done * 100 / 60))
        }
        let done = minutes(week)
        return ActivityAdvice(
            line: t("{minutes} of 150 active minutes this week", done),
            advice: t("The WHO advises adults at least 150 minutes a week of moderate activity (or 75 of vigorous)."),
            percent: min(100, done * 100 / 150))
    }

    struct RecentWorkout: Encodable {
        let id: String
        let name: String
        let when: String
        let summary: String
    }

    func home(req: Request) async throws -> View {
        guard let user = req.currentUser else {
            return try await req.view.render("home/landing", LandingPage(layout: req.layout(title: t("Fieldhouse: amateur sport, together"))))
        }
        let userID = try user.requireID()
        // Both directions in one read, newest first.
        let edges = try await FollowEdge.all(on: req.db) {
            $0.where("followee_id", .equal, userID).orWhere("follower_id", .equal, userID).orderBy("created_at", .descending)
        }
        let incoming = edges.filter { $0.followee == userID }
        let outgoing = edges.filter { $0.follower == userID }
        let iFollow = Set(outgoing.filter { $0.status == .accepted }.map(\.followee))
        let connected = Set(outgoing.map(\.followee)).union([userID])
        let followers = incoming.filter { $0.status == .accepted }

        let recentIDs = followers.prefix(5).map(\.follower)
        // Newest follower first, as the follows were sorted.
        let recent = try await PersonLoader.load(ids: Array(recentIDs), on: req.db)
        let teammates = user.isUnder16(on: req.clock.today) ? try await Self.teammates(of: userID, on: req.db) : nil
        let suggestions = try await Self.suggestions(for: userID, besides: connected, teammates: teammates, on: req.db)

        // Both lists of people from one read of how the person relates to them.
        let relations = try await Relations.load(viewer: user, people: (recent + suggestions).compactMap(\.id), today: req.clock.today, on: req.db)
        let periods = try await GoalProgress.PeriodWorkouts.load(user: user, now: req.now, on: req.db)
        let (todays, thisWeek) = (periods.day.workouts, periods.week.workouts)
        let age = user.birthDate.flatMap(CalendarDate.init(iso:))?.age(on: req.clock.today(in: user.timeZone))
        let format = Format(user)
        let recentWorkouts = try await Self.recentWorkouts(of: userID, on: req.db)

        let today = req.clock.today(in: user.timeZone)
        let plans = try await PlannedLine.upcoming(for: userID, from: today, through: today.adding(days: 7), on: req.db)

        let page = DashboardPage(
            layout: req.layout(title: t("Home"), section: .home),
            firstName: String(user.displayName.split(separator: " ").first ?? Substring(user.displayName)),
            feed: try await FeedResponses.annotate(
                Feed.load(
                    for: FeedViewer(id: userID, format: format, today: req.clock.today, now: req.now), before: nil, limit: 5,
                    from: req.application.features, on: req.db
                ).items,
                viewer: userID,
                on: req.db),
            feedURL: SiteURL.newsFeed.path, here: SiteURL.home.path,
            profileIncomplete: user.heightCm == nil || user.weightKg == nil,
            followRequests: incoming.filter { $0.status == .pending }.count,
            friends: followers.filter { iFollow.contains($0.follower) }.count,
            followers: followers.count,
            following: iFollow.count,
            newFollowers: PersonCard.list(recent, relations: relations),
            suggestions: PersonCard.list(suggestions, relations: relations),
            games: try await MyGames.load(for: userID, range: .upcoming(limit: 4), now: req.now, on: req.db).prefix(3).map { GameCard($0, viewer: userID) },
            activity: Self.advice(age: age, today: todays, week: thisWeek),
            goals: try await GoalProgress.all(for: user, now: req.now, periods: periods, on: req.db).filter(\.enabled),
            recent: try recentWorkouts.map { try Self.recentCard($0, format: format) },
            planned: plans.map { Self.plannedLine($0, today: today, format: format) }
        )
        return try await req.view.render("home/dashboard", page)
    }

    /// The people in a child's own teams (not public ones, which anyone joins at once).
    private static func teammates(of userID: UUID, on db: any Database) async throws -> [UUID] {
        try await db.sql.raw(
            """
            SELECT DISTINCT a.user_id AS id FROM memberships a JOIN memberships b ON b.team_id = a.team_id JOIN teams t ON t.id = a.team_id
            WHERE b.user_id = \(bind: userID) AND t.privacy <> 'public'
            """
        ).all(decoding: IDRow.self).map(\.id)
    }

    /// Suggestions: public profiles the person does not follow yet, newest first. A person under
    /// 16 is never shown a stranger: only people from their own teams (`teammates`).
    private static func suggestions(for userID: UUID, besides connected: Set<UUID>, teammates: [UUID]?, on db: any Database) async throws
        -> [User]
    {
        try await PersonLoader.select(on: db) { query in
            let fresh = query.where("id", .notIn, Array(connected)).orderBy("created_at", .descending).limit(6)
            guard let teammates else { return fresh.where("visibility", .equal, User.Visibility.public.rawValue) }
            return fresh.where("id", .in, teammates.isEmpty ? [userID] : teammates)
        }
    }

    /// The person's last three finished workouts.
    private static func recentWorkouts(of userID: UUID, on db: any Database) async throws -> [Workout] {
        try await Workout.query(on: db).filter(\.$user.$id == userID).filter(\.$endMS != nil)
            .sort(\.$startMS, .descending).limit(3).all()
    }

    private static func recentCard(_ workout: Workout, format: Format) throws -> RecentWorkout {
        RecentWorkout(
            id: try workout.requireID().uuidString.lowercased(), name: workout.name, when: format.when(workout.startMS),
            summary: [Format.duration(workout.duration), workout.distance.map { format.distance($0) }]
                .compactMap { $0 }.joined(separator: " · "))
    }

    /// A coach's plan for the coming week, in a line.
    private static func plannedLine(_ plan: PlannedLine, today: CalendarDate, format: Format) -> String {
        let day = CalendarDate(iso: plan.day) ?? today
        let amount = [plan.duration.map { Format.duration($0) }, plan.distance.map { format.distance($0) }].compactMap { $0 }
        let when =
            plan.day == today.description
            ? t("Today") : Format.weekdayAndDay(day)
        let what = "\((WorkoutSport(rawValue: plan.sport) ?? .other).label) \(amount.joined(separator: ", "))"
        return plan.description.isEmpty
            ? t("{when}: {what} (planned by {coach})", when, what, plan.coachName)
            : t("{when}: {what} — {description} (planned by {coach})", when, what, plan.description, plan.coachName)
    }
}

private struct IDRow: Decodable { let id: UUID }
