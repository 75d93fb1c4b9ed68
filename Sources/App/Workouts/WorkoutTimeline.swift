import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// A person's samples inside a time window, merged into one time line: the single place where a
/// workout's points are read back, for its summary, its streams and its exports.
struct WorkoutTimeline {
    var points: [TrackPoint]
    var steps: Int?
    var hasLocations: Bool
    var hasElevation: Bool
    var hasHeartRate: Bool
    var hasCadence: Bool

    /// Stream names as the API uses them, for what the window holds.
    var streams: [String] {
        var names: [String] = []
        if !points.isEmpty { names.append("time") }
        if hasLocations { names += ["latlng", "distance", "speed"] }
        if hasElevation { names.append("altitude") }
        if hasHeartRate { names.append("heartrate") }
        if hasCadence { names.append("cadence") }
        return names
    }

    /// A time line of points already in hand (a file just stored whole), without reading them back.
    init(points: [TrackPoint], steps: Int?) {
        self.points = points
        self.steps = steps
        hasLocations = false
        hasElevation = false
        hasHeartRate = false
        hasCadence = false
        for point in points {
            if point.latitude != nil { hasLocations = true }
            if point.elevation != nil && point.latitude != nil { hasElevation = true }
            if point.heartRate != nil { hasHeartRate = true }
            if point.cadence != nil { hasCadence = true }
        }
    }

    init(points: [TrackPoint], steps: Int?, hasLocations: Bool, hasElevation: Bool, hasHeartRate: Bool, hasCadence: Bool) {
        self.points = points
        self.steps = steps
        self.hasLocations = hasLocations
        self.hasElevation = hasElevation
        self.hasHeartRate = hasHeartRate
        self.hasCadence = hasCadence
    }

    /// A finished workout's time line as a viewer may see it. The owner sees every sample in the window;
    /// anyone else only this workout's own, without the samples of the owner's other workouts at the same
    /// time (a private walk overlapping a public run stays private).
    static func load(_ workout: Workout, ownerView: Bool, on db: any Database) async throws -> WorkoutTimeline? {
        guard let end = workout.endMS else { return nil }
        let timeline = try await load(user: workout.$user.id, from: workout.startMS, to: end, on: db)
        guard !ownerView else { return timeline }
        let others = try await overlapping(workout, end: end, on: db).all()
        guard !others.isEmpty else { return timeline }
        let windows = others.map { $0.startMS...($0.endMS ?? .max) }
        // Steps are a total over the window and cannot be split between the workouts: left out.
        return WorkoutTimeline(points: timeline.points.filter { point in !windows.contains { $0.contains(point.time) } }, steps: nil)
    }

    /// Whether another of the owner's workouts overlaps this finished one (its samples are then not
    /// all this workout's to show to others).
    static func othersOverlapping(_ workout: Workout, on db: any Database) async throws -> Bool {
        guard let end = workout.endMS else { return false }
        return try await overlapping(workout, end: end, on: db).first() != nil
    }

    private static func overlapping(_ workout: Workout, end: Int64, on db: any Database) throws -> QueryBuilder<Workout> {
        try Workout.query(on: db).filter(\.$user.$id == workout.$user.id).filter(\.$id != workout.requireID())
            .filter(\.$startMS <= end).group(.or) { $0.filter(\.$endMS >= workout.startMS).filter(\.$endMS == nil) }
    }

    /// Steps counted between two times (nil when the person has no step samples there).
    static func steps(user: UUID, from: Int64, to: Int64, on db: any Database) async throws -> Int? {
        struct Total: Decodable { let n: Int64?; let rows: Int }
        let total = try await db.sql.raw(
            """
            SELECT CAST(SUM(count) AS BIGINT) AS n, COUNT(*) AS rows FROM step_samples
            WHERE user_id = \(bind: user) AND t BETWEEN \(bind: from) AND \(bind: to)
            """
        ).first(decoding: Total.self)
        return (total?.rows ?? 0) > 0 ? total?.n.map(Int.init) : nil
    }

