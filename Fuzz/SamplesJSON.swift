// fuzz-covers: SeriesJSON
// fuzz-seeds: Fuzz/seeds/samples-json
import FieldhouseKit

// The samples API body: parse it, then read each item's time and numbers as `SampleInput` does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSamplesJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? SeriesJSON.parse(bytes) else { return 0 }
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
