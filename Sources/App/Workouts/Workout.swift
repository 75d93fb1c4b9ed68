import FieldhouseKit
import Fluent
import Foundation

/// A time window of a person's samples, with the numbers computed from them. The samples stay in
/// the person's own time series; deleting a workout removes the samples inside its window.
final class Workout: Model, @unchecked Sendable {
    static let schema = "workouts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "sport") var sport: String
    @Field(key: "name") var name: String
    /// Epoch milliseconds, like the samples.
    @Field(key: "start_ms") var startMS: Int64
    /// Nil while a device is still recording it.
    @OptionalField(key: "end_ms") var endMS: Int64?
    /// Set by a device or a file; a second workout with the same one is never created.
    @OptionalField(key: "external_id") var externalID: String?
    /// Where it came from: device, gpx, tcx, fit or manual.
    @Field(key: "source") var source: String
    @Enum(key: "visibility") var visibility: Visibility
    @OptionalField(key: "notes") var notes: String?

    // The device's own totals (wheel sensor, watch): kept so a recomputed summary can prefer them.
    @OptionalField(key: "device_distance_m") var deviceDistance: Double?
    @OptionalField(key: "device_calories") var deviceCalories: Int?

    /// Times (epoch ms) where a new track segment begins, comma-separated: the logger was off in
    /// between, so no distance is counted across the gap.
    @OptionalField(key: "segment_breaks") var segmentBreaks: String?

    // The summary (nil where the samples do not allow it).
    @Field(key: "duration_s") var duration: Double
    @Field(key: "moving_s") var moving: Double
    @OptionalField(key: "distance_m") var distance: Double?
    @OptionalField(key: "elevation_gain_m") var elevationGain: Double?
    @OptionalField(key: "min_speed_mps") var minSpeed: Double?
    @OptionalField(key: "avg_speed_mps") var avgSpeed: Double?
    @OptionalField(key: "max_speed_mps") var maxSpeed: Double?
    @OptionalField(key: "min_hr") var minHeartRate: Int?
    @OptionalField(key: "avg_hr") var avgHeartRate: Int?
    @OptionalField(key: "max_hr") var maxHeartRate: Int?
    @OptionalField(key: "calories_kcal") var calories: Double?
    @OptionalField(key: "calorie_method") var calorieMethod: String?
    @OptionalField(key: "steps") var steps: Int?
    @OptionalField(key: "trimp") var trimp: Double?
    @OptionalField(key: "zone_max_hr") var zoneMaximum: Int?
    /// "limit1,…,limit5;seconds1,…,seconds5".
    @OptionalField(key: "zones") var zones: String?
    /// The streams the window holds, comma-separated in the API's names ("latlng,altitude,heartrate").
    @Field(key: "streams") var streams: String
    /// What the summary had to assume, one note per line.
    @OptionalField(key: "summary_notes") var summaryNotes: String?
    @OptionalField(key: "import_notes") var importNotes: String?
    /// The legs of a multisport recording as JSON (`legList`); nil for a workout of one sport.
    @OptionalField(key: "legs") var legs: String?
    /// The rules the summary was worked out by (`summaryRules`); nil for one from before they were counted.
    @OptionalField(key: "summary_version") var summaryVersion: Int?

    /// 2: GPS jumps left out of distance and speeds, points out of time order left out, legs added.
    /// Raise it when a summary rule changes, and `ResummariseJob` works older ones out again.
    static let summaryRules = 2
    /// What others may know of a workout whose track passes through the owner's privacy zones
    /// (`VisibleTimeline`): when the visible part begins (the start when nothing is hidden), its
    /// time and distance (nil when nothing is hidden); lists (the feed, leaderboards, badges) read
    /// these for everyone but the owner, and the feed orders and pages by the start.
    @OptionalField(key: "shared_start_ms") var sharedStartMS: Int64?
    @OptionalField(key: "shared_duration_s") var sharedDuration: Double?
    @OptionalField(key: "shared_distance_m") var sharedDistance: Double?

    /// What the owner is told about how the numbers came about: what the import left out, then
    /// what the summary assumed.
    /// The notes are stored in English (FieldhouseKit writes them); `WorkoutNotes` translates the
    /// ones it knows for display.
    var notesForOwner: [String] {
        [importNotes, summaryNotes].compactMap { $0 }.flatMap { $0.split(separator: "\n").map { WorkoutNotes.display(String($0)) } }
    }
    @Timestamp(key: "created_at", on: .create) var createdAt: Date?
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    enum Visibility: String, Codable, CaseIterable, Sendable {
        case `private`, followers, `public`

        /// Computed: the label is in the language of the request.
        var label: String {
            switch self {
            case .private: t("Only me")
            case .followers: t("People who follow me")
            case .public: t("Everyone signed in and visitors")
            }
        }
    }

    init() {}

