import FieldhouseKit
import Foundation
import Vapor

/// A time as devices send it: an RFC 3339 string or epoch milliseconds.
struct SampleTimeValue: Decodable {
    let milliseconds: Int64?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            throw DecodingError.valueNotFound(Self.self, .init(codingPath: decoder.codingPath, debugDescription: "null"))
        }
        if let number = try? container.decode(Double.self) {
            milliseconds = number.isFinite && abs(number) < 1e15 ? Int64(number.rounded()) : nil
        } else {
            milliseconds = SampleTime.milliseconds(rfc3339: try container.decode(String.self))
        }
    }
}

/// One refused item: which series, which element, which field, and why, in words a developer reads.
struct Refusal: Content, Equatable {
    let series: String
    let index: Int
    let field: String
    let reason: String
}

/// The JSON body of `POST /api/v1/samples`. Types are strict (a string where a number belongs is a
/// 400 for the whole request); values are checked one by one, so one bad reading costs only itself.
struct SampleInput: Decodable {
    struct HeartRate: Decodable { let t: SampleTimeValue; let bpm: Double }
    struct RR: Decodable { let t: SampleTimeValue; let ms: Double }
    struct Location: Decodable {
        let t: SampleTimeValue
        let lat: Double
        let lon: Double
        let ele: Double?
        let accuracy: Double?
        let speed: Double?
    }
    struct Steps: Decodable { let t: SampleTimeValue; let count: Double }
    struct Motion: Decodable { let t: SampleTimeValue; let activity: String; let confidence: Double? }

    var heart_rate: [HeartRate]?
    var rr: [RR]?
    var locations: [Location]?
    var steps: [Steps]?
    var motion: [Motion]?

    static let maxSamples = 100_000
    static let activities: Set<String> = ["stationary", "walking", "running", "cycling", "automotive", "unknown"]

    var count: Int {
        (heart_rate?.count ?? 0) + (rr?.count ?? 0) + (locations?.count ?? 0) + (steps?.count ?? 0) + (motion?.count ?? 0)
    }

    /// Checks every item against what a body and a device can produce.
    func validated(now: Date) -> (SampleBatch, [Refusal]) {
        var checker = SampleChecker(now: now)
        var batch = SampleBatch()
        for (i, s) in (heart_rate ?? []).enumerated() {
            if let at = checker.time(s.t, "heart_rate", i), let bpm = checker.range(s.bpm, Plausible.heartRate, "heart_rate", i, "bpm") {
                batch.heartRate.append((at, Int(bpm.rounded())))
            }
        }
        for (i, s) in (rr ?? []).enumerated() {
            if let at = checker.time(s.t, "rr", i), let ms = checker.range(s.ms, Plausible.rrInterval, "rr", i, "ms") {
                batch.rr.append((at, ms))
            }
        }
        for (i, s) in (locations ?? []).enumerated() {
            guard let at = checker.time(s.t, "locations", i),
                let lat = checker.range(s.lat, -90...90, "locations", i, "lat"),
                let lon = checker.range(s.lon, -180...180, "locations", i, "lon"),
                checker.optional(s.ele, Plausible.elevation, "locations", i, "ele"),
                checker.optional(s.accuracy, Plausible.accuracy, "locations", i, "accuracy"),
                checker.optional(s.speed, Plausible.speed, "locations", i, "speed")
            else { continue }
            batch.locations.append(.init(t: at, lat: lat, lon: lon, ele: s.ele, accuracy: s.accuracy, speed: s.speed))
        }
        for (i, s) in (steps ?? []).enumerated() {
            if let at = checker.time(s.t, "steps", i), let count = checker.range(s.count, Plausible.stepsPerSample, "steps", i, "count") {
                batch.steps.append((at, Int(count.rounded())))
            }
        }
        for (i, s) in (motion ?? []).enumerated() {
            guard let at = checker.time(s.t, "motion", i), checker.optional(s.confidence, 0...100, "motion", i, "confidence") else { continue }
            guard Self.activities.contains(s.activity) else {
                checker.refuse("motion", i, "activity", t("must be one of automotive, cycling, running, stationary, unknown, walking"))
                continue
            }
            batch.motion.append((at, s.activity, s.confidence.map { Int($0.rounded()) }))
        }
        return (batch, checker.refused)
    }
}

/// Range checks that record why an item was refused.
struct SampleChecker {
    let earliest = Plausible.earliestMilliseconds
    let latest: Int64
    private(set) var refused: [Refusal] = []

    init(now: Date) {
        latest = Plausible.latestMilliseconds(now: now)
    }

    mutating func refuse(_ series: String, _ index: Int, _ field: String, _ reason: String) {
        // A device sending 86,400 bad samples should get a useful answer, not a 10 MB one.
        if refused.count < 1000 { refused.append(Refusal(series: series, index: index, field: field, reason: reason)) }
    }

