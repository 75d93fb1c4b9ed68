import Fluent

/// What Ingest puts in a person's export: the names of their devices (tokens are never kept).
extension Ingest {
    static var archiveEntries: [ArchiveEntry] {
        [ArchiveEntry(path: "settings/devices.json", holds: t("devices (their names; tokens are never kept)"))]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        let devices = try await DeviceToken.query(on: archive.db).filter(\.$user.$id == archive.userID).all()
        try archive.add("settings/devices.json", json: devices.map { ["name": $0.name, "last_used_at": AccountArchive.time($0.lastUsedAt)] })
    }
}
