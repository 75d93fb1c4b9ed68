import Fluent
import Vapor

/// What happens to someone's teams when they delete their account. A team they alone own passes to
/// its longest-serving manager, or, with no manager, is deleted with its games; team games they
/// scheduled pass to an owner, so nobody's fixture list empties because one person left.
enum TeamSuccession {
    struct Step {
        let team: Team
        /// Who becomes owner; nil when the team is deleted.
        let successor: User?
    }

    /// The teams `userID` is the only owner of, and who would take each over.
    static func plan(for userID: UUID, on db: any Database) async throws -> [Step] {
        let owned = try await Membership.query(on: db).filter(\.$user.$id == userID).filter(\.$role == .owner).with(\.$team).all()
        var steps: [Step] = []
        for membership in owned {
            let teamID = membership.$team.id
            let others = try await Membership.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id != userID)
                .filter(\.$role ~~ [.owner, .manager]).sort(\.$createdAt).with(\.$user).all()
            guard !others.contains(where: { $0.role == .owner }) else { continue }
            steps.append(Step(team: membership.team, successor: others.first?.user))
        }
        return steps.sorted { $0.team.name < $1.team.name }
    }

    /// Carries out `plan`. Call inside the transaction that deletes the person; Games then hands
    /// the team games they organised to each team's owner (`Games.deleteAccount`).
    static func apply(for userID: UUID, on db: any Database) async throws {
        for step in try await plan(for: userID, on: db) {
            let teamID = try step.team.requireID()
            if let successor = step.successor {
                try await Membership.query(on: db).filter(\.$team.$id == teamID)
                    .filter(\.$user.$id == successor.requireID()).set(\.$role, to: .owner).update()
                try await Notification.send(
                    to: [successor.requireID()], from: nil, kind: .roleChanged,
                    text: t("You are now the owner of {team}: its owner closed their account.", step.team.name),
                    link: SiteURL.team(slug: step.team.slug).path, on: db)
            } else {
                // The members hear why the team is gone from their list.
                let members = try await Membership.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id != userID).all()
                try await Notification.send(
                    to: members.map { $0.$user.id }, from: nil, kind: .teamClosed,
                    text: t("{team} is closed: its owner deleted their account.", step.team.name), link: SiteURL.teams.path, on: db)
                try await step.team.delete(on: db)
            }
        }
    }
}
