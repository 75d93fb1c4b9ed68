import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// What a live viewer is sent: the visible track and the figures, as one JSON line per event.
struct LiveFigures: Encodable, Sendable {
    /// `[latitude, longitude, epoch ms]`, oldest first; a fourth element, 1, marks a point that starts
    /// a new piece of line (after a stretch the viewer may not see).
    var points: [[Double]]
    var elapsed_s: Int
    var distance_m: Int
    var hr: Int?
    var zone: Int?
    var ended: Bool
}

/// One version of a live track: the owner's, or everyone else's.
struct LiveTrack: Sendable {
    var points: [[Double]] = []
    var distance: Double = 0
    /// The last point kept, when the next one continues from it (not after a hidden stretch).
    var last: Coordinate?

    mutating func add(_ point: Coordinate, at t: Int64) -> [Double] {
        var row = [Self.rounded(point.latitude), Self.rounded(point.longitude), Double(t)]
        if let last {
            distance += Geo.distance(last, point)
        } else if !points.isEmpty {
            row.append(1)
        }
        last = point
        points.append(row)
        return row
    }

    /// Six decimals: about 10 cm, more than any phone's fix is worth.
    static func rounded(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}

/// A recording's samples read as they arrive: the track as the owner sees it and as everyone else
/// does (without the points inside the owner's privacy zones), and the last heart rate.
struct LiveReader: Sendable {
    /// Points a track keeps: over five hours at one a second. A recording that sends more (or
    /// faster) shows its start; the workout page has all of it once finished.
    static let maxPoints = 20_000
    /// Rows read per query, so a long backlog never arrives in one answer.
    static let batch = 5_000

    let ownerID: UUID
    let startMS: Int64
    let zones: [PrivacyZone]
    let limits: [Int]
    var endMS: Int64?
    private(set) var owner = LiveTrack()
    private(set) var others = LiveTrack()
    private(set) var heartRate: Int?
    /// Whether the last position was inside a privacy zone: others then get no heart rate either,
    /// which would tell them the owner is moving where they may not look.
    private(set) var lastInside = false
    private var lastLocationT: Int64
    private var lastHeartT: Int64

    init(access: LiveAccess, zones: [PrivacyZone]) throws {
        ownerID = try access.owner.requireID()
        startMS = access.workout.startMS
        endMS = access.workout.endMS
        self.zones = zones
        limits = access.owner.heartRateZones?.limits ?? []
        lastLocationT = startMS - 1
        lastHeartT = startMS - 1
    }

    /// The last moment a recording's samples are read from: its end, or 12 hours after its start
    /// for one never finished (what the person records later is not this recording's).
    var until: Int64 { endMS ?? (startMS + Int64(LiveAccess.staleAfter) * 1000) }

    /// Reads the samples stored since the last read; returns the new points of each track.
    @discardableResult
    mutating func read(_ sql: any SQLDatabase) async throws -> (owner: [[Double]], others: [[Double]]) {
        let heart = try await sql.raw(
            """
            SELECT t, bpm FROM heart_rate_samples WHERE user_id = \(bind: ownerID) AND t > \(bind: lastHeartT) AND t <= \(bind: until)
            ORDER BY t DESC LIMIT 1
            """
        ).first()
        // An integer column on PostgreSQL, any number on SQLite.
        if let heart, let t = try? heart.decode(column: "t", as: Int64.self),
            let whole = (try? heart.decode(column: "bpm", as: Int.self))
                ?? (try? heart.decode(column: "bpm", as: Double.self)).flatMap({ Int(exactly: $0.rounded()) })
        {
            lastHeartT = t
            heartRate = whole
        }
        var newOwner: [[Double]] = [], newOthers: [[Double]] = []
        while owner.points.count < Self.maxPoints {
            let rows = try await sql.numberRows(
                """
                SELECT t, lat, lon FROM location_samples WHERE user_id = \(bind: ownerID) AND t > \(bind: lastLocationT) AND t <= \(bind: until)
                ORDER BY t LIMIT \(bind: min(Self.batch, Self.maxPoints - owner.points.count))
                """, columns: ["t", "lat", "lon"])
            for row in rows {
                guard row.count == 3, let time = row[0].flatMap({ Int64(exactly: $0) }) else { continue }
                lastLocationT = max(lastLocationT, time)
                guard let lat = row[1], let lon = row[2] else { continue }
                let point = Coordinate(latitude: lat, longitude: lon)
                newOwner.append(owner.add(point, at: time))
                lastInside = zones.contains(where: { $0.contains(point) })
                if lastInside {
                    others.last = nil
                } else {
                    newOthers.append(others.add(point, at: time))
                }
            }
            if rows.count < Self.batch { break }
        }
        return (newOwner, newOthers)
    }

    /// The figures for one track with the given points, at `now`. For anyone but the owner the
    /// recording starts at its first point they may see, so the time spent inside a privacy zone
    /// before it (how far from home the first visible point is) is not told.
    func figures(ownerView: Bool, points: [[Double]]? = nil, now: Date) -> LiveFigures {
        let track = ownerView ? owner : others
        let nowMS = Int64(now.timeIntervalSince1970 * 1000)
        let end = endMS ?? max(nowMS, lastLocationT, lastHeartT)
        let start = ownerView ? startMS : track.points.first.map { Int64($0[2]) }
        let hidden = !ownerView && (lastInside || start == nil)
        return LiveFigures(
            points: points ?? track.points, elapsed_s: start.map { Int(max(0, end - $0) / 1000) } ?? 0,
            distance_m: Int(track.distance.rounded()), hr: hidden ? nil : heartRate, zone: hidden ? nil : heartRate.flatMap(zone),
            ended: endMS != nil)
    }

    /// When the viewer's track starts: the recording's start for its owner, the first point they
    /// may see for anyone else (nil before there is one).
    func start(ownerView: Bool) -> Int64? {
        ownerView ? startMS : others.points.first.map { Int64($0[2]) }
    }

    /// The zone (1–5) a heart rate is in, by the owner's zones; nil below zone 1 or without zones.
    func zone(_ bpm: Int) -> Int? {
        let reached = limits.filter { $0 > 0 && $0 <= bpm }.count
        return reached == 0 ? nil : reached
    }
}
