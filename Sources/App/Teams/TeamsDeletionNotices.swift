import Fluent
import Foundation

extension Teams {
    /// Teams the person owns alone pass to their longest-serving manager or are deleted; leagues
    /// they run are deleted.
    static func deletionNotices(for userID: UUID, now: Date, on db: any Database) async throws -> [DeletionNotice] {
        typealias Part = DeletionNotice.Part
        var notices: [DeletionNotice] = []
        let steps = try await TeamSuccession.plan(for: userID, on: db)
        if !steps.isEmpty {
            let lines = steps.map { step -> [Part] in
                let team = Part(text: step.team.name, url: SiteURL.team(slug: step.team.slug).path)
                guard let successor = step.successor else {
                    return [
                        team, Part(text: ": "), Part(text: t("deleted"), strong: true),
                        Part(text: " " + t("with its games and memberships, since it has no manager to take over. Make someone a manager first to keep it.")),
                    ]
                }
                return [
                    team, Part(text: ": " + t("passes to") + " "), Part(text: successor.displayName, strong: true),
                    Part(text: ", " + t("its longest-serving manager, who becomes owner.")),
                ]
            }
            notices.append(DeletionNotice(heading: t("Teams you own alone"), lines: lines))
        }
        let leagues = try await League.query(on: db).filter(\.$manager.$id == userID).sort(\.$name).all()
        if !leagues.isEmpty {
            let lines = leagues.map { [Part(text: $0.name, strong: true), Part(text: " " + t("is deleted, with its fixtures."))] }
            notices.append(DeletionNotice(heading: t("Leagues you run"), lines: lines))
        }
        return notices
    }
}
