// fuzz-covers: SampleTime Plausible
// fuzz-seeds: Fuzz/seeds/sample-time
import FieldhouseKit
import Foundation

// A time as a device sends it: read it, and when it reads, write it back as the API answers and
// check the round trip, as a request that stores a sample and lists it again would.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSampleTime(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let milliseconds = SampleTime.milliseconds(rfc3339: text) else { return 0 }
    let written = SampleTime.rfc3339(milliseconds: milliseconds)
    guard Plausible.isTime(milliseconds, now: Date()) else { return 0 }
    precondition(SampleTime.milliseconds(rfc3339: written) == milliseconds, "\(text) → \(milliseconds) → \(written) does not read back")
    return 0
}
