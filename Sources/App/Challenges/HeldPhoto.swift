import FieldhouseKit
import Foundation
import Vapor

/// A photo chosen in a challenge or reply form that came back with mistakes (no caption, a deadline
/// in the past), kept for a quarter of an hour under a one-time key so the person fixes the form
/// without choosing, and on a phone uploading, the photo again. The key is put in the form; the
/// record beside the files says whose photo it is, so nobody else can take or see it.
struct HeldPhoto: Codable {
    static let lifetime: TimeInterval = 15 * 60

    let owner: UUID
    let format: String
    let originalFile: String
    let servedFile: String
    let byteCount: Int
    let width: Int?
    let height: Int?
    let orientation: Int?
    let latitude: Double?
    let longitude: Double?
    /// Year, month, day, hour, minute, second, as the camera's clock said.
    let captured: [Int]?
    let utcOffset: Int?
    let converted: Bool
    let expires: Date

    /// Expired holds go within five minutes even when nobody fails a form again.
    static let sweepKind = JobKind("challenges.held-photos", every: 300, transactional: false) { run in
        sweep(now: run.now, config: run.app.config)
    }

    static func folder(_ config: AppConfig) -> String { config.dataDirectory + "/photos/held/" }

    /// Keys are made by `RandomToken`: 43 URL-safe characters, so a key never names another path.
    static func isKey(_ key: String) -> Bool {
        key.utf8.count == 43 && key.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    init(_ received: PhotoReceiver.Received, owner: UUID, expires: Date) {
        self.owner = owner
        format = received.format.rawValue
        originalFile = received.originalFile
        servedFile = received.servedFile
        byteCount = received.byteCount
        width = received.width
        height = received.height
        orientation = received.exif?.orientation
        latitude = received.exif?.coordinate?.latitude
        longitude = received.exif?.coordinate?.longitude
        captured = received.exif?.capturedAt.map { [$0.year, $0.month, $0.day, $0.hour, $0.minute, $0.second] }
        utcOffset = received.exif?.capturedAt?.utcOffset
        converted = received.converted
        self.expires = expires
    }

    var received: PhotoReceiver.Received? {
        guard let format = ImageFormat(rawValue: format) else { return nil }
        var exif = ExifInfo(orientation: orientation)
        if let latitude, let longitude { exif.coordinate = Coordinate(latitude: latitude, longitude: longitude) }
        if let captured, captured.count == 6 {
            exif.capturedAt = CaptureTime(
                year: captured[0], month: captured[1], day: captured[2], hour: captured[3], minute: captured[4], second: captured[5],
                utcOffset: utcOffset)
        }
        return PhotoReceiver.Received(
            format: format, originalFile: originalFile, servedFile: servedFile, byteCount: byteCount, width: width, height: height,
            exif: exif, converted: converted)
    }

    /// Keeps `received` for its owner; returns the key.
    static func hold(_ received: PhotoReceiver.Received, owner: UUID, now: Date, config: AppConfig) throws -> String {
        sweep(now: now, config: config)
        let key = RandomToken.make()
        let record = HeldPhoto(received, owner: owner, expires: now.addingTimeInterval(lifetime))
        try FileManager.default.createDirectory(atPath: folder(config), withIntermediateDirectories: true)
        try PhotoFiles.writeAtomically(Array(try JSONEncoder().encode(record)), to: folder(config) + key + ".json")
        return key
    }

    /// The photo held under `key` for `owner`, while it lasts.
    static func find(_ key: String, owner: UUID, now: Date, config: AppConfig) -> HeldPhoto? {
        guard isKey(key), let data = FileManager.default.contents(atPath: folder(config) + key + ".json"),
            let record = try? JSONDecoder().decode(HeldPhoto.self, from: data), record.owner == owner, record.expires > now
        else { return nil }
        return record
    }

    /// Forgets the key once its photo belongs to a challenge or reply (the files stay).
    static func release(_ key: String, config: AppConfig) {
        guard isKey(key) else { return }
        try? FileManager.default.removeItem(atPath: folder(config) + key + ".json")
    }

    /// Removes what expired, files and all: a form left with mistakes keeps nothing for long.
    static func sweep(now: Date, config: AppConfig) {
        let folder = folder(config)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: folder + name),
                let record = try? JSONDecoder().decode(HeldPhoto.self, from: data), record.expires <= now
            else { continue }
            for path in [PhotoStore.originalPath(record.originalFile, config: config), PhotoStore.servedPath(record.servedFile, config: config)] {
                try? FileManager.default.removeItem(atPath: path)
            }
            try? FileManager.default.removeItem(atPath: folder + name)
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

extension PhotoReceiver {
    /// Before the form is checked: when no photo was chosen this time, the one held for this person
    /// under the form's `held_photo` key; when another was chosen, the held one goes.
    func adoptHeld(from form: StreamedForm, owner: UUID, now: Date) {
        guard let key = form["held_photo"], let held = HeldPhoto.find(key, owner: owner, now: now, config: config), let photo = held.received
        else { return }
        guard received == nil else {
            for path in [PhotoStore.originalPath(held.originalFile, config: config), PhotoStore.servedPath(held.servedFile, config: config)] {
                try? FileManager.default.removeItem(atPath: path)
            }
            HeldPhoto.release(key, config: config)
            return
        }
        adopt(photo, heldKey: key)
    }

    /// After the form came back with mistakes: keeps the photo for another try and returns the key
    /// for the form (the same key when the photo was already held). Nil without a photo.
    func hold(owner: UUID, now: Date) -> String? {
        guard let received else { return nil }
        if let heldKey { return heldKey }
        return try? HeldPhoto.hold(received, owner: owner, now: now, config: config)
    }

    /// Once the photo is saved with its challenge or reply.
    func releaseHold() {
        if let heldKey { HeldPhoto.release(heldKey, config: config) }
    }
}
