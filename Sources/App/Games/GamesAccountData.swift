import Fluent
import Foundation

/// What Games keeps about a person: their answers and places (in the export); on deletion their
/// places in games others organise are given up the normal way, so counts stay right and the
/// waiting list moves up.
extension Games {
    static var archiveEntries: [ArchiveEntry] {
        [
            ArchiveEntry(path: "games.json", holds: t("your answers and places in games")),
            ArchiveEntry(path: "game_invitations.json", holds: t("invitations to pick-up games you sent and got")),
        ]
    }

    static func exportAccount(_ archive: AccountArchive) async throws {
        let userID = archive.userID
        // A game's place only where the person may see it (not while a protected game's organiser
        // has yet to accept them), as on the game's page.
        let answers = try await GamePlayer.query(on: archive.db).filter(\.$user.$id == userID).with(\.$game).all()
        try archive.add(
            "games.json",
            json: answers.map { answer in
                let game = answer.game
                let showPlace = GameAccess.canSeeExactPlace(
                    privacy: game.privacy, isMember: game.$team.id != nil && answer.status != .requested,
                    isOrganiser: game.$organiser.id == userID, holdsPlace: GameAccess.holdsPlace(answer.status, isSub: answer.isSub))
                return [
                    "game": game.id.map(SiteURL.id) ?? "", "sport": game.sport, "place": showPlace ? game.placeName ?? "" : "",
                    "starts_at": AccountArchive.time(game.startsAt), "answer": answer.status.rawValue,
                ]
            })
        try await exportInvitations(archive)
    }

    /// Invitations the person sent (with whom they asked, whom they named themselves) and got
    /// (without the sender, who may not be someone they may know of).
    private static func exportInvitations(_ archive: AccountArchive) async throws {
        let userID = archive.userID
        let sent = try await GameInvite.query(on: archive.db).filter(\.$inviter.$id == userID).with(\.$invitee).sort(\.$createdAt).all()
        let got = try await GameInvite.query(on: archive.db).filter(\.$invitee.$id == userID).sort(\.$createdAt).all()
        try archive.add(
            "game_invitations.json",
            json: sent.map { ["direction": "sent", "game": SiteURL.id($0.$game.id), "invitee": $0.invitee.username, "at": AccountArchive.time($0.createdAt)] }
                + got.map { ["direction": "received", "game": SiteURL.id($0.$game.id), "invitee": "", "at": AccountArchive.time($0.createdAt)] })
    }

    static func deleteAccount(of userID: UUID, now: Date, on db: any Database, config: AppConfig) async throws -> AfterDeletion {
        // Team games they organised pass to the team's owner (Teams has handed their teams on already).
        for game in try await Game.query(on: db).filter(\.$organiser.$id == userID).filter(\.$team.$id != nil).all() {
            guard let teamID = game.$team.id,
                let owner = try await Membership.query(on: db).filter(\.$team.$id == teamID).filter(\.$user.$id != userID)
                    .filter(\.$role == .owner).sort(\.$createdAt).first()
            else { continue }
            game.$organiser.id = owner.$user.id
            try await game.update(on: db)
        }
        let places = try await GamePlayer.query(on: db).filter(\.$user.$id == userID).with(\.$game).all()
        for place in places where place.game.$organiser.id != userID && place.game.startsAt > now {
            try await GameRoster.remove(userID: userID, from: place.game, now: now, on: db)
        }
        return {}
    }
}
