import Foundation

/// What Fieldhouse reads from a photo's EXIF block before throwing the block away: where and when
/// it was taken, and which way up it is.
public struct ExifInfo: Equatable, Sendable {
    public var coordinate: Coordinate?
    /// Metres above sea level (negative below), when the camera recorded it.
    public var altitude: Double?
    public var capturedAt: CaptureTime?
    /// 1–8 as in TIFF; 1 is upright.
    public var orientation: Int?

    public init(coordinate: Coordinate? = nil, altitude: Double? = nil, capturedAt: CaptureTime? = nil, orientation: Int? = nil) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.capturedAt = capturedAt
        self.orientation = orientation
    }
}

/// A camera's wall-clock capture time. EXIF stores it without a zone unless the camera also wrote
/// OffsetTimeOriginal, so the instant needs a zone to fall back on.
public struct CaptureTime: Equatable, Sendable {
    public var year, month, day, hour, minute, second: Int
    /// Seconds east of UTC, from OffsetTimeOriginal.
    public var utcOffset: Int?

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffset: Int? = nil) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
        self.utcOffset = utcOffset
    }

    /// The instant, using the recorded offset or else `fallbackZone`.
    public func instant(fallbackZone: TimeZone, now: Date = Date()) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utcOffset.flatMap { TimeZone(secondsFromGMT: $0) } ?? fallbackZone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // A camera whose clock was never set says 1970 or 2099: neither is when a photo was taken.
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components),
            Plausible.isTime(Int64(date.timeIntervalSince1970 * 1000), now: now)
        else { return nil }
        return date
    }
}

/// A reader for the TIFF structure inside EXIF blocks: both byte orders, IFD0 and its Exif and GPS
/// sub-IFDs. Every offset is checked against the block, so a hostile file yields nil, never a crash.
public enum Exif {
    /// Reads an EXIF block, with or without its leading "Exif\0\0".
    public static func read(_ block: [UInt8]) -> ExifInfo? {
        var tiff = block[...]
        if tiff.starts(with: exifHeader) { tiff = tiff.dropFirst(exifHeader.count) }
        guard let reader = TIFFReader(Array(tiff)), let ifd0 = reader.ifd(at: reader.firstIFDOffset) else { return nil }

        var info = ExifInfo()
        if let value = ifd0[0x0112].flatMap(reader.integers)?.first, (1...8).contains(value) {
            info.orientation = value
        }
        var exifIFD: [UInt16: TIFFReader.Entry] = [:]
        if let offset = ifd0[0x8769].flatMap(reader.integers)?.first, offset != reader.firstIFDOffset {
            exifIFD = reader.ifd(at: offset) ?? [:]
        }
        let stamp = exifIFD[0x9003] ?? exifIFD[0x9004] ?? ifd0[0x0132]
        if let text = stamp.flatMap(reader.ascii), var time = parseStamp(text) {
            time.utcOffset = (exifIFD[0x9011] ?? exifIFD[0x9010]).flatMap(reader.ascii).flatMap(parseOffset)
            info.capturedAt = time
        }
        if let offset = ifd0[0x8825].flatMap(reader.integers)?.first, offset != reader.firstIFDOffset,
            let gps = reader.ifd(at: offset)
        {
            info.coordinate = coordinate(gps, reader)
            if let metres = gps[0x0006].flatMap(reader.rationals)?.first {
                let below = gps[0x0005].flatMap(reader.integers)?.first == 1
                info.altitude = Plausible.keep(below ? -metres : metres, in: Plausible.elevation)
            }
        }
        return info
    }

