import FieldhouseKit
import Fluent
import Vapor

/// `GET|POST /workouts/import`: several GPX, TCX or FIT files (or .gz of them) from the browser at
/// once, each imported on its own, so one broken file does not stop the others.
struct ImportController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.importWorkouts, use: page)
        routes.on(.POST, WorkoutPath.importWorkouts, body: .stream, use: upload).userInfo[CSRF.checkedByHandler] = true
    }

    struct Result: Encodable {
        let filename: String
        /// created, duplicate, merged, route or error.
        let kind: String
        let title: String
        let detail: String
        /// The workout or route the file became or joined; nil for a file that was not imported.
        let url: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let sports: [SelectOption]
        let visibilities: [SelectOption]
        let visibilityNote: String?
        let maxMB: Int
        let results: [Result]
        let error: String?
        let summary: String?
    }

    private func render(
        _ req: Request, user: User, chosen: Workout.Visibility? = nil, results: [Result] = [], error: String? = nil, status: HTTPStatus = .ok
    ) async throws -> Response {
        let today = req.clock.today
        let visibility = chosen ?? Workout.importVisibility(for: user, today: today)
        // A file already there is not "imported": the summary counts new, already there and refused apart.
        let failed = results.filter { $0.kind == "error" }.count
        let known = results.filter { $0.kind == "duplicate" }.count
        let added = results.count - failed - known
        let summary: String? =
            results.isEmpty
            ? nil
            : failed + known == 0
                ? tn("{count} file imported.", "{count} files imported.", added)
                : tn(
                    "{count} file: {added} imported, {known} already there, {failed} not imported.",
                    "{count} files: {added} imported, {known} already there, {failed} not imported.", results.count, added, known, failed)
        let page = Page(
            layout: req.layout(title: t("Import workouts"), section: .workouts),
            sports: WorkoutSport.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
            visibilities: Workout.choices(for: user, today: today).map { SelectOption(value: $0.rawValue, label: $0.label, selected: $0 == visibility) },
            visibilityNote: user.isUnder16(on: today) ? Workout.childRule : nil,
            maxMB: req.application.config.maxActivityFileBytes / 1_048_576, results: results, error: error, summary: summary)
        return try await req.view.render("workouts/import", page).encodeResponse(status: status, for: req)
    }

    func page(req: Request) async throws -> Response {
        try await render(req, user: req.requireUser())
    }

    func upload(req: Request) async throws -> Response {
        let user = try req.requireUser()
        var files: [ActivityFileReceiver] = []
        let maxBytes = req.application.config.maxActivityFileBytes
        let form: StreamedForm
        do {
            form = try await StreamedForm.receive(req, maxBytes: maxBytes) { field, filename in
                guard field == "files", files.count < 50 else { return nil }
                let receiver = ActivityFileReceiver(filename: filename)
                files.append(receiver)
                return receiver
            }
        } catch let abort as any AbortError where abort.status == .payloadTooLarge {
            return try await render(
                req, user: user, error: t("Those files come to more than {megabytes} MB together. Import fewer at a time (or .gz them).", maxBytes / 1_048_576),
                status: .payloadTooLarge)
        }
        let chosen = files.filter { !$0.bytes.isEmpty }
        guard !chosen.isEmpty else {
            return try await render(
                req, user: user, error: form.emptyFiles.isEmpty ? t("Choose one or more files to import.") : t("The chosen file is empty."),
                status: .unprocessableEntity)
        }
        var sport: WorkoutSport?
        if let raw = form["sport"], !raw.isEmpty {
            guard let known = WorkoutSport(rawValue: raw) else {
                return try await render(req, user: user, error: t("Choose a sport from the list."), status: .unprocessableEntity)
            }
            sport = known
        }
        guard let visibility = Workout.Visibility(rawValue: form["visibility"] ?? Workout.importVisibility(for: user, today: req.clock.today).rawValue),
            Workout.choices(for: user, today: req.clock.today).contains(visibility)
        else {
            return try await render(
                req, user: user, error: t("Choose who can see the workouts from the list."), status: .unprocessableEntity)
        }
        var results: [Result] = []
        var recorded = false
        for file in chosen {
            let name = String(file.filename.prefix(200))
            let options = WorkoutImporter.Options(
                name: nil, sport: sport, externalID: nil, filename: name, maxExpandedBytes: maxBytes, visibility: visibility)
            do {
                let outcome = try await WorkoutImporter.importFile(
                    file.take(), options: options, user: user, on: req.db, now: req.now, writers: req.application.sqliteWriters)
                if case .created = outcome { req.application.metrics.stored("workout_files") }
                recorded = recorded || outcome.recordedWorkout
                results.append(Self.result(outcome, filename: name, user: user))
            } catch let error as WorkoutImportError {
                results.append(Result(filename: name, kind: "error", title: t("Not imported"), detail: error.message, url: nil))
            }
        }
        // Once for the whole batch, and not at all when every file was already there.
        if recorded { try await WorkoutRecorded.announce(for: user, on: req) }
        return try await render(req, user: user, chosen: visibility, results: results)
    }

    /// The line under a file's name for what it became.
    private static func result(_ outcome: WorkoutImporter.Outcome, filename name: String, user: User) -> Result {
        switch outcome {
        case .created(let workout):
            return Result(
                filename: name, kind: "created", title: t("Imported “{name}”", workout.name), detail: describe(workout, format: Format(user)),
                url: url(workout))
        case .duplicate(let workout, let reason):
            let why =
                switch reason {
                case .file: t("this file was imported before")
                case .overlap: t("a {sport} workout already covers this time", sportName(workout.sport))
                case .externalID: t("it was sent before")
                }
            return Result(
                filename: name, kind: "duplicate", title: t("Already there as “{name}”", workout.name), detail: t("Nothing new: {reason}.", why),
                url: url(workout))
        case .merged(let workout, let streams):
            return Result(
                filename: name, kind: "merged", title: t("Added to “{name}”", workout.name),
                detail: t("It brought {streams} the workout did not have.", list(streams.map(label))), url: url(workout))
        case .route(let route, let duplicate):
            return Result(
                filename: name, kind: duplicate ? "duplicate" : "route",
                title: duplicate ? t("Route “{name}” is already saved", route.name) : t("Saved the route “{name}”", route.name),
                detail: t(
                    "A planned route without times ({distance}), kept for planning rather than as a workout.",
                    Format.distance(route.distance, imperial: user.units == .imperial)),
                url: route.id.map { SiteURL.route($0).path })
        }
    }

    private static func url(_ workout: Workout) -> String? {
        workout.id.map { SiteURL.workout($0).path }
    }

    static func label(_ stream: WorkoutImporter.Stream) -> String {
        switch stream {
        case .latlng: t("the route")
        case .heartrate: t("heart rate")
        case .cadence: t("cadence")
        }
    }

    /// "the route and heart rate": the names joined as English joins them, with " and " between each.
    static func list(_ names: [String]) -> String {
        guard var text = names.first else { return "" }
        for name in names.dropFirst() { text = t("{list} and {name}", text, name) }
        return text
    }

    /// A stored sport ("running") as the pages name it, in lower case ("running", "corrida").
    static func sportName(_ raw: String) -> String {
        WorkoutSport(rawValue: raw)?.label.lowercased() ?? raw
    }

    static func describe(_ workout: Workout, format: Format) -> String {
        var parts: [String] = [WorkoutSport(rawValue: workout.sport)?.label ?? workout.sport.capitalized, format.when(workout.startMS)]
        parts.append(Format.hoursAndMinutes(Int(exactly: (workout.duration / 60).rounded()) ?? 0))
        if let distance = workout.distance { parts.append(format.distance(distance)) }
        if let hr = workout.avgHeartRate { parts.append(t("average heart rate {bpm} bpm", hr)) }
        return parts.joined(separator: " · ")
    }
}
