import Fluent
import Foundation

extension Game {
    /// Lists a new pick-up game with its organiser holding the first place, in the caller's
    /// transaction. Public games are announced to players nearby; others never are.
    static func createPickup(_ valid: GameForm.Valid, organiser: UUID, now: Date, jobs: JobRunner, on db: any Database) async throws -> Game {
        let game = Game()
        game.kind = .pickup
        game.$organiser.id = organiser
        game.status = .scheduled
        game.sequence = 0
        game.subsNeeded = 0
        game.subsFilled = 0
        game.joinedCount = 1
        game.apply(valid, fixture: nil)
        try await game.create(on: db)
        try await GamePlayer(gameID: game.requireID(), userID: organiser, status: .joined, at: now).create(on: db)
        try await NearbyGameJob.enqueue(game, jobs: jobs, now: now, on: db)
        return game
    }

    /// People holding a place in the game (or a place in its queue): news of it is theirs to have.
    func holders(on db: any Database) async throws -> Set<UUID> {
        Set(
            try await GamePlayer.query(on: db).filter(\.$game.$id == requireID()).all()
                .filter { GameAccess.holdsPlace($0.status, isSub: $0.isSub) }.map { $0.$user.id })
    }

    /// Team members and everyone on the game's list.
    func everyone(on db: any Database) async throws -> [UUID] {
        var people = try await GamePlayer.query(on: db).filter(\.$game.$id == requireID()).all().map { $0.$user.id }
        if let teamID = $team.id {
            people += try await Membership.query(on: db).filter(\.$team.$id == teamID).all().map { $0.$user.id }
        }
        return Array(Set(people))
    }

    /// Cancels the game (its calendar entries change) and tells everyone on it but `userID`, in the
    /// caller's transaction.
    func cancel(by userID: UUID, teamName: String?, on db: any Database) async throws {
        status = .cancelled
        sequence += 1
        try await update(on: db)
        try await Notification.send(
            to: try await everyone(on: db).filter { $0 != userID }, from: nil, kind: .gameCancelled,
            text: t("Cancelled: {game} on {day}", title(teamName: teamName), GameTime.shortDay(startsAt, zone: timeZone)),
            link: SiteURL.game(try requireID()).path, always: try await holders(on: db), on: db
        )
    }

    /// Sets what the game form decided: time, place, notes, and a team game's opponent or a
    /// pick-up game's kind of players.
    /// The other team's copy of this season fixture, if it is one.
    func fixtureTwin(on db: any Database) async throws -> Game? {
        guard let fixtureID else { return nil }
        return try await Game.query(on: db).filter(\.$fixtureID == fixtureID).filter(\.$id != requireID()).first()
    }

    /// Takes the time and place of `other`, the copy of the same fixture that was moved.
    func follow(_ other: Game) {
        schedule(at: other.startsAt)
        timeZone = other.timeZone
        durationMinutes = other.durationMinutes
        placeName = other.placeName
        latitude = other.latitude
        longitude = other.longitude
        sequence += 1
        placeForSearch()
    }

    func apply(_ valid: GameForm.Valid, fixture: (team: Team, leagueID: UUID)?) {
        schedule(at: valid.startsAt)
        timeZone = valid.timeZone
        durationMinutes = valid.durationMinutes
        placeName = valid.place.name
        latitude = valid.place.latitude
        longitude = valid.place.longitude
        description = valid.description
        if kind == .team {
            // A season's fixture keeps its teams and league whatever the form says: only its time and place move.
            if fixtureID == nil {
                $opponentTeam.id = fixture?.team.id
                $league.id = fixture?.leagueID
                opponentName = fixture?.team.name ?? valid.opponentName
            }
        } else {
            sport = valid.sport!.rawValue
            privacy = valid.privacy!.rawValue
            ageGroup = valid.ageGroup!.rawValue
            gender = valid.gender!.rawValue
            skill = valid.skill!.rawValue
            capacity = valid.capacity
            minPlayers = valid.minPlayers
        }
        placeForSearch()
    }
}
