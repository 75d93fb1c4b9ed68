import FieldhouseKit
import Fluent
import SQLKit

/// What Workouts puts in a person's export: their settings for training, routes, workouts with
/// their tracks, and every raw sample.
extension Workouts {
    static var archiveEntries: [ArchiveEntry] {
        [
            ArchiveEntry(path: "settings/", holds: t("goals, reminders and privacy zones")),
            ArchiveEntry(path: "routes.json", holds: t("routes you saved")),
            ArchiveEntry(path: "workouts.json", holds: t("every workout as stored (times are milliseconds since 1970, UTC)")),
            ArchiveEntry(path: "workouts/", holds: t("each workout's track: GPX 1.1 (with heart rate and cadence) and CSV")),
            ArchiveEntry(path: "samples/", holds: t("every sample recorded for you, one CSV per kind, times in UTC")),
        ]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        let userID = archive.userID, db = archive.db
        try archive.add("settings/goals.json", json: try await Goal.query(on: db).filter(\.$user.$id == userID).all())
        try archive.add("settings/reminders.json", json: try await Reminder.query(on: db).filter(\.$user.$id == userID).all())
        try archive.add("settings/privacy_zones.json", json: try await SavedPrivacyZone.query(on: db).filter(\.$user.$id == userID).all())
        try archive.add("routes.json", json: try await Route.query(on: db).filter(\.$user.$id == userID).all())

        // The stored record, and the track as GPX (when it has positions) and CSV.
        let workouts = try await Workout.query(on: db).filter(\.$user.$id == userID).sort(\.$startMS).all()
        try archive.add("workouts.json", json: workouts)
        for workout in workouts {
            guard let timeline = try await WorkoutTimeline.load(workout, ownerView: true, on: db), !timeline.points.isEmpty else { continue }
            let day = SampleTime.rfc3339(milliseconds: workout.startMS).prefix(10)
            let slug = Slug.make(workout.name).isEmpty ? "workout" : Slug.make(workout.name)
            let name = "workouts/\(day)-\(slug)-\(try workout.requireID().uuidString.lowercased().prefix(8))"
            if timeline.points.contains(where: { $0.latitude != nil }) {
                let gpx = WorkoutExport.gpx(workout, points: timeline.points, segmentStarts: workout.segmentStarts(in: timeline.points))
                try archive.add(name + ".gpx", text: gpx)
            }
            try archive.add(name + ".csv", text: WorkoutExport.csv(timeline.points))
        }
        try await exportSamples(archive)
    }

    /// The raw sample tables and their columns, exported as they are stored.
    private static let sampleTables: [(table: String, columns: [(name: String, kind: SampleTable.Column.Kind)])] = [
        ("heart_rate_samples", [("bpm", .integer)]),
        ("rr_intervals", [("ms", .real)]),
        ("location_samples", [("lat", .real), ("lon", .real), ("ele", .real), ("accuracy", .real), ("speed", .real)]),
        ("cadence_samples", [("rpm", .integer)]),
        ("step_samples", [("count", .integer)]),
        ("motion_samples", [("activity", .text), ("confidence", .integer)]),
    ]

    /// One CSV per sample table, read in pages along the table's key so no page is held long and
    /// memory stays flat whatever the account's size.
    private static func exportSamples(_ archive: AccountArchive) async throws {
        let sql = archive.db.sql
        let zip = archive.zip
        for (table, columns) in sampleTables {
            try zip.begin("samples/\(table).csv", modified: archive.now)
            try zip.write(Array((["time"] + columns.map(\.name)).joined(separator: ",").utf8) + [0x0A])
            var after = Int64.min
            while true {
                let list = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
                let rows = try await sql.raw(
                    """
                    SELECT t, \(unsafeRaw: list) FROM \(ident: table) WHERE user_id = \(bind: archive.userID) AND t > \(bind: after) ORDER BY t LIMIT 5000
                    """
                ).all()
                guard let last = rows.last else { break }
                var text = ""
                for row in rows {
                    var fields = [SampleTime.rfc3339(milliseconds: try row.decode(column: "t", as: Int64.self))]
                    for column in columns {
                        switch column.kind {
                        case .integer: fields.append((try row.decode(column: column.name, as: Int?.self)).map(String.init) ?? "")
                        case .real: fields.append((try row.decode(column: column.name, as: Double?.self)).map { String($0) } ?? "")
                        case .text: fields.append(csvField(try row.decode(column: column.name, as: String?.self) ?? ""))
                        }
                    }
                    text += fields.joined(separator: ",") + "\n"
                }
                try zip.write(Array(text.utf8))
                after = try last.decode(column: "t", as: Int64.self)
            }
            try zip.end()
        }
    }

    private static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
