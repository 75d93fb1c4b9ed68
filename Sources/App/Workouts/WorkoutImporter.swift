import Crypto
import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Turns an uploaded GPX, TCX or FIT file into a workout, synchronously, without ever making two
/// of one run: the same `external_id`, the same file, or the same sport overlapping an existing
/// workout is a duplicate. A second source only adds streams the workout lacks (a strap's heart
/// rate onto a phone's GPS run), so two sources never interleave within one stream.
enum WorkoutImporter {
    struct Options {
        var name: String?
        var sport: WorkoutSport?
        var externalID: String?
        var filename: String
        /// How far a .gz may expand: the server's activity-file limit for uploads.
        var maxExpandedBytes = ActivityFile.maxExpandedBytes
        /// Who sees a new workout; nil: as the person's new workouts default to.
        var visibility: Workout.Visibility? = nil
    }

    /// What a file became. The edges say it in their own words: the device API as a status and
    /// JSON (`Ingest/UploadController`), the import page as a line per file.
    enum Outcome {
        case created(Workout)
        case duplicate(Workout, reason: DuplicateReason)
        case merged(Workout, streams: [Stream])
        case route(Route, duplicate: Bool)

        /// Whether a workout was added or gained samples, so what follows a recorded workout
        /// (`WorkoutRecorded`) should run: a file already there or a planned route records nothing.
        var recordedWorkout: Bool {
            switch self {
            case .created, .merged: true
            case .duplicate, .route: false
            }
        }
    }

    /// How a file was known to be there already; the raw values are the API's `duplicate_reason`.
    enum DuplicateReason: String {
        /// A workout with the upload's `external_id`.
        case externalID = "external_id"
        /// The same bytes were imported before.
        case file
        /// A workout of the same sport covers the time, and the file adds no stream it lacks.
        case overlap
    }

    /// The streams a file can add to a workout; the raw values are the API's `merged` names.
    enum Stream: String, CaseIterable {
        case latlng, heartrate, cadence

        /// The table that holds the stream's samples.
        var table: String {
            switch self {
            case .latlng: "location_samples"
            case .heartrate: "heart_rate_samples"
            case .cadence: "cadence_samples"
            }
        }
    }

    /// Takes the file's bytes and lets go of them once read, so a long file is in memory once.
    /// `writers` queues the transaction behind other big writes on SQLite (see `SQLiteWriters`).
    static func importFile(
        _ bytes: consuming [UInt8], options: Options, user: User, on db: any Database, now: Date, writers: SQLiteWriters? = nil
    ) async throws -> Outcome {
        let userID = try user.requireID()
        let hash = Format.hex(SHA256.hash(data: bytes))
        if let known = try await knownDuplicate(hash: hash, externalID: options.externalID, user: userID, on: db) { return known }

        let content: ActivityFileContent
        do { content = try ActivityFile.read(bytes, expandedLimit: options.maxExpandedBytes, now: now) } catch let error as ActivityFileError {
            throw WorkoutImportError(error)
        }
        _ = consume bytes

        switch content {
        case .route(let planned):
            return try await saveRoute(planned, hash: hash, options: options, user: userID, on: db)
        case .activity(let recording):
            guard let start = recording.start, let end = recording.end, end > start else {
                throw WorkoutImportError.empty(t("The file has a single moment of data; there is no workout in it."))
            }
            let earliest = Plausible.earliestMilliseconds, latest = Plausible.latestMilliseconds(now: now)
            guard start >= earliest, end <= latest else {
                throw WorkoutImportError.implausibleTimes(start: start, end: end, .outOfRange)
            }
            guard Double(end - start) / 1000 <= Plausible.durationPerWorkout.upperBound else {
                throw WorkoutImportError.implausibleTimes(start: start, end: end, .tooLong)
            }
            do {
                let transaction = {
                    try await db.inTransaction { db in
                        try await save(recording, start: start, end: end, hash: hash, options: options, user: user, today: LocalTime.utcDay(of: now), on: db)
                    }
                }
                guard let writers else { return try await transaction() }
                return try await writers.write(on: db, transaction)
            } catch {
                // Two uploads of one file at once: the loser's unique key fails; answer as the retry it is.
                if let known = try await knownDuplicate(hash: hash, externalID: options.externalID, user: userID, on: db) { return known }
                throw error
            }
        }
    }

    private static func knownDuplicate(hash: String, externalID: String?, user: UUID, on db: any Database) async throws -> Outcome? {
        if let externalID, let existing = try await Workout.query(on: db).filter(\.$user.$id == user).filter(\.$externalID == externalID).first() {
            return .duplicate(existing, reason: .externalID)
        }
        if let file = try await WorkoutFile.query(on: db).filter(\.$user.$id == user).filter(\.$sha256 == hash).with(\.$workout).first() {
            return .duplicate(file.workout, reason: .file)
        }
        if let route = try await Route.query(on: db).filter(\.$user.$id == user).filter(\.$sha256 == hash).first() {
            return .route(route, duplicate: true)
        }
        return nil
    }