    static func load(user: UUID, from: Int64, to: Int64, on db: any Database) async throws -> WorkoutTimeline {
        let sql = db.sql
        let locationRows = try await series(
            sql, "location_samples", ["lat", "lon", "ele", "accuracy", "speed"],
            user: user, from: from, to: to)
        // Whole numbers only when a stored value is one an Int holds: a row is never trusted to be.
        let heart = try await series(sql, "heart_rate_samples", ["bpm"], user: user, from: from, to: to)
            .compactMap { row in row.values[0].flatMap { Int(exactly: $0.rounded()) }.map { (row.t, $0) } }
        let cadence = try await series(sql, "cadence_samples", ["rpm"], user: user, from: from, to: to)
            .compactMap { row in row.values[0].flatMap { Int(exactly: $0.rounded()) }.map { (row.t, $0) } }
        let steps = try await steps(user: user, from: from, to: to, on: db)

        var locations: [TrackPoint] = []
        locations.reserveCapacity(locationRows.count)
        var hasElevation = false
        for row in locationRows {
            let v = row.values
            let point = TrackPoint(time: row.t, latitude: v[0], longitude: v[1], elevation: v[2], speed: v[4], accuracy: v[3])
            if point.elevation != nil { hasElevation = true }
            locations.append(point)
        }

        // Merge three time-ordered lists into one, a point per distinct time.
        var points: [TrackPoint] = []
        points.reserveCapacity(max(locations.count, heart.count, cadence.count))
        var l = 0, h = 0, c = 0
        while l < locations.count || h < heart.count || c < cadence.count {
            let t = min(l < locations.count ? locations[l].time : .max, h < heart.count ? heart[h].0 : .max, c < cadence.count ? cadence[c].0 : .max)
            var point = TrackPoint(time: t)
            if l < locations.count && locations[l].time == t { point = locations[l]; l += 1 }
            if h < heart.count && heart[h].0 == t { point.heartRate = heart[h].1; h += 1 }
            if c < cadence.count && cadence[c].0 == t { point.cadence = cadence[c].1; c += 1 }
            points.append(point)
        }
        return WorkoutTimeline(
            points: points, steps: steps, hasLocations: !locations.isEmpty, hasElevation: hasElevation,
            hasHeartRate: !heart.isEmpty, hasCadence: !cadence.isEmpty)
    }
}

extension WorkoutTimeline {
    /// One table's samples between two times, oldest first, as numbers (nil for NULL).
    static func series(
        _ sql: any SQLDatabase, _ table: String, _ columns: [String],
        user: UUID, from: Int64, to: Int64
    ) async throws -> [(t: Int64, values: [Double?])] {
        try await sql.numberRows(
            """
            SELECT t, \(unsafeRaw: columns.joined(separator: ", ")) FROM \(unsafeRaw: table)
            WHERE user_id = \(bind: user) AND t BETWEEN \(bind: from) AND \(bind: to) ORDER BY t
            """, columns: ["t"] + columns
        ).map { (Int64($0[0] ?? 0), Array($0.dropFirst())) }
    }
}

extension AthleteProfile {
    /// What a person's profile says, for summaries.
    init(_ user: User, today: CalendarDate) {
        self.init(
            age: user.birthDate.flatMap(CalendarDate.init(iso:))?.age(on: today),
            sex: user.gender == .female ? .female : user.gender == .male ? .male : nil,
            weightKg: user.weightKg, maxHeartRate: user.maxHeartRate, restingHeartRate: user.restingHeartRate,
            zoneLimits: user.heartRateZones?.limits)
    }
}

extension Workout {
    /// Recomputes the summary from the samples in the window (and the device's totals).
    func summarise(for user: User, on db: any Database) async throws {
        if source == "manual" {
            summariseTyped(for: user, averageHeartRate: avgHeartRate, steps: steps)
            return
        }
        guard let end = endMS else {
            streams = ""
            return
        }
        let timeline = try await WorkoutTimeline.load(user: $user.id, from: startMS, to: end, on: db)
        summarise(timeline, for: user, zones: try await SavedPrivacyZone.zones(of: $user.id, on: db))
    }

    /// The person as they were on the day of the workout (their age then, not now).
    func athleteProfile(_ user: User) -> AthleteProfile {
        AthleteProfile(user, today: LocalTime.day(of: Date(timeIntervalSince1970: Double(startMS) / 1000), zone: user.timeZone))
    }

    /// The summary of a workout typed in by hand: its duration, distance and average heart rate
    /// stand for the whole time (zones, TRIMP and Keytel calories then come from that average).
    func summariseTyped(for user: User, averageHeartRate: Int?, steps: Int?) {
        let end = endMS ?? startMS
        let points = averageHeartRate.map { bpm in stride(from: startMS, through: end, by: 10_000).map { TrackPoint(time: $0, heartRate: bpm) } } ?? []
        var summary = WorkoutSummary.compute(
            points: points, start: startMS, end: end, sport: WorkoutSport(rawValue: sport) ?? .other,
            profile: athleteProfile(user), steps: steps, device: DeviceTotals(distance: deviceDistance, calories: deviceCalories))
        summary.moving = summary.elapsed
        summary.avgSpeed = summary.distance.flatMap { summary.elapsed > 0 ? $0 / summary.elapsed : nil }
        summary.minSpeed = nil
        summary.maxSpeed = nil
        apply(summary)
        streams = ""
        share(nil)
    }