    init(user: UUID, sport: WorkoutSport, name: String, start: Int64, end: Int64?, source: String, visibility: Visibility) {
        self.$user.id = user
        self.sport = sport.rawValue
        self.name = name
        self.startMS = start
        self.sharedStartMS = start
        self.endMS = end
        self.source = source
        self.visibility = visibility
        self.duration = 0
        self.moving = 0
        self.streams = ""
    }

    var streamList: [String] { streams.split(separator: ",").map(String.init) }

    /// One stored leg: `{"kind": "swimming"|"transition"|…, "start": ms, "seconds": s, "metres": m}`.
    private struct StoredLeg: Codable {
        let kind: String
        let start: Int64?
        let seconds: Double?
        let metres: Double?
    }

    /// The legs of a multisport recording, in order; empty for a workout of one sport or when what
    /// is stored does not read back.
    var legList: [ActivityLeg] {
        get {
            guard let legs, let stored = try? JSONDecoder().decode([StoredLeg].self, from: Data(legs.utf8)) else { return [] }
            return stored.compactMap { ActivityLeg(kind: $0.kind, start: $0.start, elapsed: $0.seconds, distance: $0.metres) }
        }
        set {
            let stored = newValue.map { StoredLeg(kind: $0.kind, start: $0.start, seconds: $0.elapsed, metres: $0.distance) }
            legs = stored.isEmpty ? nil : (try? JSONEncoder().encode(stored)).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Indexes of `points` that begin a new segment.
    func segmentStarts(in points: [TrackPoint]) -> Set<Int> {
        guard let segmentBreaks else { return [] }
        let times = Set(segmentBreaks.split(separator: ",").compactMap { Int64($0) })
        return Set(points.indices.filter { times.contains(points[$0].time) })
    }

    /// What a person may choose for a workout. People under 16 share workouts with their followers
    /// at most: a route can join any workout later (a file merged in, a device's samples in its
    /// window), so the rule cannot wait for a map to appear.
    static func choices(for user: User, today: CalendarDate) -> [Visibility] {
        user.isUnder16(on: today) ? [.private, .followers] : Visibility.allCases
    }

    /// Why a person under 16 is not offered "everyone".
    static var childRule: String { t("People under 16 share their workouts with their followers at most: a route shows where you run and ride.") }

    /// How far the workout reaches whatever was stored (a choice from before this rule, or from
    /// before a birth date was corrected): a person under 16 reaches followers at most.
    func reach(ownerUnder16: Bool) -> Visibility {
        ownerUnder16 && visibility == .public ? .followers : visibility
    }

    /// The default for a new workout: private for people under 16, otherwise like their profile.
    static func defaultVisibility(for user: User, today: CalendarDate) -> Visibility {
        if user.isUnder16(on: today) { return .private }
        switch user.visibility {
        case .public: return .public
        case .followers: return .followers
        case .private: return .private
        }
    }

    /// The default for files imported in the browser: never wider than followers, since a batch of
    /// old files holds routes from home that nobody looked at one by one.
    static func importVisibility(for user: User, today: CalendarDate) -> Visibility {
        defaultVisibility(for: user, today: today) == .private ? .private : .followers
    }

    /// "Morning run", "Evening ride": what people call an unnamed workout (in the language of the
    /// request that creates it; stored as the workout's name from then on).
    static func defaultName(sport: WorkoutSport, start: Int64, timeZone: String) -> String {
        let clock = LocalTime.parts(of: Date(timeIntervalSince1970: Double(start) / 1000), zone: timeZone).time
        let hour = Int(clock.prefix(2)) ?? 12
        switch hour {
        case 5..<12:
            switch sport {
            case .running: return t("Morning run")
            case .cycling: return t("Morning ride")
            case .walking: return t("Morning walk")
            case .hiking: return t("Morning hike")
            case .swimming: return t("Morning swim")
            case .other: return t("Morning other")
            default: return t("Morning {sport}", sport.label.lowercased())
            }
        case 12..<17:
            switch sport {
            case .running: return t("Afternoon run")
            case .cycling: return t("Afternoon ride")
            case .walking: return t("Afternoon walk")
            case .hiking: return t("Afternoon hike")
            case .swimming: return t("Afternoon swim")
            case .other: return t("Afternoon other")
            default: return t("Afternoon {sport}", sport.label.lowercased())
            }
        case 17..<22:
            switch sport {
            case .running: return t("Evening run")
            case .cycling: return t("Evening ride")
            case .walking: return t("Evening walk")
            case .hiking: return t("Evening hike")
            case .swimming: return t("Evening swim")
            case .other: return t("Evening other")
            default: return t("Evening {sport}", sport.label.lowercased())
            }
        default:
            switch sport {
            case .running: return t("Night run")
            case .cycling: return t("Night ride")
            case .walking: return t("Night walk")
            case .hiking: return t("Night hike")
            case .swimming: return t("Night swim")
            case .other: return t("Night other")
            default: return t("Night {sport}", sport.label.lowercased())
            }
        }
    }
}
