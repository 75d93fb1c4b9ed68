import Fluent
import Foundation

/// What Games keeps about a person: their answers and places (in the export); on deletion their
/// places in games others organise are given up the normal way, so counts stay right and the
/// waiting list moves up.
extension Games {
    static var archiveEntries: [ArchiveEntry] {
        [ArchiveEntry(path: "games.json", holds: t("your answers and places in games"))]
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