    /// The summary of a time line already in hand, and what of it the owner's privacy `zones` leave others.
    func summarise(_ timeline: WorkoutTimeline, for user: User, zones: [PrivacyZone]) {
        summaryVersion = Self.summaryRules
        let end = endMS ?? startMS
        let summary = WorkoutSummary.compute(
            points: timeline.points, segmentStarts: segmentStarts(in: timeline.points), start: startMS, end: end,
            sport: WorkoutSport(rawValue: sport) ?? .other,
            profile: athleteProfile(user), steps: timeline.steps,
            device: DeviceTotals(elapsed: legsElapsed, distance: deviceDistance, calories: deviceCalories), legs: legList)
        apply(summary)
        streams = timeline.streams.joined(separator: ",")
        share(visiblePart(of: timeline, zones: zones, for: user))
    }

    /// A multisport workout's time: its legs' times added up, as its distance is their distances'.
    /// Nil for a workout of one sport, or when a leg's time is missing. The visible part of a
    /// workout (`part`) has no legs, so others are never told the time hidden in a privacy zone.
    var legsElapsed: Double? {
        let legs = legList
        guard legs.count > 1 else { return nil }
        let times = legs.compactMap(\.elapsed)
        return times.count == legs.count ? times.reduce(0, +) : nil
    }

    /// Keeps what others may know of the workout: the visible part's start, time and distance; the
    /// start itself and no numbers when nothing is hidden.
    func share(_ part: Workout?) {
        sharedStartMS = part?.startMS ?? startMS
        sharedDuration = part?.duration
        sharedDistance = part.map { $0.distance ?? 0 }
    }

    /// The workout as someone else may know it when its track passes through the owner's privacy
    /// zones: a copy (never saved) whose window, numbers and stream list come from the visible part
    /// only (`VisibleTimeline`), with no distance across a hidden stretch. Nil when nothing is hidden.
    func visiblePart(of timeline: WorkoutTimeline, zones: [PrivacyZone], for owner: User) -> Workout? {
        let visible = VisibleTimeline(timeline.points, zones: zones)
        return visible.isTrimmed ? part(visible, for: owner) : nil
    }

    /// The copy `visiblePart` makes, from a trimmed time line.
    func part(_ visible: VisibleTimeline, for owner: User) -> Workout {
        let part = Workout(
            user: $user.id, sport: WorkoutSport(rawValue: sport) ?? .other, name: name, start: visible.points.first?.time ?? startMS,
            end: visible.points.last?.time ?? startMS, source: source, visibility: visibility)
        part.id = id
        part.notes = notes
        part.createdAt = createdAt
        part.updatedAt = updatedAt
        let breaks = Set((segmentBreaks ?? "").split(separator: ",").compactMap { Int64($0) }).union(visible.resumes)
        part.segmentBreaks = breaks.isEmpty ? nil : breaks.sorted().map(String.init).joined(separator: ",")
        part.summarise(WorkoutTimeline(points: visible.points, steps: nil), for: owner, zones: [])
        return part
    }

    func apply(_ summary: WorkoutSummary) {
        duration = summary.elapsed
        moving = summary.moving
        distance = summary.distance
        elevationGain = summary.elevationGain
        minSpeed = summary.minSpeed
        avgSpeed = summary.avgSpeed
        maxSpeed = summary.maxSpeed
        minHeartRate = summary.minHeartRate
        avgHeartRate = summary.avgHeartRate
        maxHeartRate = summary.maxHeartRate
        calories = summary.calories
        calorieMethod = summary.calorieMethod?.rawValue
        steps = summary.steps
        trimp = summary.trimp
        zoneMaximum = summary.zoneMaximum
        zones =
            summary.zoneLimits.isEmpty
            ? nil
            : summary.zoneLimits.map(String.init).joined(separator: ",") + ";" + summary.zoneSeconds.map(Format.whole).joined(separator: ",")
        summaryNotes = summary.notes.isEmpty ? nil : summary.notes.joined(separator: "\n")
    }
}
