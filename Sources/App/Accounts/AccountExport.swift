import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Everything the server holds about a person, as one ZIP under `<data>/exports/<id>.zip`: the
/// profile, every workout (JSON, and GPX and CSV of its track), every raw sample as CSV, the
/// originals of their photos, their challenges, replies, comments, teams, game answers, coaching
/// and settings. Built in the background (years of 1 Hz heart rate take a while) and written
/// piece by piece, so memory stays flat whatever the account's size.
///
/// Not included, because the server does not keep them: the original uploaded GPX/TCX/FIT files
/// (only their hash is kept; the GPX here is made from the stored samples) and passwords.
enum AccountExport {
    /// The folder under the data directory (`Accounts.dataFolders`).
    static let folder = "exports"

    static func path(for userID: UUID, config: AppConfig) -> String {
        config.dataDirectory + "/" + folder + "/" + userID.uuidString.lowercased() + ".zip"
    }

    /// How long a finished export is offered. It holds everything about a person, so it is not kept
    /// on the server longer than it takes to fetch it.
    static let keptFor: TimeInterval = 7 * 24 * 3600

    struct Ready {
        let path: String
        let made: Date
        let bytes: Int
    }

    /// This person's finished export, or nil; an export older than `keptFor` is deleted instead.
    static func ready(for userID: UUID, config: AppConfig, now: Date) -> Ready? {
        let path = path(for: userID, config: config)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let made = attributes[.modificationDate] as? Date, let bytes = attributes[.size] as? Int
        else { return nil }
        guard now.timeIntervalSince(made) < keptFor else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        return Ready(path: path, made: made, bytes: bytes)
    }

    /// Deletes every export past `keptFor`, and half-made ones nobody has written to for longer than
    /// a job's lease: their process died, and another has taken the job again (every hour while
    /// serving, and at start). A half-made file still growing belongs to a process at work, maybe
    /// another one on the same data directory, and is left alone.
    static func removeExpired(config: AppConfig, now: Date) {
        let folder = config.dataDirectory + "/" + Self.folder
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            let made = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            let limit = name.hasSuffix(".part") ? config.jobLeaseSeconds : keptFor
            if made.map({ now.timeIntervalSince($0) >= limit }) ?? true {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    static func write(for userID: UUID, now: Date, on db: any Database, config: AppConfig, features: [any Feature.Type]) async throws {
        guard let user = try await User.find(userID, on: db) else {
            // Deleted since it was asked for, maybe after an earlier try put a file in place.
            try? FileManager.default.removeItem(atPath: path(for: userID, config: config))
            return
        }
        // A job has no request: the README and the files' descriptions are for the person to read.
        try await user.reader.writeAsync {
            try await write(user, now: now, on: db, config: config, features: features)
        }
    }

    private static func write(_ user: User, now: Date, on db: any Database, config: AppConfig, features: [any Feature.Type]) async throws {
        let userID = try user.requireID()
        let final = path(for: userID, config: config)
        // Its own name: should two processes ever write the same person's export (a job taken again
        // after its lease ran out), neither overwrites the other's half, and the last one finished wins.
        let temporary = final + "." + UUID().uuidString.lowercased() + ".part"
        FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600])
        guard let handle = FileHandle(forWritingAtPath: temporary) else {
            throw Abort(.internalServerError, reason: "Could not create the export file.")
        }
        do {
            let zip = try ZipWriter { try handle.write(contentsOf: $0) }
            let archive = AccountArchive(userID: userID, db: db, config: config, zip: zip, now: now)
            try archive.add("README.txt", text: readme(features))
            try await writeProfile(of: user, to: archive)
            for feature in features { try await feature.exportAccount(archive) }
            try zip.finish()
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        // Deleted while this ran: nothing of theirs may stay.
        guard try await User.find(userID, on: db) != nil else {
            try? FileManager.default.removeItem(atPath: temporary)
            return
        }
        guard rename(temporary, final) == 0 else { throw Abort(.internalServerError, reason: "Could not finish the export file.") }
        // …or deleted (on another process) between that look and the rename.
        if try await User.find(userID, on: db) == nil { try? FileManager.default.removeItem(atPath: final) }
    }

    private struct Profile: Encodable {
        let username, displayName, email: String
        let bio, birthDate: String?
        let gender: String
        let heightCm, weightKg: Double?
        let homeName: String?
        let homeLatitude, homeLongitude: Double?
        let timeZone, units, visibility: String
        /// The language chosen in the settings; nil follows the browser.
        let language: String?
        /// "24h" or "12h".
        let clock: String
        let continuousHeartRate: Bool
        let maxHeartRate, restingHeartRate: Int?
        let zoneBasis, zonePercents: String?
        let sports: [String]
        let following, followers: [String]
        let createdAt: Date?
    }

    private static func writeProfile(of user: User, to archive: AccountArchive) async throws {
        let userID = archive.userID, db = archive.db
        let sports = try await UserSport.query(on: db).filter(\.$user.$id == userID).all().map(\.sport)
        let following = try await Follow.query(on: db).filter(\.$follower.$id == userID).with(\.$followee).all().map(\.followee.username)
        let followers = try await Follow.query(on: db).filter(\.$followee.$id == userID).with(\.$follower).all().map(\.follower.username)
        try archive.add(
            "profile.json",
            json: Profile(
                username: user.username, displayName: user.displayName, email: user.shownEmail, bio: user.bio, birthDate: user.birthDate,
                gender: user.gender.rawValue, heightCm: user.heightCm, weightKg: user.weightKg, homeName: user.homeName,
                homeLatitude: user.homeLat, homeLongitude: user.homeLon, timeZone: user.timeZone, units: user.units.rawValue,
                visibility: user.visibility.rawValue, language: user.languageCode, clock: user.clock.rawValue, continuousHeartRate: user.continuousHeartRate,
                maxHeartRate: user.maxHeartRate,
                restingHeartRate: user.restingHeartRate, zoneBasis: user.zoneBasis, zonePercents: user.zonePercents,
                sports: sports, following: following.sorted(), followers: followers.sorted(), createdAt: user.createdAt
            ))
    }

    /// The export's README: Accounts' own files, then each feature's, in the order features are listed.
    private static func readme(_ features: [any Feature.Type]) -> String {
        let entries =
            [ArchiveEntry(path: "profile.json", holds: t("your profile, sports, who you follow and who follows you"))]
            + features.flatMap { $0.archiveEntries }
        let width = (entries.map(\.path.count).max() ?? 0) + 2
        let lines = entries.map { $0.path.padding(toLength: width, withPad: " ", startingAt: 0) + $0.holds }
        let title = t("Your Fieldhouse data")
        return title + "\n" + String(repeating: "=", count: title.count) + "\n\n"
            + lines.joined(separator: "\n") + "\n\n"
            + t("The files you imported (GPX, TCX, FIT) are not kept by the server, only what was read from them;\nthe GPX files here are made from that.")
            + "\n"
    }
}
