import FieldhouseKit
import Vapor

/// A workout as the device API shows it (the "W" shape of DESIGN.md). Every key is always
/// present; values the samples do not allow are `null`, so clients need no existence checks.
struct WorkoutJSON: Content {
    let id: UUID
    let external_id: String?
    let sport: String
    let name: String
    let status: String
    let start: String
    let end: String?
    let duration_s: Double?
    let moving_s: Double?
    let distance_m: Double?
    let elevation_gain_m: Double?
    let min_hr: Int?
    let avg_hr: Int?
    let max_hr: Int?
    let calories_kcal: Double?
    let calorie_method: String?
    let steps: Int?
    let min_speed_mps: Double?
    let avg_speed_mps: Double?
    let max_speed_mps: Double?
    let trimp: Double?
    let streams: [String]
    let notes: [String]

    init(_ workout: Workout) throws {
        id = try workout.requireID()
        external_id = workout.externalID
        sport = workout.sport
        name = workout.name
        let finished = workout.endMS != nil
        status = finished ? "finished" : "recording"
        start = SampleTime.rfc3339(milliseconds: workout.startMS)
        end = workout.endMS.map(SampleTime.rfc3339(milliseconds:))
        func rounded(_ value: Double?, _ places: Double = 10) -> Double? { value.map { ($0 * places).rounded() / places } }
        duration_s = finished ? workout.duration : nil
        moving_s = finished ? workout.moving : nil
        distance_m = rounded(workout.distance, 100)
        elevation_gain_m = rounded(workout.elevationGain)
        min_hr = workout.minHeartRate
        avg_hr = workout.avgHeartRate
        max_hr = workout.maxHeartRate
        calories_kcal = rounded(workout.calories, 1)
        calorie_method = workout.calorieMethod
        steps = workout.steps
        min_speed_mps = rounded(workout.minSpeed, 1000)
        avg_speed_mps = rounded(workout.avgSpeed, 1000)
        max_speed_mps = rounded(workout.maxSpeed, 1000)
        trimp = rounded(workout.trimp)
        streams = workout.streamList
        notes = workout.notesForOwner
    }

    enum CodingKeys: String, CodingKey {
        case id, external_id, sport, name, status, start, end, duration_s, moving_s, distance_m, elevation_gain_m
        case min_hr, avg_hr, max_hr, calories_kcal, calorie_method, steps, min_speed_mps, avg_speed_mps, max_speed_mps
        case trimp, streams, notes
    }

    /// Written by hand so absent values are `null` rather than missing keys.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(external_id, forKey: .external_id)
        try c.encode(sport, forKey: .sport)
        try c.encode(name, forKey: .name)
        try c.encode(status, forKey: .status)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encode(duration_s, forKey: .duration_s)
        try c.encode(moving_s, forKey: .moving_s)
        try c.encode(distance_m, forKey: .distance_m)
        try c.encode(elevation_gain_m, forKey: .elevation_gain_m)
        try c.encode(min_hr, forKey: .min_hr)
        try c.encode(avg_hr, forKey: .avg_hr)
        try c.encode(max_hr, forKey: .max_hr)
        try c.encode(calories_kcal, forKey: .calories_kcal)
        try c.encode(calorie_method, forKey: .calorie_method)
        try c.encode(steps, forKey: .steps)
        try c.encode(min_speed_mps, forKey: .min_speed_mps)
        try c.encode(avg_speed_mps, forKey: .avg_speed_mps)
        try c.encode(max_speed_mps, forKey: .max_speed_mps)
        try c.encode(trimp, forKey: .trimp)
        try c.encode(streams, forKey: .streams)
        try c.encode(notes, forKey: .notes)
    }
}

/// `{"workout": W}`, with `duplicate` or `merged` when the upload found the workout already there.
struct WorkoutAnswer: Content {
    let workout: WorkoutJSON
    var duplicate: Bool? = nil
    var duplicate_reason: String? = nil
    var merged: [String]? = nil
}

/// `{"route": …}` for a planned route (GPX `rte`, or a track without times).
struct RouteAnswer: Content {
    struct RouteJSON: Content {
        let id: UUID
        let name: String
        let distance_m: Double
        let points: Int
    }
    let route: RouteJSON
    var duplicate: Bool? = nil

    init(_ route: Route, duplicate: Bool) throws {
        self.route = RouteJSON(id: try route.requireID(), name: route.name, distance_m: (route.distance * 10).rounded() / 10, points: route.pointCount)
        self.duplicate = duplicate ? true : nil
    }
}
