import FieldhouseKit
import Foundation
import Testing

/// The Heart Rate Measurement payloads in Tests/Fixtures/heart-rate-measurements.json, read by the
/// server's decoder. The recorder page's decoder reads the same file in the recorder journey
/// (e2e/journeys/recorder.py), so the two keep one set of rules: a change to either that the other
/// does not share fails one of them.
@Suite struct HeartRateFixtureTests {
    struct Case: Decodable {
        var what: String
        var hex: String
        var bpm: Int?
        var contact: String?
        var energy_kj: Int?
        var rr_ms: [Double]?
        var error: String?
        var expected: Int?
        var actual: Int?
    }

    struct Fixture: Decodable {
        var measurements: [Case]
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/heart-rate-measurements.json")
        guard let data = try? Data(contentsOf: url),
            let fixture = try? JSONDecoder().decode(Fixture.self, from: data)
        else { return [] }
        return fixture.measurements
    }()

    /// "0a1B" → [0x0a, 0x1b]; "" → [] (an empty notification is one of the cases).
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
    }

    static func name(_ contact: HeartRateMeasurement.SensorContact) -> String {
        switch contact {
        case .unsupported: "unsupported"
        case .detected: "detected"
        case .notDetected: "not-detected"
        }
    }

    @Test func theFixtureCoversEveryRule() throws {
        let cases = Self.cases
        try #require(cases.count >= 20, "Tests/Fixtures/heart-rate-measurements.json is missing or was cut short")
        let errors = Set(cases.compactMap(\.error))
        #expect(errors == ["empty", "too-short", "stray-byte"])
        #expect(Set(cases.compactMap(\.contact)) == ["unsupported", "detected", "not-detected"])
        let flags = cases.compactMap { Self.bytes($0.hex).first }
        for bit: UInt8 in [0x01, 0x02, 0x04, 0x08, 0x10] {
            #expect(flags.contains { $0 & bit != 0 }, "no payload sets flag bit \(bit)")
        }
        #expect(cases.contains { ($0.rr_ms?.count ?? 0) > 1 } && cases.contains { $0.energy_kj != nil && $0.rr_ms?.isEmpty == false })
    }

    @Test func theServerReadsEveryPayloadAsWritten() {
        #expect(Self.cases.count >= 20, "Tests/Fixtures/heart-rate-measurements.json is missing or was cut short")
        for item in Self.cases {
            let bytes = Self.bytes(item.hex)
            let label = "\(item.hex) (\(item.what))"
            do {
                let m = try HeartRateMeasurement.parse(bytes)
                if let error = item.error {
                    Issue.record("\(label): expected the error \(error), read \(m)")
                    continue
                }
                #expect(m.bpm == item.bpm, "\(label)")
                #expect(Self.name(m.contact) == item.contact, "\(label)")
                #expect(m.energyExpended == item.energy_kj, "\(label)")
                #expect(m.rrIntervals == item.rr_ms, "\(label)")
            } catch let failure as HeartRateMeasurement.Failure {
                switch failure {
                case .empty:
                    #expect(item.error == "empty", "\(label): read as empty")
                case .tooShort(let expected, let actual):
                    #expect(
                        item.error == "too-short" && item.expected == expected && item.actual == actual,
                        "\(label): read as too short, \(actual) bytes where \(expected) are needed")
                case .strayByte:
                    #expect(item.error == "stray-byte", "\(label): read as a stray byte")
                }
            } catch {
                Issue.record("\(label): \(error)")
            }
        }
    }
}
