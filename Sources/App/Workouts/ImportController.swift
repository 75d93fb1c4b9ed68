import FieldhouseKit
import Fluent
import Vapor

/// `GET|POST /workouts/import`: several GPX, TCX or FIT files (or .gz of them) from the browser at
/// once, each imported on its own, so one broken file does not stop the others.
struct ImportController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let workouts = routes.grouped("workouts")
        workouts.get("import", use: page)
        workouts.on(.POST, "import", body: .stream, use: upload).userInfo[CSRF.checkedByHandler] = true
    }

    struct Result: Encodable {
        let filename: String
        /// created, duplicate, merged, route or error.
        let kind: String
        let title: String
        let detail: String
    }

    struct Page: Encodable {
        let layout: Layout
        let sports: [SportOption]
        let maxMB: Int
        let results: [Result]
        let error: String?
        let summary: String?
    }

    struct SportOption: Encodable {
        let value: String
        let label: String
    }

    private func render(_ req: Request, results: [Result] = [], error: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let imported = results.filter { $0.kind != "error" }.count
        let summary =
            results.isEmpty
            ? nil
            : "\(imported) of \(results.count) file\(results.count == 1 ? "" : "s") imported" + (imported < results.count ? "; see the problems below." : ".")
        let page = Page(
            layout: req.layout(title: "Import workouts", section: .workouts),
            sports: WorkoutSport.allCases.map { SportOption(value: $0.rawValue, label: $0.label) },
            maxMB: req.application.config.maxActivityFileBytes / 1_048_576, results: results, error: error, summary: summary)
        return try await req.view.render("workouts/import", page).encodeResponse(status: status, for: req)
    }

    func page(req: Request) async throws -> Response {
        _ = try req.requireUser()
        return try await render(req)
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
                req, error: "Those files come to more than \(maxBytes / 1_048_576) MB together. Import fewer at a time (or .gz them).",
                status: .payloadTooLarge)
        }
        let chosen = files.filter { !$0.bytes.isEmpty }
        guard !chosen.isEmpty else {
            return try await render(
                req, error: form.emptyFiles.isEmpty ? "Choose one or more files to import." : "The chosen file is empty.",
                status: .unprocessableEntity)
        }
        var sport: WorkoutSport?
        if let raw = form["sport"], !raw.isEmpty {
            guard let known = WorkoutSport(rawValue: raw) else {
                return try await render(req, error: "Choose a sport from the list.", status: .unprocessableEntity)
            }
            sport = known
        }
        let imperial = user.units == .imperial
        var results: [Result] = []
        for file in chosen {
            let name = String(file.filename.prefix(200))
            let options = WorkoutImporter.Options(name: nil, sport: sport, externalID: nil, filename: name, maxExpandedBytes: maxBytes)
            do {
                switch try await WorkoutImporter.importFile(file.take(), options: options, user: user, on: req.db, now: req.now) {
                case .created(let workout):
                    req.application.metrics.stored("workout_files")
                    results.append(
                        Result(filename: name, kind: "created", title: "Imported “\(workout.name)”", detail: Self.describe(workout, imperial: imperial)))
                case .duplicate(let workout, let reason):
                    let why =
                        reason == "file"
                        ? "this file was imported before" : reason == "overlap" ? "a \(workout.sport) workout already covers this time" : "it was sent before"
                    results.append(Result(filename: name, kind: "duplicate", title: "Already there as “\(workout.name)”", detail: "Nothing new: \(why)."))
                case .merged(let workout, let streams):
                    results.append(
                        Result(
                            filename: name, kind: "merged", title: "Added to “\(workout.name)”",
                            detail: "It brought \(streams.map(Self.label).joined(separator: " and ")) the workout did not have."))
                case .route(let route, let duplicate):
                    results.append(
                        Result(
                            filename: name, kind: "route", title: duplicate ? "Route “\(route.name)” is already saved" : "Saved the route “\(route.name)”",
                            detail:
                                "A planned route without times (\(Format.distance(route.distance, imperial: imperial))), kept for planning rather than as a workout."
                        ))
                }
            } catch let error as APIError {
                results.append(Result(filename: name, kind: "error", title: "Not imported", detail: error.reason))
            } catch let error as ActivityFileError {
                results.append(Result(filename: name, kind: "error", title: "Not imported", detail: error.description))
            }
        }
        try await WorkoutRecorded.announce(for: user, now: req.now, on: req.db)
        return try await render(req, results: results)
    }

    static func label(_ stream: String) -> String {
        switch stream {
        case "latlng": "the route"
        case "heartrate": "heart rate"
        default: stream
        }
    }

    static func describe(_ workout: Workout, imperial: Bool) -> String {
        var parts: [String] = [workout.sport.capitalized, SampleTime.rfc3339(milliseconds: workout.startMS).prefix(10).description]
        let minutes = Int((workout.duration / 60).rounded())
        parts.append(minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min")
        if let distance = workout.distance { parts.append(Format.distance(distance, imperial: imperial)) }
        if let hr = workout.avgHeartRate { parts.append("average heart rate \(hr) bpm") }
        return parts.joined(separator: " · ")
    }
}
