import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// `/coach`: the coach's side. The dashboard (one row per athlete), invitations, requests from
/// athletes, and asking a whole team at once. Athlete pages and the weekly review are in their
/// own controllers.
struct CoachController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CoachPath.coach, use: dashboard)
        routes.post(CoachPath.invite, use: invite)
        routes.post(CoachPath.teamRequest, use: requestTeam)
        routes.post(CoachPath.acceptRequest, use: accept)
        routes.post(CoachPath.declineRequest, use: decline)
        routes.post(CoachPath.stopCoaching, use: stop)
    }

    struct Row: Encodable {
        let username: String
        let name: String
        let last: String
        let lastURL: String?
        let daysSince: String
        let idle: Bool
        let duration: String
        let durationAverage: String
        let distance: String
        let distanceAverage: String
        let load: String
        let loadAverage: String
        let ratio: String
        let overreaching: Bool
        let goals: String
        let compliance: String
        let complianceClass: String
    }

    struct Request: Encodable {
        let id: String
        let name: String
        let username: String
        let team: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let week: String
        let rows: [Row]
        let sorts: [SelectOption]
        let teams: [SelectOption]
        let coachedTeams: [SelectOption]
        let incoming: [Request]
        let outgoing: [Request]
        let invite: String
        let errors: FieldErrors
        /// Athletes recording now whom the coach may watch live.
        let liveNow: [LiveNowCard]
    }

    /// Computed, not stored: the labels are in the language of each request.
    static var sorts: [(String, String)] {
        [
            ("name", t("Name")), ("idle", t("Days since last workout")), ("load", t("Load ratio")),
            ("compliance", t("Plan compliance")), ("duration", t("This week's time")),
        ]
    }

    /// Futsal and strength cover no distance: a dash rather than "0.00 km".
    private static func distance(_ metres: Double, _ format: Format) -> String {
        metres > 0 ? format.distance(metres) : "–"
    }

    func dashboard(req: Vapor.Request) async throws -> Response {
        try await render(req, coach: try req.requireUser())
    }

    private func render(_ req: Vapor.Request, coach: User, invite: String = "", errors: FieldErrors = [:]) async throws -> Response {
        let coachID = try coach.requireID()
        let format = Format(coach)
        let sort = Self.sorts.map(\.0).contains(req.query[String.self, at: "sort"] ?? "") ? req.query[String.self, at: "sort"]! : "name"

        // Teams: those the coach belongs to, to filter by; those they coach, to ask every member.
        let memberships = try await Membership.query(on: req.db).filter(\.$user.$id == coachID).with(\.$team).all()
        let teamSlug = req.query[String.self, at: "team"] ?? ""
        let team = memberships.first { $0.team.slug == teamSlug }?.team
        let squad = try await SquadTraining.load(coach: coachID, team: try team?.requireID(), on: req.db)

        let today = req.clock.today(in: coach.timeZone)
        let weekStart = ReportPeriod.week.start(containing: today)
        let training = try await Self.training(of: squad, weekStart: weekStart, today: today, req: req)
        let rows = Self.sorted(
            squad.athletes.enumerated().map { Self.row(of: $0.offset, $0.element, training, now: req.now, format: format) }, by: sort)

        // Requests waiting for the coach, and invitations waiting for athletes.
        let pending = try await Self.pending(for: coachID, on: req.db)
        func request(_ grant: CoachGrant) -> Request {
            Request(
                id: grant.id?.uuidString.lowercased() ?? "", name: grant.athlete.displayName, username: grant.athlete.username,
                team: memberships.first { $0.$team.id == grant.teamID }?.team.name)
        }
        let coached = memberships.filter { $0.role == .coach || $0.role == .owner || $0.role == .manager }
        let liveNow = try await Self.liveNow(of: squad, coach: coach, req: req)
        let page = Page(
            layout: req.layout(title: t("Coaching")),
            week: t("Week of {day}", Format.dayAndMonth(weekStart)),
            rows: rows,
            sorts: Self.sorts.map { SelectOption(value: $0.0, label: $0.1, selected: $0.0 == sort) },
            teams: [SelectOption(value: "", label: t("All athletes"), selected: team == nil)]
                + memberships.map { SelectOption(value: $0.team.slug, label: $0.team.name, selected: $0.team.slug == teamSlug) },
            coachedTeams: coached.map { SelectOption(value: $0.team.slug, label: $0.team.name, selected: false) },
            incoming: pending.filter { $0.requestedBy == .athlete }.map(request),
            outgoing: pending.filter { $0.requestedBy == .coach }.map(request),
            invite: invite, errors: errors, liveNow: liveNow)
        return try await req.view.render("coaching/dashboard", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    /// What the squad did this week and the four before, what was planned this week, and goals.
    private struct Training {
        let today: CalendarDate
        let firstDay: String, weekFirst: String, weekLast: String
        let now: Int64
        let done: [SquadTraining.Done]
        let last: [Int: (id: UUID, name: String, sport: WorkoutSport, start: Int64)]
        let plans: [SquadTraining.Plan]
        let goals: [Int: (reached: Int, total: Int)]
    }

    /// What a row may be sorted by.
    private typealias SortKeys = (idle: Int, ratio: Double, compliance: Double, duration: Double)

    private static func training(of squad: SquadTraining, weekStart: CalendarDate, today: CalendarDate, req: Vapor.Request) async throws -> Training {
        let firstDay = weekStart.adding(days: -28).description, weekFirst = weekStart.description, weekLast = weekStart.adding(days: 6).description
        let now = req.clock.milliseconds
        // A day either side of the coach's week, for athletes in other time zones.
        let from = min(Int64(weekStart.adding(days: -29).dayNumber) * 86_400_000, now - 29 * 86_400_000)
        let done = try await squad.workouts(from: from, to: now + 86_400_000, on: req.db)
        let last = try await squad.lastWorkouts(on: req.db)
        let plans = try await squad.plans(from: weekFirst, through: weekLast, on: req.db)
        let goals = try await squad.goalCompletion(done: done, now: req.now, on: req.db)
        return Training(
            today: today, firstDay: firstDay, weekFirst: weekFirst, weekLast: weekLast, now: now, done: done, last: last, plans: plans, goals: goals)
    }

    /// One athlete's line, and what it sorts by.
    private static func row(of index: Int, _ athlete: SquadTraining.Athlete, _ training: Training, now date: Date, format: Format) -> (
        row: Row, keys: SortKeys
    ) {
        let (done, last, now) = (training.done, training.last, training.now)
        let mine = done.filter { $0.athlete == index }
        let thisWeek = mine.filter { $0.day >= training.weekFirst && $0.day <= training.weekLast }
        let before = mine.filter { $0.day >= training.firstDay && $0.day < training.weekFirst }
        let load = TrainingLoad(
            acute: mine.filter { $0.start >= now - 7 * 86_400_000 }.compactMap(\.trimp).reduce(0, +),
            chronic28: mine.filter { $0.start >= now - 28 * 86_400_000 }.compactMap(\.trimp).reduce(0, +))
        // Calendar days in the athlete's own time zone: yesterday evening is "1 day".
        let daysSince = last[index].map { workout in
            let then = WallClock(Date(timeIntervalSince1970: Double(workout.start) / 1000), zone: athlete.zone)
            let now = WallClock(date, zone: athlete.zone)
            return CalendarDate(year: now.year, month: now.month, day: now.day)!.dayNumber
                - CalendarDate(year: then.year, month: then.month, day: then.day)!.dayNumber
        }
        let planned = training.plans.filter { $0.athlete == index }
        let grades = planned.compactMap { SquadTraining.compliance(of: $0, done: done, today: training.today.description) }
        let onPlan = grades.filter { $0 == .green }.count
        let worst = grades.contains(.red) ? "red" : grades.contains(.yellow) ? "yellow" : grades.isEmpty ? "none" : "green"
        let row = Row(
            username: athlete.username, name: athlete.name,
            last: last[index].map { "\($0.sport.label): \($0.name)" } ?? t("No workouts yet"),
            lastURL: last[index].map { SiteURL.workout($0.id).path },
            daysSince: daysSince.map { $0 == 0 ? t("today") : tn("{count} day", "{count} days", $0) } ?? "–",
            idle: (daysSince ?? Int.max) >= 7,
            duration: Format.duration(thisWeek.map(\.duration).reduce(0, +)),
            durationAverage: Format.duration(before.map(\.duration).reduce(0, +) / 4),
            distance: Self.distance(thisWeek.compactMap(\.distance).reduce(0, +), format),
            distanceAverage: Self.distance(before.compactMap(\.distance).reduce(0, +) / 4, format),
            load: Format.whole(thisWeek.compactMap(\.trimp).reduce(0, +)),
            loadAverage: Format.whole(before.compactMap(\.trimp).reduce(0, +) / 4),
            ratio: load.ratio.map { Format.number($0, decimals: 2) } ?? "–",
            overreaching: load.overreaching,
            goals: training.goals[index].map { t("{reached} of {total}", $0.reached, $0.total) } ?? "–",
            compliance: planned.isEmpty
                ? t("nothing planned")
                : grades.count < planned.count
                    ? t("{done} of {planned} on plan ({later} to come)", onPlan, planned.count, planned.count - grades.count)
                    : t("{done} of {planned} on plan", onPlan, planned.count),
            complianceClass: worst)
        let keys = (
            daysSince ?? Int.max, load.ratio ?? 0, grades.isEmpty ? 2 : Double(onPlan) / Double(grades.count), thisWeek.map(\.duration).reduce(0, +)
        )
        return (row, keys)
    }

    /// The rows in the chosen order; by name, as the squad is read, unless another is chosen.
    private static func sorted(_ rows: [(row: Row, keys: SortKeys)], by sort: String) -> [Row] {
        var rows = rows
        switch sort {
        case "idle": rows.sort { $0.keys.idle > $1.keys.idle }
        case "load": rows.sort { $0.keys.ratio > $1.keys.ratio }
        case "compliance": rows.sort { $0.keys.compliance < $1.keys.compliance }
        case "duration": rows.sort { $0.keys.duration > $1.keys.duration }
        default: break
        }
        return rows.map(\.row)
    }

    /// The coach's pending grants, both ways. A request held back from this coach (a stranger asking
    /// a child to coach them) is not theirs to see.
    private static func pending(for coachID: UUID, on db: any Database) async throws -> [CoachGrant] {
        try await CoachGrant.query(on: db).filter(\.$coach.$id == coachID).filter(\.$status == .pending)
            .with(\.$athlete).all().filter { !($0.held && $0.requestedBy == .athlete) }
    }

    /// Who in the squad is training live now, as the companions that know tell it.
    private static func liveNow(of squad: SquadTraining, coach: User, req: Vapor.Request) async throws -> [LiveNowCard] {
        var liveNow: [LiveNowCard] = []
        let athleteIDs = squad.athletes.map(\.id)
        for companion in Features.squadCompanions {
            liveNow += try await companion.liveNow(of: athleteIDs, coach: coach, now: req.now, on: req.db)
        }
        return liveNow
    }

    /// A coach asks an athlete, by username, to share their training.
    func invite(req: Vapor.Request) async throws -> Response {
        let coach = try req.requireUser()
        let typed = ((try? req.content.get(String.self, at: "username")) ?? "").trimmingCharacters(in: .whitespaces)
        let name = typed.hasPrefix("@") ? String(typed.dropFirst()) : typed
        guard !name.isEmpty else { return try await render(req, coach: coach, invite: typed, errors: ["username": t("Type the athlete's username.")]) }
        let found = try await User.query(on: req.db).filter(\.$username == name.lowercased()).first()
        let reach = try await PersonAccess.reach(found, from: coach, today: req.clock.today, on: req.db)
        guard let athlete = found, reach != .unknown else {
            return try await render(req, coach: coach, invite: typed, errors: ["username": t("There is nobody called {name} here.", name)])
        }
        guard athlete.id != coach.id else { return try await render(req, coach: coach, invite: typed, errors: ["username": t("You cannot coach yourself.")]) }
        switch try await CoachGrants.ask(coach: coach, athlete: athlete, by: .coach, team: nil, held: reach == .dropped, now: req.now, on: req.db) {
        case .asked: req.flash(.success, t("Asked {name}. Nothing is shared until they accept.", athlete.displayName))
        case .accepted: req.flash(.success, t("{name} had already asked you: you now coach them.", athlete.displayName))
        case .already(let status):
            req.flash(
                .info,
                status == .active
                    ? t("You already coach {name}.", athlete.displayName) : t("{name} has not answered your earlier request yet.", athlete.displayName))
        }
        return req.redirect(to: .coach)
    }

    /// A team's coach asks every member at once; each accepts on their own.
    func requestTeam(req: Vapor.Request) async throws -> Response {
        let coach = try req.requireUser()
        let slug = (try? req.content.get(String.self, at: "team")) ?? ""
        guard let team = try await Team.query(on: req.db).filter(\.$slug == slug).first(),
            let membership = try await Membership.query(on: req.db).filter(\.$team.$id == team.requireID()).filter(\.$user.$id == coach.requireID()).first(),
            [.coach, .owner, .manager].contains(membership.role)
        else {
            return try await render(req, coach: coach, errors: ["team": t("Choose a team you coach or manage.")])
        }
        let members = try await Membership.query(on: req.db).filter(\.$team.$id == team.requireID()).filter(\.$user.$id != coach.requireID())
            .with(\.$user).all()
        var asked = 0
        for member in members {
            if case .asked = try await CoachGrants.ask(coach: coach, athlete: member.user, by: .coach, team: team.requireID(), now: req.now, on: req.db) {
                asked += 1
            }
        }
        req.flash(
            .success,
            asked == 0
                ? t("Everyone in {team} has already been asked.", team.name)
                : tn(
                    "Asked {count} member of {team}. Each decides for themselves.", "Asked {count} members of {team}. Each decides for themselves.", asked,
                    team.name))
        return req.redirect(to: .coach)
    }

    func accept(req: Vapor.Request) async throws -> Response {
        let coach = try req.requireUser()
        let grant = try await pendingRequest(req, coach: coach)
        guard grant.requestedBy == .athlete else { throw Abort(.notFound) }
        grant.status = .active
        grant.acceptedAt = req.now
        try await grant.save(on: req.db)
        try await Notification.send(
            to: [grant.$athlete.id], from: coach.id, kind: .coachAccepted, text: t("{name} accepted your coaching request.", coach.displayName),
            link: SiteURL.coachSettings.path, on: req.db)
        req.flash(.success, t("You now coach {name}.", grant.athlete.displayName))
        return req.redirect(to: .coach)
    }

    func decline(req: Vapor.Request) async throws -> Response {
        let coach = try req.requireUser()
        let grant = try await pendingRequest(req, coach: coach)
        try await grant.delete(on: req.db)
        req.flash(
            .success,
            grant.requestedBy == .coach
                ? t("Withdrew the request to {name}.", grant.athlete.displayName) : t("Declined {name}'s request.", grant.athlete.displayName)
        )
        return req.redirect(to: .coach)
    }

    /// The coach stops coaching an athlete: access ends at once.
    func stop(req: Vapor.Request) async throws -> Response {
        let coach = try req.requireUser()
        let athlete = try await AthleteAccess.load(req, coach: coach).athlete
        try await CoachGrant.query(on: req.db).filter(\.$coach.$id == coach.requireID()).filter(\.$athlete.$id == athlete.requireID()).delete()
        req.flash(.success, t("You no longer coach {name}; their training is hidden from you again.", athlete.displayName))
        return req.redirect(to: .coach)
    }

    private func pendingRequest(_ req: Vapor.Request, coach: User) async throws -> CoachGrant {
        guard let id = req.parameters.get("id", as: UUID.self),
            let grant = try await CoachGrant.query(on: req.db).filter(\.$id == id).filter(\.$coach.$id == coach.requireID())
                .filter(\.$status == .pending).with(\.$athlete).first(), !(grant.held && grant.requestedBy == .athlete)
        else { throw Abort(.notFound) }
        return grant
    }
}