    mutating func time(_ value: SampleTimeValue, _ series: String, _ index: Int) -> Int64? {
        guard let milliseconds = value.milliseconds else {
            refuse(series, index, "t", t("must be an RFC 3339 time (2026-11-21T10:00:00Z) or epoch milliseconds"))
            return nil
        }
        guard milliseconds >= earliest else { refuse(series, index, "t", t("must not be before the year 2000")); return nil }
        guard milliseconds <= latest else { refuse(series, index, "t", t("must not be more than 5 minutes in the future")); return nil }
        return milliseconds
    }

    mutating func range(_ value: Double, _ allowed: ClosedRange<Double>, _ series: String, _ index: Int, _ field: String) -> Double? {
        guard value.isFinite, allowed.contains(value) else {
            refuse(series, index, field, t("must be between {minimum} and {maximum}", Self.text(allowed.lowerBound), Self.text(allowed.upperBound)))
            return nil
        }
        return value
    }

    mutating func optional(_ value: Double?, _ allowed: ClosedRange<Double>, _ series: String, _ index: Int, _ field: String) -> Bool {
        guard let value else { return true }
        return range(value, allowed, series, index, field) != nil
    }

    static func text(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension SampleInput {
    /// The form-encoded variant for tiny devices: one reading (`t=…&bpm=72`, likewise `rr`, `steps`,
    /// `lat`+`lon`[+`ele`]) or a series (`start=…&interval=1&bpm=72,73,74`). A value that is not
    /// written as numbers is a 400; a form that cannot be read as readings (no time, several values
    /// without a series, lat and lon apart) a 422; a form with no values an empty batch.
    static let formKeys = ["t", "start", "interval", "bpm", "rr", "steps", "lat", "lon", "ele"]

    init(form: [String: String]) throws {
        func numbers(_ key: String) throws -> [Double]? {
            guard let raw = form[key], !raw.isEmpty else { return nil }
            let values = raw.split(separator: ",", omittingEmptySubsequences: false).map { Self.formNumber($0.trimmingCharacters(in: [" "])) }
            guard values.allSatisfy({ $0 != nil }) else {
                throw APIError(status: .badRequest, code: "invalid_form", reason: t("“{key}” must be a number or numbers separated by commas.", key))
            }
            return values.map { $0! }
        }
        let bpm = try numbers("bpm"), rrs = try numbers("rr"), stepCounts = try numbers("steps")
        let lat = try numbers("lat") ?? [], lon = try numbers("lon") ?? [], ele = try numbers("ele") ?? []
        let intervalText = form["interval"] ?? "1"
        guard let interval = Self.formNumber(intervalText), !intervalText.hasPrefix("-") else {
            throw APIError(status: .badRequest, code: "invalid_form", reason: t("“{key}” must be a number or numbers separated by commas.", "interval"))
        }
        guard interval > 0, interval <= 3600 else {
            throw APIError(status: .unprocessableEntity, code: "invalid_form", reason: t("“interval” must be a number of seconds from 0 to 3600."))
        }
        // Nothing to store is an empty batch, as `{}` is in JSON: not a malformed request.
        guard bpm != nil || rrs != nil || stepCounts != nil || !lat.isEmpty || !lon.isEmpty || !ele.isEmpty else { return }
        let times: (Int) -> SampleTimeValue
        if let start = form["start"] {
            let base = SampleTimeValue.milliseconds(form: start)
            // A start outside the plausible years is refused per item below; the sum never overflows.
            times = { index in
                SampleTimeValue(
                    milliseconds: base.flatMap { start in
                        let step = Int64((Double(index) * interval * 1000).rounded())
                        let (sum, overflow) = start.addingReportingOverflow(step)
                        return overflow ? nil : sum
                    })
            }
        } else if let single = form["t"] {
            let value = SampleTimeValue.milliseconds(form: single)
            times = { _ in SampleTimeValue(milliseconds: value) }
        } else {
            throw APIError(
                status: .unprocessableEntity, code: "invalid_form", reason: t("Send “t” with one reading, or “start” and “interval” with a series."))
        }
        let series = form["start"] != nil
        func check(_ values: [Double]?, _ key: String) throws -> [Double] {
            guard let values, !values.isEmpty else { return [] }
            guard series || values.count == 1 else {
                throw APIError(
                    status: .unprocessableEntity, code: "invalid_form",
                    reason: t("“{key}” has several values; send “start” and “interval” with a series.", key))
            }
            return values
        }
        heart_rate = try check(bpm, "bpm").enumerated().map { HeartRate(t: times($0.offset), bpm: $0.element) }
        rr = try check(rrs, "rr").enumerated().map { RR(t: times($0.offset), ms: $0.element) }
        steps = try check(stepCounts, "steps").enumerated().map { Steps(t: times($0.offset), count: $0.element) }
        _ = try (check(lat, "lat"), check(lon, "lon"), check(ele, "ele"))
        guard lat.count == lon.count, ele.isEmpty || ele.count == lat.count else {
            throw APIError(
                status: .unprocessableEntity, code: "invalid_form", reason: t("“lat” and “lon” (and “ele”, if sent) need the same number of values."))
        }
        locations = lat.indices.map {
            Location(t: times($0), lat: lat[$0], lon: lon[$0], ele: ele.isEmpty ? nil : ele[$0], accuracy: nil, speed: nil)
        }
        motion = nil
    }

    /// A form's number as the document's pattern writes it: digits with an optional minus and
    /// decimal point, nothing else (no exponent, no "inf", no hexadecimal).
    static func formNumber(_ text: String) -> Double? {
        var rest = Substring(text)
        if rest.hasPrefix("-") { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }) else { return nil }
        return Double(text)
    }
}

extension SampleTimeValue {
    init(milliseconds: Int64?) {
        self.milliseconds = milliseconds
    }

