import Foundation

/// The kinds of activity file Fieldhouse reads.
public enum ActivityFormat: String, Sendable, CaseIterable {
    case gpx, tcx, fit
}

/// A recorded activity read from a file: timed points in order, and what the file says about itself.
public struct ActivityRecording: Sendable {
    public var format: ActivityFormat
    public var sport: WorkoutSport?
    public var name: String?
    /// In time order; no two share a time.
    public var points: [TrackPoint]
    /// How many timed points the file held; more than `points` when some shared a time (the first is kept).
    public var recordCount: Int
    /// Indexes where a new track or segment begins: no distance is counted across the gap before them.
    public var segmentStarts: Set<Int>
    /// The device's laps (TCX `Lap`, FIT lap messages), each with its own totals.
    public var laps: [DeviceTotals]
    /// The whole activity's totals as the device wrote them (FIT session, or the TCX laps added up).
    public var totals: DeviceTotals
    /// The legs of a multisport recording (more than one FIT session), in order; empty otherwise.
    /// `totals` adds them up.
    public var legs: [ActivityLeg] = []

    public init(
        format: ActivityFormat, sport: WorkoutSport? = nil, name: String? = nil, points: [TrackPoint],
        segmentStarts: Set<Int> = [], laps: [DeviceTotals] = [], totals: DeviceTotals = DeviceTotals()
    ) {
        self.format = format
        self.sport = sport
        self.name = name
        self.points = points
        self.recordCount = points.count
        self.segmentStarts = segmentStarts
        self.laps = laps
        self.totals = totals
    }

    public var start: Int64? { points.first?.time }
    public var end: Int64? { points.last?.time }

    /// The distance the device measured: its odometer at the last point, or the totals when there
    /// is none or when the recording has legs (each leg's odometer starts again from zero).
    public var deviceDistance: Double? {
        legs.count > 1 ? totals.distance ?? points.last?.distance : points.last?.distance ?? totals.distance
    }
    /// What the reader left out and why, in sentences for the person who uploaded the file. Always in
    /// English: they are stored with the workout, and pages translate them (`WorkoutNotes.display`).
    public var notes: [String] = []
    /// Readings a reader dropped before `normalise` (totals it had to check before adding them up).
    var droppedReadings = 0

    /// Drops readings outside `Plausible` limits (keeping the rest of each point), keeps the first
    /// point of any repeated time, so each time is stored once, and leaves out points out of time
    /// order (`inTimeOrder`). Every reader ends here.
    /// `now` is the reader's caller's time: a point after it (give or take device drift) is not real.
    mutating func normalise(now: Date) {
        var dropped = droppedReadings
        for index in points.indices { dropped += points[index].keepPlausible() }
        for index in laps.indices { dropped += laps[index].keepPlausible() }
        dropped += totals.keepPlausible()
        // A point or two from a clock that reset (1980, 1989, 2099) is left out; when every time is
        // impossible the file is kept whole, so the importer can say which times the device wrote.
        let timed = points.filter { Plausible.isTime($0.time, now: now) }
        if !timed.isEmpty && timed.count < points.count {
            let wrong = points.count - timed.count
            notes.append(
                "\(wrong == 1 ? "One point" : "\(wrong) points") with a time before 2000 or in the future (a device clock that reset) \(wrong == 1 ? "was" : "were") left out."
            )
            var moved = [Int](repeating: -1, count: points.count), next = 0
            for index in points.indices where Plausible.isTime(points[index].time, now: now) { moved[index] = next; next += 1 }
            segmentStarts = Set(segmentStarts.compactMap { $0 < moved.count && moved[$0] >= 0 ? moved[$0] : nil })
            points = timed
        }
        if dropped > 0 {
            notes.append(
                "\(dropped == 1 ? "One reading" : "\(dropped) readings") outside what a body or a device can produce "
                    + "(an elevation above 9,000 m, a heart rate of 0, a speed over 150 km/h …) \(dropped == 1 ? "was" : "were") left out.")
        }
        guard !points.isEmpty else { return }
        var ordered = true
        for i in 1..<points.count where points[i].time <= points[i - 1].time { ordered = false; break }
        guard !ordered else { return }
        guard !timed.isEmpty else {
            // Every time is impossible: the importer refuses the file, naming the earliest and the
            // latest time the device wrote, so they are sorted, not left out.
            sortByTime()
            return
        }
        // A time said twice in a row is one moment written twice: the first is kept, without a note.
        var distinct: [Int] = []
        distinct.reserveCapacity(points.count)
        for index in points.indices where distinct.last.map({ points[$0].time != points[index].time }) ?? true { distinct.append(index) }
        let keep = Self.inTimeOrder(distinct.map { points[$0].time })
        let wrong = distinct.count - keep.count
        if wrong > 0 {
            notes.append(
                wrong == 1
                    ? "One point whose time goes back (out of time order) was left out."
                    : "\(wrong) points whose times go back (out of time order) were left out.")
        }
        // A segment that began on a left-out point begins at the next point kept.
        var kept: [TrackPoint] = []
        var keptStarts: Set<Int> = []
        kept.reserveCapacity(keep.count)
        var next = 0
        var startPending = false
        for (position, index) in distinct.enumerated() {
            if segmentStarts.contains(index) { startPending = true }
            // Points dropped as repeats between two distinct ones may carry a segment start too.
            if position > 0 {
                for between in (distinct[position - 1] + 1)..<index where segmentStarts.contains(between) { startPending = true }
            }
            guard next < keep.count, keep[next] == position else { continue }
            next += 1
            if startPending && !kept.isEmpty { keptStarts.insert(kept.count) }
            startPending = false
            kept.append(points[index])
        }
        points = kept
        segmentStarts = keptStarts
    }

