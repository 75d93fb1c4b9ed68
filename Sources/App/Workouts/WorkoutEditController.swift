import FieldhouseKit
import Fluent
import Vapor

/// `GET|POST /workouts/new` (a workout typed in by hand) and `GET|POST /workouts/{id}/edit` (name,
/// sport, notes and who can see it).
struct WorkoutEditController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.newWorkout, use: newPage)
        routes.post(WorkoutPath.newWorkout, use: create)
        routes.get(WorkoutPath.editWorkout, use: editPage)
        routes.post(WorkoutPath.editWorkout, use: update)
    }

    struct Form: Content {
        var name: String?
        var sport: String?
        var day: String?
        var time: String?
        var minutes: String?
        var distance: String?
        var heart_rate: String?
        var steps: String?
        var calories: String?
        var notes: String?
        var visibility: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let title: String
        let action: String
        let backURL: String
        let backLabel: String
        let isNew: Bool
        let form: Form
        let errors: FieldErrors
        let sports: [SelectOption]
        let visibilities: [SelectOption]
        /// Why "everyone" is not offered, for people under 16.
        let visibilityNote: String?
        let distanceUnit: String
        let today: String
    }

    private func render(_ req: Request, user: User, form: Form, errors: FieldErrors, workout: Workout?) async throws -> Response {
        let id = try workout?.requireID()
        let page = Page(
            layout: req.layout(title: workout == nil ? t("Add a workout") : t("Edit workout"), section: .workouts),
            title: workout == nil ? t("Add a workout by hand") : t("Edit “{name}”", workout!.name),
            action: (id.map(SiteURL.editWorkout) ?? .newWorkout).path,
            backURL: (id.map(SiteURL.workout) ?? .workouts).path, backLabel: workout == nil ? t("Workouts") : workout!.name,
            isNew: workout == nil, form: form, errors: errors,
            sports: WorkoutSport.allCases.map { SelectOption(value: $0.rawValue, label: $0.label, selected: $0.rawValue == form.sport) },
            visibilities: Workout.choices(for: user, today: req.clock.today).map {
                SelectOption(value: $0.rawValue, label: $0.label, selected: $0.rawValue == form.visibility)
            },
            visibilityNote: user.isUnder16(on: req.clock.today) ? Workout.childRule : nil,
            distanceUnit: user.units == .imperial ? "mi" : "km",
            today: LocalTime.parts(of: req.now, zone: user.timeZone).day)
        return try await req.view.render("workouts/form", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    func newPage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let now = LocalTime.parts(of: req.now.addingTimeInterval(-3600), zone: user.timeZone)
        let form = Form(
            sport: WorkoutSport.running.rawValue, day: now.day, time: now.time, minutes: "30",
            visibility: Workout.defaultVisibility(for: user, today: req.clock.today).rawValue)
        return try await render(req, user: user, form: form, errors: [:], workout: nil)
    }

    func create(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        var form = try req.content.decode(Form.self)
        var errors: FieldErrors = [:]
        let sport = WorkoutSport(rawValue: form.sport ?? "")
        if sport == nil { errors["sport"] = t("Choose a sport from the list") }
        let start = LocalTime.instant(day: form.day ?? "", time: form.time ?? "", zone: user.timeZone)
        if start == nil { errors[CalendarDate(iso: form.day ?? "") == nil ? "day" : "time"] = t("Enter a real date and time") }
        let minutes = FormNumber.read(
            form.minutes, in: 1...1440, required: true, field: "minutes",
            message: t("Enter the duration in minutes, from 1 to 1,440"), errors: &errors)
        Self.checkTimes(start: start, minutes: minutes, now: req.now, &errors)
        let format = Format(user)
        let distance = FormNumber.read(
            form.distance, in: 0...1000, field: "distance",
            message: t("Enter a distance from 0 to 1,000 {unit}", format.imperial ? "mi" : "km"), errors: &errors
        )
        .map { $0 * (format.imperial ? Format.metresPerMile : 1000) }
        let heartRate = FormNumber.whole(
            form.heart_rate, in: 25...250, field: "heart_rate",
            message: t("Enter an average heart rate from 25 to 250, in whole beats a minute"), errors: &errors)
        let steps = FormNumber.whole(form.steps, in: 0...200_000, field: "steps", message: t("Enter whole steps from 0 to 200,000"), errors: &errors)
        let calories = FormNumber.whole(
            form.calories, in: 0...20_000, field: "calories",
            message: t("Enter whole kilocalories from 0 to 20,000"), errors: &errors)
        if let sport, let minutes, let distance, errors["distance"] == nil,
            let problem = Format.implausibleSpeed(metres: distance, seconds: minutes * 60, sport: sport, format: format)
        {
            errors["distance"] = problem
        }
        let notes = Self.notes(form.notes, &errors)
        // A form without the field (an older page) gets the default; a forged choice is refused.
        let visibility =
            form.visibility == nil
            ? Workout.defaultVisibility(for: user, today: req.clock.today)
            : Self.visibility(form.visibility, for: user, today: req.clock.today, &errors)
        form.visibility = visibility?.rawValue
        guard errors.isEmpty, let sport, let start, let minutes, let visibility else {
            return try await render(req, user: user, form: form, errors: errors, workout: nil)
        }
        let startMS = Int64(start.timeIntervalSince1970 * 1000), endMS = startMS + Int64(minutes * 60_000)
        // The same sport at an overlapping time is the same workout, as for files.
        if let existing = try await Self.overlapping(userID, sport: sport, from: startMS, to: endMS, on: req.db) {
            errors["time"] = t("You already have “{name}” ({sport}) at that time", existing.name, sport.label.lowercased())
            return try await render(req, user: user, form: form, errors: errors, workout: nil)
        }
        let workout = Workout(
            user: userID, sport: sport, name: Workout.defaultName(sport: sport, start: startMS, timeZone: user.timeZone),
            start: startMS, end: endMS, source: "manual", visibility: visibility)
        workout.notes = notes
        workout.deviceDistance = distance
        workout.deviceCalories = calories
        workout.summariseTyped(for: user, averageHeartRate: heartRate, steps: steps)
        try await workout.create(on: req.db)
        try await WorkoutRecorded.announce(for: user, on: req)
        req.flash(.success, t("Added “{name}”.", workout.name))
        return req.redirect(to: .workout(try workout.requireID()))
    }

    /// A workout added by hand must be over, and from 2000 on.
    private static func checkTimes(start: Date?, minutes: Double?, now: Date, _ errors: inout FieldErrors) {
        if let start, let minutes, start.addingTimeInterval(minutes * 60) > now.addingTimeInterval(300) {
            errors["day"] = t("A workout you add by hand must be over: it cannot end in the future")
        }
        if let start, start < Date(timeIntervalSince1970: Double(Plausible.earliestMilliseconds) / 1000) { errors["day"] = t("Enter a date from 2000 on") }
    }

    /// The person's workout of the sport that overlaps the time, if any.
    private static func overlapping(_ userID: UUID, sport: WorkoutSport, from startMS: Int64, to endMS: Int64, on db: any Database) async throws -> Workout? {
        try await Workout.query(on: db).filter(\.$user.$id == userID).filter(\.$sport == sport.rawValue)
            .filter(\.$startMS < endMS).filter(\.$endMS > startMS).first()
    }

    private func own(_ req: Request) async throws -> (User, Workout) {
        let user = try req.requireUser()
        guard let id = req.parameters.get("id", as: UUID.self),
            let workout = try await Workout.query(on: req.db).filter(\.$id == id).filter(\.$user.$id == user.requireID()).first()
        else {
            throw Abort(.notFound)
        }
        return (user, workout)
    }

    func editPage(req: Request) async throws -> Response {
        let (user, workout) = try await own(req)
        let reach = workout.reach(ownerUnder16: user.isUnder16(on: req.clock.today))
        let form = Form(name: workout.name, sport: workout.sport, notes: workout.notes, visibility: reach.rawValue)
        return try await render(req, user: user, form: form, errors: [:], workout: workout)
    }

    func update(req: Request) async throws -> Response {
        let (user, workout) = try await own(req)
        var form = try req.content.decode(Form.self)
        var errors: FieldErrors = [:]
        let name = AccountRules.collapseWhitespace(form.name ?? "")
        if name.isEmpty { errors["name"] = t("Give the workout a name") } else if name.count > 100 { errors["name"] = t("Keep the name to 100 characters") }
        let sport = WorkoutSport(rawValue: form.sport ?? "")
        if sport == nil { errors["sport"] = t("Choose a sport from the list") }
        let notes = Self.notes(form.notes, &errors)
        let visibility = Self.visibility(form.visibility, for: user, today: req.clock.today, &errors)
        form.name = name
        guard errors.isEmpty, let sport, let visibility else { return try await render(req, user: user, form: form, errors: errors, workout: workout) }
        let sportChanged = workout.sport != sport.rawValue
        workout.name = name
        workout.sport = sport.rawValue
        workout.notes = notes
        workout.visibility = visibility
        // Calories by MET depend on the sport.
        if sportChanged && workout.source != "manual" { try await workout.summarise(for: user, on: req.db) }
        try await workout.save(on: req.db)
        req.flash(.success, t("Saved."))
        return req.redirect(to: .workout(try workout.requireID()))
    }

    /// One of the choices the person has (`Workout.choices`); a missing or forged one is refused beside the field.
    static func visibility(_ raw: String?, for user: User, today: CalendarDate, _ errors: inout FieldErrors) -> Workout.Visibility? {
        guard let chosen = Workout.Visibility(rawValue: raw ?? "") else {
            errors["visibility"] = t("Choose who can see it")
            return nil
        }
        guard Workout.choices(for: user, today: today).contains(chosen) else {
            errors["visibility"] = Workout.childRule
            return nil
        }
        return chosen
    }

    static func notes(_ raw: String?, _ errors: inout FieldErrors) -> String? {
        let text = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > 2000 { errors["notes"] = t("Keep notes to 2,000 characters") }
        return text.isEmpty ? nil : text
    }
}
