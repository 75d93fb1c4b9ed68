import Fluent
import Foundation

/// What Teams keeps about a person: their memberships (in the export), and on deletion the teams
/// they manage are handed on first.
extension Teams {
    static var archiveEntries: [ArchiveEntry] {
        [ArchiveEntry(path: "teams.json", holds: t("your teams and roles"))]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        let memberships = try await Membership.query(on: archive.db).filter(\.$user.$id == archive.userID).with(\.$team).all()
        try archive.add(
            "teams.json",
            json: memberships.map {
                ["team": $0.team.name, "slug": $0.team.slug, "role": $0.role.rawValue, "since": AccountArchive.time($0.createdAt)]
            })
    }

    static func deleteAccount(of userID: UUID, now: Date, on db: any Database, config: AppConfig) async throws -> AfterDeletion {
        try await TeamSuccession.apply(for: userID, on: db)
        return {}
    }
}