    /// Stores a recording already read (a file, or demo data) inside the caller's transaction.
    static func save(
        _ recording: ActivityRecording, start: Int64, end: Int64, hash: String, options: Options,
        user: User, today: CalendarDate, on db: any Database
    ) async throws -> Outcome {
        let userID = try user.requireID()
        let sql = db.sql
        let sport = options.sport ?? recording.sport ?? .other
        let offered = Set(streams(of: recording))

        let overlapping = try await Workout.query(on: db)
            .filter(\.$user.$id == userID).filter(\.$sport == sport.rawValue)
            .filter(\.$startMS <= end)
            .group(.or) { $0.filter(\.$endMS >= start).filter(\.$endMS == nil) }
            .sort(\.$startMS).first()

        if let existing = overlapping {
            let present = try await presentStreams(user: userID, from: existing.startMS, to: existing.endMS ?? end, on: sql)
            let adds = Stream.allCases.filter { offered.contains($0) && !present.contains($0) }
            try await WorkoutFile(
                user: userID, workout: existing.requireID(), sha256: hash, format: recording.format.rawValue,
                filename: options.filename, bytes: 0
            ).create(on: db)
            guard !adds.isEmpty else { return .duplicate(existing, reason: .overlap) }
            let window = existing.startMS...(existing.endMS ?? end)
            _ = try await SampleStore.write(batch(recording, streams: Set(adds), within: window), for: userID, on: sql)
            if existing.endMS != nil {
                try await existing.summarise(for: user, on: db)
                try await existing.save(on: db)
            }
            return .merged(existing, streams: adds)
        }

        // A new workout. Samples the person already has in the window (an all-day strap) stay, and
        // the file's samples of that stream are left out rather than interleaved with them.
        let present = try await presentStreams(user: userID, from: start, to: end, on: sql)
        let named = (options.name ?? recording.name).map { String(AccountRules.collapseWhitespace($0).prefix(100)) }.flatMap { $0.isEmpty ? nil : $0 }
        let workout = Workout(
            user: userID, sport: sport, name: named ?? Workout.defaultName(sport: sport, start: start, timeZone: user.timeZone),
            start: start, end: end, source: recording.format.rawValue, visibility: options.visibility ?? Workout.defaultVisibility(for: user, today: today))
        workout.importNotes = recording.notes.isEmpty ? nil : recording.notes.joined(separator: "\n")
        workout.externalID = options.externalID
        workout.deviceDistance = recording.deviceDistance
        workout.legList = recording.legs
        workout.deviceCalories = recording.totals.calories
        let breaks = recording.segmentStarts.filter { $0 > 0 && $0 < recording.points.count }.map { recording.points[$0].time }.sorted()
        workout.segmentBreaks = breaks.isEmpty ? nil : breaks.map(String.init).joined(separator: ",")
        _ = try await SampleStore.write(batch(recording, streams: offered.subtracting(present), within: start...end), for: userID, on: sql)
        var inHand: WorkoutTimeline?
        if present.isEmpty {
            // What was stored is exactly the file's points (heart rates out of range left out): no need to read it back.
            var points = recording.points
            for index in points.indices where points[index].heartRate.map({ !(25...250).contains($0) }) ?? false { points[index].heartRate = nil }
            let steps = try await WorkoutTimeline.steps(user: userID, from: start, to: end, on: db)
            inHand = WorkoutTimeline(points: points, steps: steps)
            workout.summarise(inHand!, for: user, zones: try await SavedPrivacyZone.zones(of: userID, on: db))
        } else {
            try await workout.summarise(for: user, on: db)
        }
        try await workout.create(on: db)
        // The page's charts and map from the same points, so its first view reads no samples.
        if let inHand { try await WorkoutSeries(workout: workout, timeline: inHand).store(for: workout, on: db) }
        try await WorkoutFile(
            user: userID, workout: workout.requireID(), sha256: hash, format: recording.format.rawValue,
            filename: options.filename, bytes: 0
        ).create(on: db)
        return .created(workout)
    }

    static func streams(of recording: ActivityRecording) -> [Stream] {
        var names: [Stream] = []
        if recording.points.contains(where: { $0.coordinate != nil }) { names.append(.latlng) }
        if recording.points.contains(where: { $0.heartRate != nil }) { names.append(.heartrate) }
        if recording.points.contains(where: { $0.cadence != nil }) { names.append(.cadence) }
        return names
    }

    /// Which mergeable streams the person already has samples for between two times.
    static func presentStreams(user: UUID, from: Int64, to: Int64, on sql: any SQLDatabase) async throws -> Set<Stream> {
        var present = Set<Stream>()
        for stream in Stream.allCases {
            let row = try await sql.raw(
                """
                SELECT 1 AS found FROM \(unsafeRaw: stream.table) WHERE user_id = \(bind: user) AND t BETWEEN \(bind: from) AND \(bind: to) LIMIT 1
                """
            ).first()
            if row != nil { present.insert(stream) }
        }
        return present
    }

    /// The recording's samples of the chosen streams inside a window.
    private static func batch(_ recording: ActivityRecording, streams: Set<Stream>, within window: ClosedRange<Int64>) -> SampleBatch {
        var batch = SampleBatch()
        for point in recording.points where window.contains(point.time) {
            if streams.contains(.latlng), let lat = point.latitude, let lon = point.longitude {
                batch.locations.append(.init(t: point.time, lat: lat, lon: lon, ele: point.elevation, accuracy: nil, speed: point.speed))
            }
            if streams.contains(.heartrate), let bpm = point.heartRate, (25...250).contains(bpm) { batch.heartRate.append((point.time, bpm)) }
            if streams.contains(.cadence), let rpm = point.cadence { batch.cadence.append((point.time, rpm)) }
        }
        return batch
    }

    private static func saveRoute(_ planned: PlannedRoute, hash: String, options: Options, user: UUID, on db: any Database) async throws -> Outcome {
        let base = options.filename.split(separator: ".").first.map(String.init) ?? t("Route")
        let route = Route(
            user: user, name: String((options.name ?? planned.name ?? base).prefix(100)),
            shape: RouteShape(points: planned.points, elevations: planned.elevations, segmentStarts: planned.segmentStarts), sha256: hash)
        try await route.create(on: db)
        return .route(route, duplicate: false)
    }
}
