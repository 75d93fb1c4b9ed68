import Foundation
import Vapor

/// Paths the app links to, redirects to and stores (in notifications), built in one place so that
/// a path reads the same wherever it is made and ids are always lower-case.
///
/// Games, teams, workouts, people, challenges and coaching are here so far; settings, learn,
/// leagues and the API still build theirs by hand (issue 19).
enum SiteURL: Sendable, Equatable {
    case games
    case newGame
    case game(UUID)
    case editGame(UUID)
    case teams
    case newTeam
    case team(slug: String)
    case editTeam(slug: String)
    case newTeamGame(slug: String)
    case workouts
    case newWorkout
    case workout(UUID)
    case editWorkout(UUID)
    case person(username: String)
    case avatar(username: String)
    case challenges
    case challenge(UUID)
    case coach
    case athlete(username: String)
    case athleteZones(username: String)

    var path: String {
        switch self {
        case .games: "/games"
        case .newGame: "/games/new"
        case .game(let id): "/games/" + Self.id(id)
        case .editGame(let id): "/games/" + Self.id(id) + "/edit"
        case .teams: "/teams"
        case .newTeam: "/teams/new"
        case .team(let slug): "/teams/" + slug
        case .editTeam(let slug): "/teams/" + slug + "/edit"
        case .newTeamGame(let slug): "/teams/" + slug + "/games/new"
        case .workouts: "/workouts"
        case .newWorkout: "/workouts/new"
        case .workout(let id): "/workouts/" + Self.id(id)
        case .editWorkout(let id): "/workouts/" + Self.id(id) + "/edit"
        case .person(let username): "/u/" + username
        case .avatar(let username): "/u/" + username + "/avatar"
        case .challenges: "/challenges"
        case .challenge(let id): "/challenges/" + Self.id(id)
        case .coach: "/coach"
        case .athlete(let username): "/coach/athletes/" + username
        case .athleteZones(let username): "/coach/athletes/" + username + "/zones"
        }
    }

    /// How an id is written in every URL and every JSON answer.
    static func id(_ id: UUID) -> String { id.uuidString.lowercased() }
}

extension Request {
    func redirect(to url: SiteURL) -> Response { redirect(to: url.path) }
}