    /// A form value: epoch milliseconds or RFC 3339. nil (refused later, per item) when neither.
    static func milliseconds(form text: String) -> Int64? {
        if let number = Int64(text) { return number }
        return SampleTime.milliseconds(rfc3339: text)
    }
}

extension SampleInput {
    /// Reads the JSON body with `SeriesJSON`, with the same strictness and messages as a decoder:
    /// a wrong type anywhere is a 400 naming the place, e.g. "heart_rate[1].bpm must be a number".
    init(json bytes: [UInt8]) throws {
        let document: [String: [SeriesJSON.Item]]
        do { document = try SeriesJSON.parse(bytes) } catch let failure as SeriesJSON.Failure {
            throw APIError(status: .badRequest, code: "invalid_json", reason: failure.message)
        }
        func items<T>(_ key: String, _ make: (ItemReader) throws -> T) throws -> [T]? {
            try document[key].map { list in try list.enumerated().map { try make(ItemReader(series: key, index: $0.offset, item: $0.element)) } }
        }
        heart_rate = try items("heart_rate") { HeartRate(t: try $0.time(), bpm: try $0.number("bpm")) }
        rr = try items("rr") { RR(t: try $0.time(), ms: try $0.number("ms")) }
        locations = try items("locations") {
            Location(
                t: try $0.time(), lat: try $0.number("lat"), lon: try $0.number("lon"), ele: try $0.optionalNumber("ele"),
                accuracy: try $0.optionalNumber("accuracy"), speed: try $0.optionalNumber("speed"))
        }
        steps = try items("steps") { Steps(t: try $0.time(), count: try $0.number("count")) }
        motion = try items("motion") { Motion(t: try $0.time(), activity: try $0.string("activity"), confidence: try $0.optionalNumber("confidence")) }
    }

    /// Typed access to one element of a series.
    struct ItemReader {
        let series: String
        let index: Int
        let item: SeriesJSON.Item

        /// Only built for an error message: thousands of items a request pass without one.
        var path: String { "\(series)[\(index)]" }

        func value(_ key: String) -> SeriesJSON.Value? {
            item.first { $0.key == key }?.value
        }

        func invalid(_ key: String, _ expected: String) -> APIError {
            APIError(status: .badRequest, code: "invalid_json", reason: t("{field} must be {type}.", "\(path).\(key)", expected))
        }

        /// `null` where a value is required: a 422, as `APIJSON` answers it.
        func null(_ key: String) -> APIError {
            APIError(status: .unprocessableEntity, code: "invalid_field", reason: t("{field} must not be null; leave it out instead.", "\(path).\(key)"))
        }

        func number(_ key: String) throws -> Double {
            switch value(key) {
            case .number(let n)?: return n
            case nil: throw APIError(status: .badRequest, code: "invalid_json", reason: t("{field} is missing.", "\(path).\(key)"))
            case .null?:
                throw APIError(
                    status: .unprocessableEntity, code: "invalid_field", reason: t("{field} must be {type}.", "\(path).\(key)", t("a number, not null")))
            default: throw invalid(key, t("a number"))
            }
        }

        func optionalNumber(_ key: String) throws -> Double? {
            switch value(key) {
            case .number(let n)?: return n
            case nil, .null?: return nil
            default: throw invalid(key, t("a number"))
            }
        }

        func string(_ key: String) throws -> String {
            switch value(key) {
            case .string(let s)?: return s
            case nil: throw APIError(status: .badRequest, code: "invalid_json", reason: t("{field} is missing.", "\(path).\(key)"))
            case .null?: throw null(key)
            default: throw invalid(key, t("a string"))
            }
        }

        func time() throws -> SampleTimeValue {
            switch value("t") {
            case .number(let n)?: return SampleTimeValue(milliseconds: n.isFinite && abs(n) < 1e15 ? Int64(n.rounded()) : nil)
            case .string(let s)?: return SampleTimeValue(milliseconds: SampleTime.milliseconds(rfc3339: s))
            case nil: throw APIError(status: .badRequest, code: "invalid_json", reason: t("{field} is missing.", "\(path).t"))
            case .null?: throw null("t")
            default: throw invalid("t", t("an RFC 3339 string or epoch milliseconds"))
            }
        }
    }
}