    /// The EXIF block of a JPEG from its first bytes (the APP1 segment comes before the image data),
    /// or nil when there is none.
    public static func jpegBlock(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2 else { return nil }
            let payload = index + 4
            let end = min(bytes.count, index + 2 + length)
            if marker == 0xE1, payload <= end, bytes[payload..<end].starts(with: exifHeader) {
                return Array(bytes[payload..<end])
            }
            index += 2 + length
        }
        return nil
    }

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    private static func coordinate(_ gps: [UInt16: TIFFReader.Entry], _ reader: TIFFReader) -> Coordinate? {
        guard let latRef = gps[0x0001].flatMap(reader.ascii)?.uppercased(),
            let lonRef = gps[0x0003].flatMap(reader.ascii)?.uppercased(),
            let lat = gps[0x0002].flatMap(reader.rationals).flatMap(degrees),
            let lon = gps[0x0004].flatMap(reader.rationals).flatMap(degrees),
            ["N", "S"].contains(latRef), ["E", "W"].contains(lonRef)
        else { return nil }
        let point = Coordinate(latitude: latRef == "S" ? -lat : lat, longitude: lonRef == "W" ? -lon : lon)
        // Cameras without a fix sometimes write 0/0 with valid references; that is not a place.
        guard point.isValid, !(point.latitude == 0 && point.longitude == 0) else { return nil }
        return point
    }

    /// Degrees, minutes and seconds (any of which may carry the fraction) to decimal degrees.
    private static func degrees(_ parts: [Double]) -> Double? {
        guard !parts.isEmpty, parts.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let d = parts[0], m = parts.count > 1 ? parts[1] : 0, s = parts.count > 2 ? parts[2] : 0
        guard m < 60, s < 60 else { return nil }
        return d + m / 60 + s / 3600
    }

    /// "2024:05:17 14:03:59".
    static func parseStamp(_ text: String) -> CaptureTime? {
        let digits = text.split(whereSeparator: { $0 == ":" || $0 == " " }).map { Int($0) }
        guard digits.count == 6, let year = digits[0], let month = digits[1], let day = digits[2],
            let hour = digits[3], let minute = digits[4], let second = digits[5],
            (1900...2999).contains(year), (1...12).contains(month), (1...31).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return CaptureTime(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
    }

    /// "+02:00" → 7200.
    static func parseOffset(_ text: String) -> Int? {
        let chars = Array(text.trimmingCharacters(in: .whitespaces))
        guard chars.count == 6, chars[0] == "+" || chars[0] == "-", chars[3] == ":",
            let hours = Int(String(chars[1...2])), let minutes = Int(String(chars[4...5])),
            hours <= 14, minutes < 60
        else { return nil }
        return (chars[0] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}

/// Bounds-checked access to a TIFF structure.
struct TIFFReader {
    struct Entry {
        let type: UInt16
        let count: Int
        /// Where the value's bytes start: inside the entry when they fit in four bytes.
        let valueOffset: Int
    }

    let bytes: [UInt8]
    let bigEndian: Bool
    let firstIFDOffset: Int

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        self.bytes = bytes
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        let order = bigEndian
        func u16(_ i: Int) -> Int { order ? Int(bytes[i]) << 8 | Int(bytes[i + 1]) : Int(bytes[i + 1]) << 8 | Int(bytes[i]) }
        guard u16(2) == 42 else { return nil }
        firstIFDOffset = order ? u16(4) << 16 | u16(6) : u16(6) << 16 | u16(4)
    }

    func u16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(at offset: Int) -> UInt32? {
        guard let high = u16(at: bigEndian ? offset : offset + 2), let low = u16(at: bigEndian ? offset + 2 : offset) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    /// The entries of the IFD at `offset`, by tag.
    func ifd(at offset: Int) -> [UInt16: Entry]? {
        guard let count = u16(at: offset), count > 0, count <= 512 else { return nil }
        var entries: [UInt16: Entry] = [:]
        for index in 0..<Int(count) {
            let start = offset + 2 + index * 12
            guard let tag = u16(at: start), let type = u16(at: start + 2), let n = u32(at: start + 4),
                let size = Self.size(of: type)
            else { continue }
            let length = Int(n) * size
            let valueOffset = length <= 4 ? start + 8 : Int(u32(at: start + 8) ?? UInt32.max)
            guard n > 0, n < 1 << 20, valueOffset + length <= bytes.count else { continue }
            entries[tag] = Entry(type: type, count: Int(n), valueOffset: valueOffset)
        }
        return entries
    }

    static func size(of type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    func integers(_ entry: Entry) -> [Int]? {
        (0..<min(entry.count, 16)).map { i -> Int? in
            switch entry.type {
            case 1, 7: Int(bytes[entry.valueOffset + i])
            case 3: u16(at: entry.valueOffset + i * 2).map(Int.init)
            case 4: u32(at: entry.valueOffset + i * 4).map(Int.init)
            default: nil
            }
        }.reduce(into: [Int]?([])) { result, value in
            if let value { result?.append(value) } else { result = nil }
        }.flatMap { $0.isEmpty ? nil : $0 }
    }

    func rationals(_ entry: Entry) -> [Double]? {
        guard entry.type == 5 || entry.type == 10 else { return nil }
        var values: [Double] = []
        for i in 0..<min(entry.count, 8) {
            guard let n = u32(at: entry.valueOffset + i * 8), let d = u32(at: entry.valueOffset + i * 8 + 4), d != 0 else { return nil }
            values.append(entry.type == 5 ? Double(n) / Double(d) : Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d)))
        }
        return values
    }

    func ascii(_ entry: Entry) -> String? {
        guard entry.type == 2 else { return nil }
        let raw = bytes[entry.valueOffset..<entry.valueOffset + entry.count].prefix { $0 != 0 }
        guard raw.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: raw, as: UTF8.self)
    }
}
