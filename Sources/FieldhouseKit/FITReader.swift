import Foundation
/// Reads Garmin FIT activity files: the file header and CRC, definition and data messages (both
/// byte orders), compressed-timestamp headers, and developer fields (skipped by their declared
/// sizes). From the data it keeps records (time, position in semicircles, altitude, heart rate,
/// cadence, distance, speed), laps and the session's totals.
public enum FITReader {
    /// 1989-12-31T00:00:00Z, where FIT timestamps count from, in Unix seconds.
    public static let epoch: Int64 = 631_065_600
    /// Degrees in one semicircle: positions are 32-bit fractions of a half turn.
    public static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    public static func read(_ bytes: [UInt8], now: Date = Date()) throws -> ActivityRecording {
        try bytes.withUnsafeBufferPointer { try read($0, now: now) }
    }

    /// The FIT checksum (CRC-16 with the reflected 0xA001 polynomial, four bits at a time).
    public static func crc(_ bytes: UnsafeBufferPointer<UInt8>, from: Int = 0, to: Int? = nil, initial: UInt16 = 0) -> UInt16 {
        let table: [UInt16] = [
            0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
            0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
        ]
        var crc = initial
        for index in from..<(to ?? bytes.count) {
            let byte = bytes[index]
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte >> 4)]
        }
        return crc
    }

    private struct FieldDefinition {
        let number: UInt8
        let size: Int
        let baseType: UInt8
    }

    /// One message's field values by field number: a flat table, as a dictionary per message
    /// showed up in profiles of 10,000-record files.
    private struct FieldValues {
        private var slots = [Int64](repeating: .min, count: 256)

        subscript(number: UInt8) -> Int64? {
            get { slots[Int(number)] == .min ? nil : slots[Int(number)] }
            set { slots[Int(number)] = newValue ?? .min }
        }

        mutating func clear(_ fields: [FieldDefinition]) {
            for field in fields { slots[Int(field.number)] = .min }
        }
    }

    private struct Definition {
        let global: UInt16
        let bigEndian: Bool
        let fields: [FieldDefinition]
        let developerBytes: Int
        var size: Int { fields.reduce(0) { $0 + $1.size } + developerBytes }
    }

    /// What a FIT file that is not an activity holds, for the message that refuses it.
    private static func fileTypeText(_ type: Int) -> String {
        switch type {
        case 1: t("it is a FIT device file")
        case 2: t("it is a FIT settings file")
        case 3: t("it is a FIT sport settings file")
        case 5: t("it is a FIT workout plan file")
        case 6: t("it is a FIT course file")
        case 7: t("it is a FIT schedule file")
        case 9: t("it is a FIT weight file")
        case 10: t("it is a FIT totals file")
        case 11: t("it is a FIT goals file")
        case 14: t("it is a FIT blood pressure file")
        case 15, 32: t("it is a FIT monitoring file")
        case 20: t("it is a FIT activity summary file")
        case 28: t("it is a FIT daily monitoring file")
        case 34: t("it is a FIT segment file")
        case 35: t("it is a FIT segment list file")
        default: t("it is a FIT type {number} file", type)
        }
    }

    /// What one file of a chain holds, as far as Fieldhouse reads it.
    private struct Content {
        var fileType: Int?
        var points: [TrackPoint] = []
        var laps: [DeviceTotals] = []
        /// Each session's totals and sport (FIT `sport`), in order: more than one is a multisport recording.
        var sessions: [(totals: DeviceTotals, sport: Int?)] = []
        var sport: Int?
        var dropped = 0
    }

    static func read(_ bytes: UnsafeBufferPointer<UInt8>, now: Date) throws -> ActivityRecording {
        var activity = Content()
        var firstType: Int?
        var sawActivity = false
        var previousType: Int?
        var fileStart = 0
        // A FIT file may be several chained one after the other, each with its own header and CRC:
        // an activity followed by the watch's settings, or by heart rate a strap stored under water.
        // Every file is read; what the activity files hold is kept, and a file without a file_id
        // message continues the one before it.
        repeat {
            let chained = fileStart > 0
            guard bytes.count - fileStart >= 12 else { throw ActivityFileError.truncated(t("the FIT header is cut off")) }
            let headerSize = Int(bytes[fileStart])
            guard headerSize == 12 || headerSize == 14, bytes[fileStart + 8] == 0x2E, bytes[fileStart + 9] == 0x46,
                bytes[fileStart + 10] == 0x49, bytes[fileStart + 11] == 0x54
            else {
                throw ActivityFileError.corrupt(chained ? t("the data after the first FIT file has a damaged header") : t("the FIT header is not valid"))
            }
            guard bytes.count - fileStart >= headerSize else { throw ActivityFileError.truncated(t("the FIT header is cut off")) }
            if headerSize == 14 {
                let stored = UInt16(bytes[fileStart + 12]) | UInt16(bytes[fileStart + 13]) << 8
                // 0 means the writer did not compute one, which the format allows.
                if stored != 0 && stored != crc(bytes, from: fileStart, to: fileStart + 12) {
                    throw ActivityFileError.corrupt(t("the FIT header's checksum does not match"))
                }
            }
            let dataSize = Int(bytes[fileStart + 4]) | Int(bytes[fileStart + 5]) << 8 | Int(bytes[fileStart + 6]) << 16 | Int(bytes[fileStart + 7]) << 24
            let end = fileStart + headerSize + dataSize
            guard bytes.count >= end + 2 else {
                throw ActivityFileError.truncated(t("the FIT file should hold {expected} bytes but has {actual}", end + 2, bytes.count))
            }
            guard crc(bytes, from: fileStart, to: end + 2) == 0 else {
                throw ActivityFileError.corrupt(t("the FIT file's checksum does not match its content"))
            }
            var file = Content()
            try readMessages(
                bytes, from: fileStart + headerSize, to: end, into: &file, alreadyHeld: activity.points.count,
                laps: activity.laps.count + activity.sessions.count)
            let type = file.fileType ?? previousType
            previousType = type
            if firstType == nil { firstType = file.fileType }
            if type == 4 {
                sawActivity = true
                activity.points += file.points
                activity.laps += file.laps
                activity.sessions += file.sessions
                activity.dropped += file.dropped
                if activity.sport == nil { activity.sport = file.sport }
            }
            fileStart = end + 2
        } while fileStart < bytes.count

        guard let firstType else { throw ActivityFileError.corrupt(t("the FIT file has no file_id message")) }
        guard sawActivity else {
            throw ActivityFileError.notActivity(fileTypeText(firstType))
        }
        guard !activity.points.isEmpty else { throw ActivityFileError.noData(t("This FIT activity has no records, so there is nothing to import.")) }
        var recording = ActivityRecording(
            format: .fit, sport: activity.sport.flatMap(WorkoutSport.init(fitSport:)), points: activity.points,
            laps: activity.laps, totals: totals(of: activity.sessions.map(\.totals)))
        if activity.sessions.count > 1 {
            // A multisport recording: one workout with its legs. It is named after its sport only
            // when every leg but the transitions had the same one.
            recording.legs = activity.sessions.map { session in
                ActivityLeg(
                    sport: session.sport.flatMap(WorkoutSport.init(fitSport:)) ?? .other, isTransition: session.sport == 3,
                    start: session.totals.start, elapsed: session.totals.elapsed, distance: session.totals.distance)
            }
            let sports = Set(recording.legs.filter { !$0.isTransition }.map(\.sport))
            recording.sport = sports.count == 1 ? sports.first : nil
        }
        recording.droppedReadings = activity.dropped
        recording.normalise(now: now)
        return recording
    }

    /// The activity's totals: its one session's, or several sessions' added up (each was checked
    /// against `Plausible` first, so the sums cannot overflow).
    private static func totals(of sessions: [DeviceTotals]) -> DeviceTotals {
        guard var total = sessions.first else { return DeviceTotals() }
        func sum<T: AdditiveArithmetic>(_ a: T?, _ b: T?) -> T? { a.map { $0 + (b ?? .zero) } ?? b }
        for session in sessions.dropFirst() {
            total.elapsed = sum(total.elapsed, session.elapsed)
            total.distance = sum(total.distance, session.distance)
            total.calories = sum(total.calories, session.calories)
            total.maximumHeartRate = [total.maximumHeartRate, session.maximumHeartRate].compactMap { $0 }.max()
        }
        // One leg's mean heart rate is not the whole activity's.
        if sessions.count > 1 { total.averageHeartRate = nil }
        return total
    }

    /// Reads the messages of one file of a chain; `alreadyHeld` points and `laps` laps were read
    /// from the files before it, and count towards the limits.
    private static func readMessages(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into content: inout Content, alreadyHeld: Int, laps lapsBefore: Int
    ) throws {
        var definitions: [Int: Definition] = [:]
        var index = start
        var lastTimestamp: UInt32 = 0

        func unsigned(_ at: Int, _ size: Int, _ bigEndian: Bool) -> UInt64 {
            var value: UInt64 = 0
            if bigEndian {
                for i in 0..<size { value = value << 8 | UInt64(bytes[at + i]) }
            } else {
                for i in stride(from: size - 1, through: 0, by: -1) { value = value << 8 | UInt64(bytes[at + i]) }
            }
            return value
        }

        /// A field's value as an integer, nil when it holds the base type's "invalid" marker.
        func integer(_ at: Int, _ field: FieldDefinition, _ bigEndian: Bool) -> Int64? {
            let base = field.baseType & 0x1F
            let width: Int
            switch base {
            case 0, 1, 2, 10, 13: width = 1
            case 3, 4, 11: width = 2
            case 5, 6, 12: width = 4
            case 14, 15, 16: width = 8
            default: return nil // strings and floats: none of the fields read here
            }
            guard field.size == width else { return nil }
            let raw = unsigned(at, width, bigEndian)
            switch base {
            case 0, 2, 13: return raw == 0xFF ? nil : Int64(raw)
            case 1: return raw == 0x7F ? nil : Int64(Int8(truncatingIfNeeded: raw))
            case 3: return raw == 0x7FFF ? nil : Int64(Int16(truncatingIfNeeded: raw))
            case 4: return raw == 0xFFFF ? nil : Int64(raw)
            case 5: return raw == 0x7FFF_FFFF ? nil : Int64(Int32(truncatingIfNeeded: raw))
            case 6: return raw == 0xFFFF_FFFF ? nil : Int64(raw)
            case 10, 11, 12, 16: return raw == 0 ? nil : Int64(truncatingIfNeeded: raw)
            case 14: return raw == 0x7FFF_FFFF_FFFF_FFFF ? nil : Int64(truncatingIfNeeded: raw)
            default: return raw == UInt64.max ? nil : Int64(truncatingIfNeeded: raw)
            }
        }

        /// FIT times are 32-bit seconds; a wider field holding more is not a time.
        func unixMilliseconds(_ fitSeconds: Int64) -> Int64? {
            (0...Int64(UInt32.max)).contains(fitSeconds) ? (fitSeconds + epoch) * 1000 : nil
        }

        var values = FieldValues()

        /// Reads one data message of a kind Fieldhouse uses; others are skipped by their size.
        func message(_ definition: Definition, at start: Int, timestamp compressed: UInt32?) throws {
            // Every message empties the slots it filled, so the table is blank for the next one.
            defer { values.clear(definition.fields) }
            var offset = start
            for field in definition.fields {
                if let value = integer(offset, field, definition.bigEndian) { values[field.number] = value }
                offset += field.size
            }
            if let stamp = values[253], stamp >= 0x1000_0000 { lastTimestamp = UInt32(truncatingIfNeeded: stamp) }
            let time = values[253].map { $0 >= 0x1000_0000 ? $0 : nil } ?? compressed.map { Int64($0) }
            switch definition.global {
            case 0: // file_id
                if let type = values[0], content.fileType == nil { content.fileType = Int(type) }
            case 20: // record
                guard let time, let milliseconds = unixMilliseconds(time) else { return }
                try ActivityFile.refuseMorePoints(than: alreadyHeld + content.points.count)
                var point = TrackPoint(time: milliseconds)
                if let lat = values[0], let lon = values[1] {
                    let latitude = Double(lat) * degreesPerSemicircle, longitude = Double(lon) * degreesPerSemicircle
                    if Coordinate(latitude: latitude, longitude: longitude).isValid {
                        point.latitude = latitude
                        point.longitude = longitude
                    }
                }
                if let altitude = values[78] ?? values[2] { point.elevation = Double(altitude) / 5 - 500 }
                if let hr = values[3], hr > 0 { point.heartRate = Int(hr) }
                if let cadence = values[4] { point.cadence = Int(cadence) }
                if let distance = values[5] { point.distance = Double(distance) / 100 }
                if let speed = values[73] ?? values[6] { point.speed = Double(speed) / 1000 }
                content.points.append(point)
            case 19, 18: // lap, session
                let isSession = definition.global == 18
                var totals = DeviceTotals()
                totals.start = values[2].flatMap(unixMilliseconds)
                totals.elapsed = values[7].map { Double($0) / 1000 }
                totals.distance = values[9].map { Double($0) / 100 }
                totals.calories = values[11].map { Int($0) }
                totals.averageHeartRate = values[isSession ? 16 : 15].map { Int($0) }
                totals.maximumHeartRate = values[isSession ? 17 : 16].map { Int($0) }
                // Checked before adding up, so two sessions' totals can never overflow.
                content.dropped += totals.keepPlausible()
                // Sessions count as laps: a file of tiny sessions cannot fill the memory either.
                try ActivityFile.refuseMoreLaps(than: lapsBefore + content.laps.count + content.sessions.count)
                if isSession {
                    let sport = values[5].map { Int($0) }
                    // The first session's sport names the activity, over a `sport` message before it.
                    if content.sessions.isEmpty, let sport { content.sport = sport }
                    content.sessions.append((totals, sport))
                } else {
                    content.laps.append(totals)
                }
            case 12: // sport
                if content.sport == nil, let value = values[0] { content.sport = Int(value) }
            default:
                break
            }
        }

        while index < end {
            let header = bytes[index]
            index += 1
            if header & 0x80 != 0 {
                // Compressed timestamp header: a data message whose time is 5 bits of offset.
                let local = Int((header >> 5) & 0x03)
                guard let definition = definitions[local] else { throw ActivityFileError.corrupt(t("a data message uses an undefined type")) }
                guard index + definition.size <= end else { throw ActivityFileError.corrupt(t("a message runs past the end of the data")) }
                let offset = UInt32(header & 0x1F)
                // Compressed headers may carry no fields (the header is the time), but still add a point each: the cap holds them.
                var timestamp = (lastTimestamp & ~0x1F) + offset
                // The five bits rolled over; FIT's 32-bit clock wraps too.
                if offset < (lastTimestamp & 0x1F) { timestamp &+= 0x20 }
                lastTimestamp = timestamp
                try message(definition, at: index, timestamp: timestamp)
                index += definition.size
                continue
            }
            let local = Int(header & 0x0F)
            if header & 0x40 != 0 {
                // Definition message.
                guard index + 5 <= end else { throw ActivityFileError.corrupt(t("a definition runs past the end of the data")) }
                let bigEndian = bytes[index + 1] == 1
                let global = UInt16(truncatingIfNeeded: unsigned(index + 2, 2, bigEndian))
                let count = Int(bytes[index + 4])
                index += 5
                guard index + count * 3 <= end else { throw ActivityFileError.corrupt(t("a definition runs past the end of the data")) }
                var fields: [FieldDefinition] = []
                fields.reserveCapacity(count)
                for _ in 0..<count {
                    // A field has at least one byte; a message of nothing would let one header byte make one point.
                    guard bytes[index + 1] > 0 else { throw ActivityFileError.corrupt(t("a definition has a field of size 0")) }
                    fields.append(FieldDefinition(number: bytes[index], size: Int(bytes[index + 1]), baseType: bytes[index + 2]))
                    index += 3
                }
                var developerBytes = 0
                if header & 0x20 != 0 {
                    guard index < end else { throw ActivityFileError.corrupt(t("a definition runs past the end of the data")) }
                    let developerCount = Int(bytes[index])
                    index += 1
                    guard index + developerCount * 3 <= end else { throw ActivityFileError.corrupt(t("a definition runs past the end of the data")) }
                    for _ in 0..<developerCount {
                        developerBytes += Int(bytes[index + 1])
                        index += 3
                    }
                }
                definitions[local] = Definition(global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
            } else {
                guard let definition = definitions[local] else { throw ActivityFileError.corrupt(t("a data message uses an undefined type")) }
                // A message of no bytes carries nothing; a file of them would make one message per byte.
                guard definition.size > 0 else { throw ActivityFileError.corrupt(t("a data message has no content")) }
                guard index + definition.size <= end else { throw ActivityFileError.corrupt(t("a message runs past the end of the data")) }
                try message(definition, at: index, timestamp: nil)
                index += definition.size
            }
        }
    }
}
