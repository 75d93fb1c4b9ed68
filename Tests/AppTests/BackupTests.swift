@testable import App
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

@Suite("Backups: fieldhouse backup and restore")
struct BackupTests {
    /// Ana's phone keeps sending heart-rate batches while the backup runs. Restored into an empty
    /// data directory, a new server has every batch acknowledged before the backup began (and
    /// whole batches only), her workout, and her challenge photo with the same bytes; a damaged
    /// backup and a data directory that holds data are refused before anything is written.
    @Test func aBackupTakenDuringUploadsRestoresEverythingAcknowledged() async throws {
        try await withApp { app in
            let backup = app.store.config.dataDirectory + "-backup"
            defer { try? FileManager.default.removeItem(atPath: backup) }
            let cast = try await ChallengeCast.make(app)
            let ana = cast.ana
            let token = try await ana.deviceToken()
            let start = app.clock.milliseconds - 36_000_000
            // One batch: a minute of heart rate, each batch its own minute.
            @Sendable func batch(_ n: Int) -> String {
                let samples = (0..<60).map { #"{"t": \#(start + Int64(n * 60 + $0) * 1000), "bpm": \#(90 + $0 % 30)}"# }.joined(separator: ",")
                return #"{"heart_rate": [\#(samples)]}"#
            }
            for n in 0..<5 { #expect(try await ana.api(.POST, "/api/v1/samples", token: token, json: batch(n)).status == .created) }
            #expect(
                try await ana.api(
                    .POST, "/api/v1/workouts", token: token,
                    json: #"{"external_id": "backup-run", "sport": "running", "start": \#(start), "end": \#(start + 299_000)}"#
                ).status == .created)
            let challenge = try #require(try await ana.sendChallenge(to: ["ben"], caption: "Bridge at dawn").location)
            let photo = try #require(photoURLs(in: try await ana.get(challenge)).first)
            await app.app.photoSizer.idle() // the sizes (and the final served copy) are made in the background
            let photoBytes = try await ana.get(photo).bytes

            // Batches keep coming while the backup is taken.
            let backupStarted = NIOLockedValueBox(false)
            let acknowledgedBefore = NIOLockedValueBox(5)
            let sender = Task {
                for n in 5..<200 {
                    guard !Task.isCancelled else { break }
                    let status = try await ana.api(.POST, "/api/v1/samples", token: token, json: batch(n)).status
                    if status == .created, !backupStarted.withLockedValue({ $0 }) { acknowledgedBefore.withLockedValue { $0 = n + 1 } }
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            backupStarted.withLockedValue { $0 = true }
            let manifest = try await Backup.take(config: app.app.config, folders: app.app.dataFolders, db: app.db, into: backup, now: app.clock.now)
            sender.cancel()
            _ = try? await sender.value
            let dump = app.store.schema == nil ? Backup.databaseName : PostgresBackup.dumpName
            #expect(manifest.files.contains { $0.path == dump } && manifest.files.contains { $0.path == "secret.key" })
            #expect(manifest.files.contains { $0.path == "vapid.key" }, "browsers' push subscriptions need the same key after a restore")
            #expect(manifest.files.contains { $0.path.hasPrefix("photos/") })
            await #expect(throws: Backup.Failure.self, "a backup goes into a new folder") {
                try await Backup.take(config: app.app.config, folders: app.app.dataFolders, db: app.db, into: backup, now: app.clock.now)
            }
            await #expect(throws: Backup.Failure.self, "never over data") {
                try await Backup.restore(from: backup, into: app.app.config, folders: app.app.dataFolders)
            }

            try await withRestoreTarget(app) { store in
                let restoredManifest = try await Backup.restore(from: backup, into: store.config, folders: app.app.dataFolders)
                #expect(restoredManifest.rows == manifest.rows && restoredManifest.files == manifest.files)
                let restored = try await TestApp.start(store)
                do {
                    let samples = try await rowCount("heart_rate_samples", restored.db)
                    #expect(samples == manifest.rows["heart_rate_samples"], "the manifest counts the copy")
                    #expect(samples >= acknowledgedBefore.withLockedValue { $0 } * 60, "every batch acknowledged before the backup")
                    #expect(samples % 60 == 0, "whole batches only: \(samples)")
                    let anaAgain = restored.browser()
                    #expect(try await anaAgain.logIn("ana").status == .seeOther)
                    #expect(try await rowCount("workouts", restored.db) == 1)
                    #expect(restored.app.vapidKey.publicKeyBase64URL == app.app.vapidKey.publicKeyBase64URL)
                    #expect(try await anaAgain.get(challenge).contains("Bridge at dawn"))
                    let served = try await anaAgain.get(photo)
                    #expect(
                        served.status == .ok && served.bytes == photoBytes,
                        "the photo, byte for byte: \(served.bytes.count) and \(photoBytes.count) bytes, \(photo)")
                    #expect(try await restored.browser().get(photo).status == .notFound, "and still private")
                } catch {
                    await restored.stop()
                    throw error
                }
                await restored.stop()
            }

            // A manifest that names a file outside what a backup holds is refused, whatever its checksum says.
            try await withRestoreTarget(app) { store in
                let original = try Data(contentsOf: URL(fileURLWithPath: backup + "/manifest.json"))
                var crafted = manifest
                crafted.files.append(.init(path: "photos/../../escape.sh", bytes: 0, sha256: ""))
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .iso8601
                try encoder.encode(crafted).write(to: URL(fileURLWithPath: backup + "/manifest.json"))
                await #expect(throws: Backup.Failure.self) { try await Backup.restore(from: backup, into: store.config, folders: app.app.dataFolders) }
                #expect(try await !holdsData(store))
                try original.write(to: URL(fileURLWithPath: backup + "/manifest.json"))
            }

            // A damaged file is found before anything is written.
            try await withRestoreTarget(app) { store in
                let damaged = try #require(manifest.files.first { $0.path.hasPrefix("photos/") })
                let handle = try #require(FileHandle(forWritingAtPath: backup + "/" + damaged.path))
                try handle.seek(toOffset: 100)
                try handle.write(contentsOf: Data([0x00, 0xFF, 0x00]))
                try handle.close()
                await #expect(throws: Backup.Failure.self) { try await Backup.restore(from: backup, into: store.config, folders: app.app.dataFolders) }
                #expect(try await !holdsData(store))
                #expect(!FileManager.default.fileExists(atPath: store.config.dataDirectory + "/" + damaged.path))
            }
        }
    }
}

