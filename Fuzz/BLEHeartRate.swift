// fuzz-covers: HeartRateMeasurement
// fuzz-seeds: Fuzz/seeds/ble
import FieldhouseKit
import Foundation

// A Bluetooth Heart Rate Measurement notification: the raw bytes, and the same bytes read as the
// hex and base64 text the BLE endpoint accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBLE(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    for candidate in [bytes, HeartRateMeasurement.bytes(hex: text), Data(base64Encoded: text).map { Array($0) }].compactMap({ $0 }) {
        if let measurement = try? HeartRateMeasurement.parse(candidate) {
            _ = Plausible.keep(Double(measurement.bpm), in: Plausible.heartRate)
            _ = measurement.rrIntervals.map { Plausible.keep($0, in: Plausible.rrInterval) }
        }
    }
    return 0
}
