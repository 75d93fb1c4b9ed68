import Fluent
import Foundation

extension Games {
    /// Upcoming pick-up games the person organises are deleted with them.
    static func deletionNotices(for userID: UUID, now: Date, on db: any Database) async throws -> [DeletionNotice] {
        let pickups = try await Game.query(on: db).filter(\.$organiser.$id == userID).filter(\.$team.$id == nil)
            .filter(\.$status == .scheduled).filter(\.$startsAt > now).count()
        guard pickups > 0 else { return [] }
        let text = tn(
            "Your upcoming pick-up game is deleted; the players will no longer see it.",
            "Your {count} upcoming pick-up games are deleted; the players will no longer see them.", pickups)
        return [DeletionNotice(heading: t("Pick-up games you organise"), lines: [[DeletionNotice.Part(text: text)]])]
    }
}
