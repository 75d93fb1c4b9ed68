import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Plans: posting one (which lists a private pick-up game with the poster as organiser), its page,
/// and "I'm in", which takes a place in that game so it shows in the person's games and calendar.
struct PlanController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CommunityPath.newPlan, use: newPage)
        routes.post(CommunityPath.newPlan, use: create)
        routes.get(CommunityPath.plan, use: show)
        routes.post(CommunityPath.planJoin, use: join)
        routes.post(CommunityPath.cancelPlan, use: cancel)
    }

    // MARK: Posting

    struct FormPage: Encodable {
        let layout: Layout
        let form: PlanForm
        let errors: FieldErrors
        let sports: [SelectOption]
        let audiences: [SelectOption]
        let routes: [SelectOption]
        let zone: String
        let action: String
        let back: String
    }

    /// Teams a plan may go to: the poster's, where members are let in. Anyone may join a public
    /// team at once, so its members are not people the poster chose.
    private func myTeams(_ user: User, on db: any Database) async throws -> [Team] {
        try await Team.query(on: db).join(Membership.self, on: \Membership.$team.$id == \Team.$id)
            .filter(Membership.self, \.$user.$id == user.requireID()).filter(\.$privacy != .public).sort(\.$name).all()
    }

    /// Routes a plan may name: the poster's own, shared with friends or everyone.
    private func myRoutes(_ user: User, on db: any Database) async throws -> [Route] {
        try await Route.query(on: db).filter(\.$user.$id == user.requireID()).filter(\.$visibility != .private).sort(\.$name).limit(200).all()
    }

    private func render(_ req: Request, user: User, form: PlanForm, errors: FieldErrors, status: HTTPStatus = .ok) async throws -> Response {
        let teams = try await myTeams(user, on: req.db)
        let routes = try await myRoutes(user, on: req.db).map {
            SelectOption(value: SiteURL.id($0.id!), label: $0.name + ($0.visibility == .friends ? " " + t("(friends)") : ""))
        }
        let audiences =
            [
                SelectOption(value: Plan.Audience.friends.rawValue, label: t("Friends: people you follow who follow you back")),
                SelectOption(value: Plan.Audience.followers.rawValue, label: t("Everyone who follows you")),
            ] + teams.map { SelectOption(value: "team:\($0.slug)", label: t("Members of {team}", $0.name)) }
        let page = FormPage(
            layout: req.layout(title: t("Plan an activity"), section: .home, hasForms: true), form: form, errors: errors,
            sports: Sport.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }, audiences: audiences, routes: routes,
            zone: user.timeZone, action: SiteURL.newPlan.path, back: SiteURL.newsFeed.path)
        return try await req.view.render("community/plan_form", page).encodeResponse(status: status, for: req)
    }

    func newPage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        return try await render(req, user: user, form: PlanForm(zone: user.timeZone, now: req.now), errors: [:])
    }

    func create(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(PlanForm.self)
        let teams = try await myTeams(user, on: req.db)
        let routes = Dictionary(try await myRoutes(user, on: req.db).map { ($0.id!, $0.visibility) }, uniquingKeysWith: { first, _ in first })
        let (valid, errors) = form.validate(zone: user.timeZone, teams: Set(teams.map(\.slug)), routes: routes, now: req.now)
        guard let valid else { return try await render(req, user: user, form: form, errors: errors, status: .unprocessableEntity) }
        let plan = Plan()
        plan.$poster.id = try user.requireID()
        plan.audience = valid.audience
        plan.$team.id = try valid.teamSlug.flatMap { slug in teams.first { $0.slug == slug } }?.requireID()
        plan.text = valid.text
        plan.$route.id = valid.route
        let jobs = req.application.jobs, now = req.now
        try await req.db.inTransaction { db in
            let game = try await Game.createPickup(valid.game, organiser: user.requireID(), now: now, jobs: jobs, on: db)
            plan.$game.id = try game.requireID()
            try await plan.create(on: db)
        }
        try await tellAudience(plan, by: user, req: req)
        req.flash(.success, t("Posted. It's in your games and calendar; people say they're in from their feed."))
        return req.redirect(to: .plan(try plan.requireID()))
    }

    /// Everyone the plan is for hears of it once, by their settings (the Community topic).
    private func tellAudience(_ plan: Plan, by poster: User, req: Request) async throws {
        let id = try plan.requireID()
        let audience = try await PlanAccess.audience(of: id, limit: Plan.maxAudienceTold, on: req.db)
        let words = Format.excerpt(plan.text)
        try await Notification.send(
            to: audience, by: poster, kind: .planPosted, today: req.clock.today, text: { name in t("{name} posted a plan: “{plan}”. Who's in?", name, words) },
            link: SiteURL.plan(id).path, on: req.db)
    }

    // MARK: The plan page

    /// The plan in the URL as the viewer may see it, or 404.
    static func load(_ req: Request) async throws -> (plan: Plan, game: Game, viewer: User) {
        let user = try req.requireUser()
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw Abort(.notFound) }
        guard let plan = try await PlanAccess.find(id, viewer: user.requireID(), on: req.db) else { throw Abort(.notFound) }
        return (plan, plan.game, user)
    }

    struct Page: Encodable {
        let layout: Layout
        let posterName: String
        let posterURL: String?
        let text: String
        let sport: String
        let day: String
        let time: String
        let place: String?
        let routeName: String?
        let routeURL: String?
        let audience: String
        let going: [PersonCard]
        /// People in whom the viewer may not know of: counted, not named.
        let unnamed: Int
        let waiting: Int
        let capacity: Int?
        let isPoster: Bool
        let isIn: Bool
        let canJoin: Bool
        let willWait: Bool
        let isCancelled: Bool
        let isOver: Bool
        let gameURL: String?
        /// The plan's conversation (`Messages`), for its poster and those who are in.
        let conversationURL: String?
        let joinAction: String
        let cancelAction: String
        let back: String
    }

    func show(req: Request) async throws -> View {
        let (plan, game, viewer) = try await Self.load(req)
        let access = try await GameAccess.of(game, viewer: viewer, now: req.now, on: req.db)
        let players = try await GamePlayer.query(on: req.db).filter(\.$game.$id == game.requireID()).with(\.$user).sort(\.$queuedAt).all()
        let going = players.filter { $0.status == .joined }.map(\.user)
        let cards = try await PersonCard.list(going, viewer: viewer, today: req.clock.today, on: req.db)
        let poster = plan.poster
        let posterVisible = try await PersonCard.list([poster], viewer: viewer, today: req.clock.today, on: req.db).isEmpty == false
        // The route as the viewer may open it (a route made private since is not named).
        var route: Route?
        if let candidate = try await plan.$route.get(on: req.db),
            try await RouteAccess.canView(candidate, viewer: viewer.id, today: req.clock.today, on: req.db)
        {
            route = candidate
        }
        let audience: String
        switch plan.audience {
        case .friends: audience = t("Friends")
        case .followers: audience = t("Followers")
        case .team: audience = try await plan.$team.get(on: req.db).map { t("Members of {team}", $0.name) } ?? t("A team")
        }
        return try await req.view.render(
            "community/plan",
            Page(
                layout: req.layout(title: t("{name}'s plan", posterVisible ? poster.displayName : t("Someone")), section: .home, hasForms: true),
                posterName: posterVisible ? poster.displayName : t("Someone"),
                posterURL: posterVisible ? SiteURL.person(username: poster.username).path : nil, text: plan.text, sport: game.sportLabel,
                day: GameTime.day(game.startsAt, zone: game.timeZone), time: GameTime.range(game.startsAt, game.endsAt, zone: game.timeZone),
                place: game.placeName, routeName: route?.name, routeURL: try route.map { SiteURL.route(try $0.requireID()).path }, audience: audience,
                going: cards, unnamed: going.count - cards.count,
                waiting: players.filter { $0.status == .waitlisted || $0.status == .offered }.count, capacity: game.capacity,
                isPoster: access.isOrganiser, isIn: access.player != nil, canJoin: access.canJoin, willWait: game.isFull,
                isCancelled: game.isCancelled, isOver: !access.isUpcoming && !game.isCancelled,
                gameURL: access.isOrganiser || access.player != nil ? SiteURL.game(try game.requireID()).path : nil,
                conversationURL: access.isOrganiser || access.player != nil ? SiteURL.planConversation(try plan.requireID()).path : nil,
                joinAction: SiteURL.planJoin(try plan.requireID()).path, cancelAction: SiteURL.cancelPlan(try plan.requireID()).path,
                back: SiteURL.newsFeed.path))
    }

    // MARK: I'm in

    func join(req: Request) async throws -> Response {
        let (plan, game, user) = try await Self.load(req)
        let access = try await GameAccess.of(game, viewer: user, now: req.now, on: req.db)
        let planURL = SiteURL.plan(try plan.requireID())
        guard !access.isOrganiser else { throw Abort(.forbidden, reason: t("It's your plan: you're in already.")) }
        guard access.player == nil else {
            req.flash(.info, t("You're already in."))
            return req.redirect(to: planURL)
        }
        guard access.canJoin else {
            throw Abort(.conflict, reason: game.isCancelled ? t("This plan was called off.") : t("This plan is over; look out for the next one."))
        }
        try access.requireAgeFits(user)
        guard try await PersonAccess.reach(plan.poster, from: user, today: req.clock.today, on: req.db) == .allowed else {
            throw Abort(.forbidden, reason: t("{name} only hears from people they know.", plan.poster.displayName))
        }
        let outcome = try await GameRoster.join(game, user: user, note: nil, now: req.now, on: req.db)
        let words = plan.text.count > 60 ? String(plan.text.prefix(57)) + "…" : plan.text
        try await Notification.send(
            to: [plan.$poster.id], by: user, kind: .planJoined, today: req.clock.today,
            text: { name in
                outcome == .joined
                    ? t("{name} is in: “{plan}”", name, words)
                    : outcome == .waitlisted ? t("{name} is on the waitlist for “{plan}”", name, words) : t("{name} asked to join “{plan}”", name, words)
            },
            link: planURL.path, on: req.db)
        req.flash(
            .success,
            outcome == .joined
                ? t("You're in. The game is in My games and your calendar.")
                : outcome == .waitlisted
                    ? t("It's full, so you're on the waitlist: you'll hear when a place opens.") : t("Asked: {name} lets people in.", plan.poster.displayName))
        return req.redirect(to: planURL)
    }

    // MARK: Calling it off

    struct CancelForm: Content { var confirm: String? }

    /// The poster calls the plan off: its game is cancelled (calendars update, everyone in hears)
    /// and the plan says so.
    func cancel(req: Request) async throws -> Response {
        let (plan, game, user) = try await Self.load(req)
        guard plan.$poster.id == user.id else { throw Abort(.forbidden, reason: t("Only the person who posted the plan can call it off.")) }
        guard try req.content.decode(CancelForm.self).confirm == "yes" else {
            throw Abort(.unprocessableEntity, reason: t("Tick “Yes, call it off” to confirm; nothing was changed."))
        }
        if !game.isCancelled {
            try await req.db.inTransaction { db in try await game.cancel(by: user.requireID(), teamName: nil, on: db) }
        }
        req.flash(.info, t("Called off. Everyone who was in has been told."))
        return req.redirect(to: .plan(try plan.requireID()))
    }
}
