// fuzz-covers: SeriesJSON PositionSpeeds
// fuzz-seeds: Fuzz/seeds/samples-json
import FieldhouseKit

// The samples API body: parse it, then read each item's time and numbers as `SampleInput` does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSamplesJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? SeriesJSON.parse(bytes) else { return 0 }
    // Locations as they come, unchecked, through the speeds measured between them: any number,
    // time or order must neither trap nor take more than one pass.
    var fixes: [PositionSpeeds.Fix] = []
    for item in document["locations"] ?? [] {
        var fields: [String: Double] = [:]
        for (key, value) in item { if case .number(let number) = value { fields[key] = number } }
        let t = fields["t"].flatMap { $0.isFinite && abs($0) < 9e18 ? Int64($0) : nil } ?? 0
        fixes.append(
            PositionSpeeds.Fix(
                time: t, place: Coordinate(latitude: fields["lat"] ?? .nan, longitude: fields["lon"] ?? .nan), accuracy: fields["accuracy"],
                speed: fields["speed"]))
    }
    _ = PositionSpeeds.speeds(fixes)
    for (_, items) in document {
        for item in items {
            for (_, value) in item {
                switch value {
                case .string(let text): _ = SampleTime.milliseconds(rfc3339: text).map(SampleTime.rfc3339(milliseconds:))
                case .number(let number): _ = Plausible.keep(number, in: Plausible.heartRate)
                default: break
                }
            }
        }
    }
    return 0
}
