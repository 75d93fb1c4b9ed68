import FieldhouseKit
import Fluent
import Vapor

/// `POST /api/v1/workouts` (start, finish or create), `POST /api/v1/workouts/{id}/finish`,
/// `GET /api/v1/workouts?since=`, `GET /api/v1/workouts/{id}` and its `streams`. A device sees
/// only its own person's workouts; anyone else's id answers 404, as if it did not exist.
struct WorkoutAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped(DeviceAuthMiddleware())
        api.post(IngestPath.apiWorkouts, use: save)
        api.get(IngestPath.apiWorkouts, use: list)
        api.get(IngestPath.apiWorkout, use: show)
        api.on(.DELETE, IngestPath.apiWorkout, use: delete)
        api.post(IngestPath.apiFinishWorkout, use: finish)
        api.get(IngestPath.apiWorkoutStreams, use: streams)
    }

    struct SaveInput: Decodable {
        @NotNull var external_id: String?
        @NotNull var sport: String?
        @NotNull var start: SampleTimeValue?
        @NotNull var end: SampleTimeValue?
        @NotNull var name: String?
    }

    func save(req: Request) async throws -> Response {
        let user = try req.auth.require(User.self)
        let userID = try user.requireID()
        let input = try APIJSON.decode(SaveInput.self, from: req)
        let now = req.now
        let nowMS = Int64(now.timeIntervalSince1970 * 1000)
        // Every field is checked before the external id is looked up, so a retry is refused exactly
        // as the first request was, whatever happened in between.
        let externalID = try WorkoutFields.externalID(input.external_id)
        let sport = try input.sport.map(WorkoutFields.sport)
        let start = try input.start.map { try WorkoutFields.time($0, "start", now: now) }
        let end = try input.end.map { try WorkoutFields.time($0, "end", now: now) }
        if let start, let end { try WorkoutFields.checkWindow(start: start, end: end) }
        let name = try WorkoutFields.name(input.name)
        // Without a sport the request can only finish a workout a device started: it needs the id and the end.
        guard sport != nil || (externalID != nil && end != nil) else {
            throw APIError(
                status: .badRequest, code: "invalid_json",
                reason: t("sport is missing. One of: {sports}.", WorkoutSport.allCases.map(\.rawValue).joined(separator: ", "))
            )
        }

        if let externalID, let existing = try await Workout.query(on: req.db).filter(\.$user.$id == userID).filter(\.$externalID == externalID).first() {
            // The same workout again: a retry, or the finish of one that was started.
            if existing.endMS == nil, let end { try await Self.finish(existing, at: end, user: user, req: req) }
            return try await WorkoutAnswer(workout: WorkoutJSON(existing)).encodeResponse(status: .ok, for: req)
        }

        guard let sport else {
            throw APIError(
                status: .notFound, code: "not_found",
                reason: t("No workout has this external_id, so there is nothing to finish. Send sport to start one."))
        }
        let startMS = start ?? nowMS
        if let end { try WorkoutFields.checkWindow(start: startMS, end: end) }
        let workoutName = name ?? Workout.defaultName(sport: sport, start: startMS, timeZone: user.timeZone)
        let workout = Workout(
            user: userID, sport: sport, name: workoutName, start: startMS, end: end, source: "device",
            visibility: Workout.defaultVisibility(for: user, today: req.clock.today))
        workout.externalID = externalID
        do {
            try await req.db.inTransaction { db in
                try await workout.create(on: db)
                if end != nil {
                    try await workout.summarise(for: user, on: db)
                    try await workout.save(on: db)
                }
            }
        } catch {
            // Two requests with one external id at once: the second finds the first's workout.
            if let externalID, let existing = try await Workout.query(on: req.db).filter(\.$user.$id == userID).filter(\.$externalID == externalID).first() {
                return try await WorkoutAnswer(workout: WorkoutJSON(existing)).encodeResponse(status: .ok, for: req)
            }
            throw error
        }
        if end != nil { try await WorkoutRecorded.announce(for: user, on: req) }
        return try await WorkoutAnswer(workout: WorkoutJSON(workout)).encodeResponse(status: .created, for: req)
    }

    /// Ends a workout a device started: its numbers from the samples, and those watching it told.
    private static func finish(_ workout: Workout, at end: Int64, user: User, req: Request) async throws {
        try WorkoutFields.checkWindow(start: workout.startMS, end: end)
        workout.endMS = end
        try await workout.summarise(for: user, on: req.db)
        try await workout.save(on: req.db)
        try await WorkoutRecorded.announce(for: user, on: req)
        try await req.application.liveBus.publish(LiveTopic.workout(workout.requireID()), on: req.db)
    }

    struct FinishInput: Decodable {
        @NotNull var end: SampleTimeValue?
    }

    func finish(req: Request) async throws -> WorkoutAnswer {
        let user = try req.auth.require(User.self)
        let workout = try await WorkoutFields.own(req)
        let input = req.body.data.map { $0.readableBytes > 0 } == true ? try APIJSON.decode(FinishInput.self, from: req) : FinishInput(end: nil)
        let now = req.now
        // Checked even when the workout is already finished, so asking twice is answered alike.
        let given = try input.end.map { try WorkoutFields.time($0, "end", now: now) }
        if workout.endMS == nil {
            try await Self.finish(workout, at: given ?? Int64(now.timeIntervalSince1970 * 1000), user: user, req: req)
        }
        return WorkoutAnswer(workout: try WorkoutJSON(workout))
    }

    /// Discarding a recording (or deleting any of the person's workouts): the workout goes with
    /// what was recorded during it, as on its page. A recording still open ends now for that.
    func delete(req: Request) async throws -> Response {
        let workout = try await WorkoutFields.own(req)
        let id = try workout.requireID()
        // A device discards what devices record; a workout typed in or imported from a file is
        // deleted on its page, where the person sees what goes.
        guard workout.source == "device" else {
            throw APIError(
                status: .conflict, code: "not_a_recording", reason: t("Only a workout a device recorded can be discarded here; delete this one on its page."))
        }
        if workout.endMS == nil { workout.endMS = max(workout.startMS, Int64(req.now.timeIntervalSince1970 * 1000)) }
        try await req.db.inTransaction { db in
            try await SampleStore.deleteSamples(of: workout, on: db)
            try await workout.delete(on: db)
        }
        try await req.application.liveBus.publish(LiveTopic.workout(id), on: req.db)
        return Response(status: .noContent)
    }

    struct ListAnswer: Content {
        let workouts: [WorkoutJSON]
        /// Pass as `since` for the next page; null on the last one.
        let next_since: String?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(workouts, forKey: .workouts)
            try c.encode(next_since, forKey: .next_since) // null, not missing, on the last page
        }
    }

    func list(req: Request) async throws -> ListAnswer {
        let user = try req.auth.require(User.self)
        let query = APIQuery(req)
        var since: Int64 = 0
        if let raw = try query.value("since") {
            // Epoch milliseconds are digits only, as the document's pattern says.
            let digits = !raw.isEmpty && raw.count <= 15 && raw.utf8.allSatisfy { (48...57).contains($0) }
            guard let value = digits ? Int64(raw) : SampleTime.milliseconds(rfc3339: raw) else {
                let message = t("since must be an RFC 3339 time or epoch milliseconds.")
                throw APIError(status: .badRequest, code: "invalid_query", reason: message, fields: ["since": message])
            }
            since = value
        }
        let limit = try query.integer("limit", in: 1...200, otherwise: t("limit must be between 1 and 200.")) ?? 50
        let rows = try await Workout.query(on: req.db).filter(\.$user.$id == user.requireID()).filter(\.$startMS >= since)
            .sort(\.$startMS).sort(\.$id).limit(limit + 1).all()
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { SampleTime.rfc3339(milliseconds: $0.startMS + 1) } : nil
        return ListAnswer(workouts: try page.map(WorkoutJSON.init), next_since: next)
    }

    func show(req: Request) async throws -> WorkoutAnswer {
        WorkoutAnswer(workout: try WorkoutJSON(try await WorkoutFields.own(req)))
    }

    func streams(req: Request) async throws -> WorkoutStreams {
        let workout = try await WorkoutFields.own(req)
        let query = APIQuery(req)
        var keys = Set(WorkoutStreams.keys)
        if let raw = try query.value("keys") {
            // A comma-separated list as the document's `style: form, explode: false` array: no
            // empty entries, no spaces.
            let asked = raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let unknown = asked.filter { !WorkoutStreams.keys.contains($0) }
            guard unknown.isEmpty else {
                throw APIError(
                    status: .badRequest, code: "invalid_query",
                    reason: unknown.first { !$0.isEmpty }.map { t("Unknown stream “{stream}”. Keys: {keys}.", $0, WorkoutStreams.keys.joined(separator: ", ")) }
                        ?? t("Unknown stream list. Keys: {keys}.", WorkoutStreams.keys.joined(separator: ", ")))
            }
            keys = Set(asked)
        }
        let resolutionName = try query.value("resolution") ?? "full"
        guard let resolution = WorkoutStreams.Resolution(rawValue: resolutionName) else {
            throw APIError(status: .badRequest, code: "invalid_query", reason: t("resolution must be low, medium, high or full."))
        }
        guard let end = workout.endMS else {
            throw APIError(status: .conflict, code: "still_recording", reason: t("This workout is still recording; finish it first."))
        }
        let timeline = try await WorkoutTimeline.load(user: workout.$user.id, from: workout.startMS, to: end, on: req.db)
        return WorkoutStreams(timeline: timeline, workout: workout, keys: keys, resolution: resolution)
    }
}
