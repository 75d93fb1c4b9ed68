import FieldhouseKit
import Fluent
import Vapor

/// `/goals`: daily or weekly targets with their progress, switched on and off, added and removed.
/// While a device is recording a workout the goals stay as they are, so the workout counts against
/// the goal it started under.
struct GoalController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.goals, use: page)
        routes.post(WorkoutPath.goals, use: add)
        routes.post(WorkoutPath.toggleGoal, use: toggle)
        routes.post(WorkoutPath.deleteGoal, use: delete)
    }

    struct Form: Content {
        var period: String?
        var metric: String?
        var target: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let goals: [GoalProgress]
        let periods: [SelectOption]
        let metrics: [SelectOption]
        let form: Form
        let error: String?
    }

    private func render(
        _ req: Request, user: User, form: Form = Form(period: "week", metric: "duration", target: "150"),
        error: String? = nil, status: HTTPStatus = .ok
    ) async throws -> Response {
        let imperial = user.units == .imperial
        let page = Page(
            layout: req.layout(title: t("Goals"), section: .workouts), goals: try await GoalProgress.all(for: user, now: req.now, on: req.db),
            periods: Goal.Period.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
            metrics: Goal.Metric.allCases.map { SelectOption(value: $0.rawValue, label: "\($0.label) (\($0.unit(imperial: imperial)))") },
            form: form, error: error)
        return try await req.view.render("workouts/goals", page).encodeResponse(status: status, for: req)
    }

    func page(req: Request) async throws -> Response {
        try await render(req, user: try req.requireUser())
    }

    /// The refusal while a workout is being recorded, or nil.
    private func recording(_ user: User, on db: any Database) async throws -> String? {
        let open = try await Workout.query(on: db).filter(\.$user.$id == user.requireID()).filter(\.$endMS == nil).first()
        return open.map {
            t("“{name}” is still being recorded. Goals can be changed once it is finished, so it counts against the goal it started under.", $0.name)
        }
    }

    func add(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(Form.self)
        if let refusal = try await recording(user, on: req.db) { return try await render(req, user: user, form: form, error: refusal, status: .conflict) }
        guard let period = Goal.Period(rawValue: form.period ?? ""), let metric = Goal.Metric(rawValue: form.metric ?? "") else {
            return try await render(req, user: user, form: form, error: t("Choose a period and what to count."), status: .unprocessableEntity)
        }
        var errors: FieldErrors = [:]
        let unit = metric.unit(imperial: user.units == .imperial)
        let limit = t("Enter a target from {minimum} to {maximum} {unit}", Format.decimal(metric.minimum), Format.decimal(metric.limit), unit)
        guard
            let typed = FormNumber.read(
                form.target, in: metric.minimum...metric.limit, required: true, field: "target", message: limit,
                errors: &errors)
        else {
            return try await render(req, user: user, form: form, error: (errors["target"] ?? limit) + ".", status: .unprocessableEntity)
        }
        let goals = try await Goal.query(on: req.db).filter(\.$user.$id == user.requireID()).all()
        // One goal per period and measure: a second would count the same workouts twice over.
        if let same = goals.first(where: { $0.period == period && $0.metric == metric }) {
            return try await render(
                req, user: user, form: form,
                error: t("You already have a {goal}; remove it first to set another target.", same.goalLabel.lowercased()),
                status: .conflict)
        }
        let count = goals.count
        guard count < Goal.maxPerPerson else {
            return try await render(
                req, user: user, form: form,
                error: tn("You have {count} goal already; remove one first.", "You have {count} goals already; remove one first.", Goal.maxPerPerson),
                status: .unprocessableEntity)
        }
        // Stored in metres, seconds, steps and kilocalories.
        let target: Double =
            switch metric {
            case .distance: typed * (user.units == .imperial ? Format.metresPerMile : 1000)
            case .duration: typed * 60
            case .steps, .calories: typed.rounded()
            }
        try await Goal(user: user.requireID(), period: period, metric: metric, target: target).create(on: req.db)
        req.flash(.success, t("Goal added."))
        return req.redirect(to: .goals)
    }

    private func own(_ req: Request, _ user: User) async throws -> Goal {
        guard let id = req.parameters.get("id", as: UUID.self),
            let goal = try await Goal.query(on: req.db).filter(\.$id == id).filter(\.$user.$id == user.requireID()).first()
        else {
            throw Abort(.notFound)
        }
        return goal
    }

    func toggle(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let goal = try await own(req, user)
        if let refusal = try await recording(user, on: req.db) { return try await render(req, user: user, error: refusal, status: .conflict) }
        goal.enabled.toggle()
        try await goal.save(on: req.db)
        req.flash(.success, goal.enabled ? t("Goal switched on.") : t("Goal switched off."))
        return req.redirect(to: .goals)
    }

    func delete(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let goal = try await own(req, user)
        if let refusal = try await recording(user, on: req.db) { return try await render(req, user: user, error: refusal, status: .conflict) }
        try await goal.delete(on: req.db)
        req.flash(.success, t("Goal removed."))
        return req.redirect(to: .goals)
    }
}