    /// Sorts the points by time, keeping the first of any repeated time.
    private mutating func sortByTime() {
        let starts = segmentStarts
        var indexed = points.enumerated().map { ($0.offset, $0.element) }
        indexed.sort { $0.1.time < $1.1.time || ($0.1.time == $1.1.time && $0.0 < $1.0) }
        var kept: [TrackPoint] = []
        var keptStarts: Set<Int> = []
        kept.reserveCapacity(points.count)
        for (original, point) in indexed where kept.last?.time != point.time {
            if starts.contains(original) { keptStarts.insert(kept.count) }
            kept.append(point)
        }
        points = kept
        segmentStarts = keptStarts
    }

    /// Positions (into `times`) of the longest run of strictly rising times, the earlier point
    /// winning a tie: the points a device wrote in order. A point whose time goes back (a clock
    /// that jumped, a point an editor moved) is left out rather than sorted into place, where it
    /// would draw a leg there and back to somewhere the person was not; so is a point whose time
    /// jumps ahead of all that follow. O(n log n) in time, O(n) in memory.
    static func inTimeOrder(_ times: [Int64]) -> [Int] {
        // The longest falling run read from the end is the longest rising run read from the start;
        // read from the end, a later-read (earlier) point replaces its equal, so earlier points win.
        var tails: [Int] = [] // position of the last point of the best run of each length
        var before = [Int](repeating: -1, count: times.count)
        for position in times.indices.reversed() {
            let time = times[position]
            // The first run whose last time is not above this one: it can end here instead.
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if times[tails[middle]] > time { low = middle + 1 } else { high = middle }
            }
            if low > 0 { before[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var kept: [Int] = []
        kept.reserveCapacity(tails.count)
        var position = tails.last ?? -1
        while position >= 0 {
            kept.append(position)
            position = before[position]
        }
        return kept
    }
}

/// A planned path without times (a GPX `rte`, or a track nobody timed): a routing track, not a workout.
public struct PlannedRoute: Sendable {
    public var name: String?
    public var points: [Coordinate]
    public var elevations: [Double?]
    /// Indexes where a new track, segment or `rte` begins: the pieces of a route that lie apart
    /// (tracks logged on different days, the two banks of a lake) are not joined by a straight line.
    public var segmentStarts: Set<Int>
    /// The length of the pieces, without the gaps between them.
    public var distance: Double

    public init(name: String?, points: [Coordinate], elevations: [Double?], segmentStarts: Set<Int> = []) {
        self.name = name
        self.points = points
        self.elevations = elevations
        self.segmentStarts = segmentStarts.filter { $0 > 0 && $0 < points.count }
        self.distance = Self.length(points, segmentStarts: self.segmentStarts)
    }

    /// Great-circle length of `points`, counting nothing across a segment start.
    public static func length(_ points: [Coordinate], segmentStarts: Set<Int>) -> Double {
        var total = 0.0
        for i in points.indices.dropFirst() where !segmentStarts.contains(i) { total += Geo.distance(points[i - 1], points[i]) }
        return total
    }
}

/// What an activity file turned out to hold.
public enum ActivityFileContent: Sendable {
    case activity(ActivityRecording)
    case route(PlannedRoute)
}

/// Why a file could not be read, in words for the person who uploaded it.
public enum ActivityFileError: Error, Equatable, CustomStringConvertible {
    case unknownType
    case truncated(String)
    case corrupt(String)
    case notActivity(String)
    case noData(String)
    case tooLarge(String)

    public var description: String {
        switch self {
        case .unknownType: t("This is not a GPX, TCX or FIT file (or a .gz of one).")
        case .truncated(let detail): t("The file is incomplete: {detail}. Nothing was imported; export it again and retry.", detail)
        case .corrupt(let detail): t("The file is damaged: {detail}. Nothing was imported.", detail)
        case .notActivity(let detail): t("This is not an activity file: {detail}.", detail)
        case .noData(let detail): detail
        case .tooLarge(let detail): detail
        }
    }

    /// The file types people may upload, for the 415 answer.
    public static var accepted: [String] {
        ["GPX (.gpx)", "TCX (.tcx)", "FIT (.fit)", t("any of them gzip-compressed (.gpx.gz, .tcx.gz, .fit.gz)")]
    }
}

/// Recognises a file by its content, not its name, and reads it.
public enum ActivityFile {
    /// The most a compressed file may expand to: a bigger one is refused rather than filling memory.
    public static let maxExpandedBytes = 256 * 1024 * 1024
    /// The most points a file may hold (a million): a week at one a second, with room to spare. Readers stop at
    /// the next one, so a file made of tiny messages cannot fill the memory.
    public static let maxPoints = 1_000_000

    /// The most laps a file may hold; a lap is a few bytes in a file and more in memory.
    public static let maxLaps = 10_000

    static func refuseMoreLaps(than count: Int) throws {
        guard count < maxLaps else { throw ActivityFileError.tooLarge(t("The file has more than 10,000 laps; split it.")) }
    }

    static func refuseMorePoints(than count: Int) throws {
        guard count < maxPoints else {
            throw ActivityFileError.tooLarge(t("The file has more than a million points; split it or record less often."))
        }
    }

    /// A whole number from a file's text, when it is one an `Int` can hold (readers check ranges after).
    static func whole(_ value: Double?) -> Int? {
        value.flatMap { Int(exactly: $0.rounded()) }
    }

    public static func format(of bytes: [UInt8]) -> ActivityFormat? {
        if bytes.count >= 12, bytes[8] == 0x2E, bytes[9] == 0x46, bytes[10] == 0x49, bytes[11] == 0x54 { return .fit } // ".FIT"
        // XML: look at the first kilobyte for the root element's name.
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self)
        if head.contains("<gpx") { return .gpx }
        if head.contains("<TrainingCenterDatabase") { return .tcx }
        return nil
    }

    /// Reads a file, unpacking one level of gzip to at most `expandedLimit` bytes (the server passes
    /// its configured file limit). A gzip inside a gzip is refused: nobody makes one but to expand
    /// a few kilobytes into gigabytes.
    public static func read(_ bytes: [UInt8], expandedLimit: Int = maxExpandedBytes, now: Date = Date()) throws -> ActivityFileContent {
        guard Gzip.isCompressed(bytes) else { return try readPlain(bytes, now: now) }
        let inner = try Gzip.decompress(bytes, limit: expandedLimit)
        guard !Gzip.isCompressed(inner) else {
            throw ActivityFileError.corrupt(t("the file is compressed twice (a .gz inside a .gz); compress it once"))
        }
        return try readPlain(inner, now: now)
    }

    private static func readPlain(_ bytes: [UInt8], now: Date) throws -> ActivityFileContent {
        switch format(of: bytes) {
        case .fit: return .activity(try FITReader.read(bytes, now: now))
        case .gpx: return try GPXReader.read(bytes, now: now)
        case .tcx: return .activity(try TCXReader.read(bytes, now: now))
        case nil:
            if bytes.count >= 4, bytes[0] == 0x0E || bytes[0] == 0x0C, bytes.count < 12 {
                throw ActivityFileError.truncated(t("the FIT header is cut off"))
            }
            throw ActivityFileError.unknownType
        }
    }

    /// Reads an XML activity file, reporting a cut-off document as truncated and any other
    /// breakage as corrupt.
    static func scanXML<H: XMLHandler>(_ bytes: [UInt8], into handler: inout H) throws {
        do {
            try XMLScanner.scan(bytes, into: &handler)
        } catch let failure as XMLScanner.Failure {
            switch failure {
            case .truncated: throw ActivityFileError.truncated(failure.description)
            default: throw ActivityFileError.corrupt(failure.description)
            }
        }
    }

    /// Numbers in XML text (already trimmed by the scanner) or attributes; nil when it is not one or not finite.
    static func number(_ text: String) -> Double? {
        guard let value = Double(text) ?? Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), value.isFinite else { return nil }
        return value
    }
}
