/// One Bluetooth Heart Rate Measurement notification (characteristic 0x2A37, Heart Rate Service
/// 1.0): a flags byte, then the heart rate as uint8 or uint16, then optionally energy expended
/// (uint16, kJ) and any number of RR intervals (uint16, units of 1/1024 s), all little-endian.
public struct HeartRateMeasurement: Equatable, Sendable {
    public enum SensorContact: Equatable, Sendable {
        /// The strap does not report contact.
        case unsupported
        case detected
        case notDetected
    }

    public var bpm: Int
    public var contact: SensorContact
    /// Kilojoules since the sensor's counter was last reset.
    public var energyExpended: Int?
    /// Beat-to-beat intervals in milliseconds, oldest first.
    public var rrIntervals: [Double]

    public enum Failure: Error, Equatable, Sendable {
        case empty
        /// The flags promise more bytes than the notification has.
        case tooShort(expected: Int, actual: Int)
        /// An odd byte left over where RR intervals come in pairs of bytes.
        case strayByte
    }

    public init(bpm: Int, contact: SensorContact, energyExpended: Int? = nil, rrIntervals: [Double] = []) {
        self.bpm = bpm
        self.contact = contact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
    }

    public static func parse(_ bytes: [UInt8]) throws -> HeartRateMeasurement {
        guard let flags = bytes.first else { throw Failure.empty }
        let wideRate = flags & 0x01 != 0
        let contactSupported = flags & 0x04 != 0
        let hasEnergy = flags & 0x08 != 0
        let hasRR = flags & 0x10 != 0
        let fixed = 1 + (wideRate ? 2 : 1) + (hasEnergy ? 2 : 0)
        guard bytes.count >= fixed else { throw Failure.tooShort(expected: fixed, actual: bytes.count) }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        var index = 1
        let bpm = wideRate ? u16(index) : Int(bytes[index])
        index += wideRate ? 2 : 1
        var energy: Int?
        if hasEnergy {
            energy = u16(index)
            index += 2
        }
        var rr: [Double] = []
        if hasRR {
            guard (bytes.count - index) % 2 == 0 else { throw Failure.strayByte }
            while index + 1 < bytes.count {
                rr.append(Double(u16(index)) * 1000 / 1024)
                index += 2
            }
        } else if index != bytes.count {
            throw Failure.strayByte
        }
        let contact: SensorContact = !contactSupported ? .unsupported : (flags & 0x02 != 0 ? .detected : .notDetected)
        return HeartRateMeasurement(bpm: bpm, contact: contact, energyExpended: energy, rrIntervals: rr)
    }

    /// "10480203", "10 48 02 03" or "0x10,0x48" → bytes; nil for anything else.
    public static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.lowercased().replacingOccurrences(of: "0x", with: "").utf8.filter { $0 != 0x20 && $0 != 0x2C && $0 != 0x3A })
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        // Pairs by index: taking digits off the front of an array one at a time is quadratic.
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}