extension BackupTests {
    /// Where a backup is restored: a new data directory and, on PostgreSQL, a new empty database on
    /// the same server (pg_restore makes the test's schema there again, under the same name).
    func withRestoreTarget(_ app: TestApp, _ body: (TestStore) async throws -> Void) async throws {
        try await withStore { fresh in
            guard case .postgres(let url, _) = app.store.config.database, let schema = app.store.schema,
                var address = URLComponents(string: url)
            else { return try await body(fresh) }
            let name = "r_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            let sql = app.db.sql
            try await sql.raw("CREATE DATABASE \(unsafeRaw: name)").run()
            address.path = "/" + name
            var config = fresh.config
            config.database = .postgres(url: try #require(address.string), searchPath: schema)
            do {
                try await body(TestStore(config: config, schema: nil))
            } catch {
                _ = try? await sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run()
                throw error
            }
            try await sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run()
        }
    }

    /// Whether a restore wrote a database at all.
    func holdsData(_ store: TestStore) async throws -> Bool {
        switch store.config.database {
        case .sqlite(let path): FileManager.default.fileExists(atPath: path)
        case .postgres(let url, let searchPath): try await PostgresBackup.holdsData(url: url, searchPath: searchPath)
        }
    }

    /// A backup run with another data directory than the server's (the operator forgot
    /// FIELDHOUSE_DATA_DIR) finds a database nobody migrated: it says so instead of writing a
    /// backup of nothing.
    @Test func aBackupOfNoDataIsRefused() async throws {
        try await withStore { store in
            let app = try await Application.make(.testing)
            let folder = store.config.dataDirectory + "-empty-backup"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            do {
                try await configure(app, config: store.config)
                await #expect(throws: Backup.Failure.self) {
                    try await Backup.take(config: app.config, folders: app.dataFolders, db: app.db, into: folder, now: app.clock.now)
                }
                #expect(!FileManager.default.fileExists(atPath: folder + "/" + Backup.databaseName))
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
        }
    }
}
