import FieldhouseKit
import Foundation
import Vapor

/// The plan form as typed: what, who sees it, and the game fields it shares with the game form
/// (sport, day, time, duration, place, how many), decoded from the same body.
struct PlanForm: Content {
    var text: String?
    var audience: String?
    var sport: String?
    var day: String?
    var time: String?
    var duration_minutes: String?
    var place_name: String?
    var capacity: String?
    /// The id of one of the poster's shared routes, or empty.
    var route: String?

    /// A new plan: this evening at 18:00 if that is still ahead, else tomorrow; an hour; eight people.
    init(zone: String, now: Date) {
        let soon = now.addingTimeInterval(2 * 3600)
        let today = LocalTime.parts(of: now, zone: zone)
        let tomorrow = LocalTime.parts(of: now.addingTimeInterval(86_400), zone: zone)
        let evening = LocalTime.instant(day: today.day, time: "18:00", zone: zone)
        day = (evening.map { $0 > soon } ?? false) ? today.day : tomorrow.day
        time = "18:00"
        duration_minutes = "60"
        capacity = "8"
        audience = Plan.Audience.friends.rawValue
    }

    struct Valid {
        let text: String
        let audience: Plan.Audience
        let teamSlug: String?
        let route: UUID?
        let game: GameForm.Valid
    }

    /// `teams` are the slugs of the poster's teams, the only teams a plan may go to; `routes` the
    /// poster's shared routes by id, the only ones a plan may name.
    func validate(zone: String, teams: Set<String>, routes: [UUID: Route.Visibility] = [:], now: Date) -> (Valid?, FieldErrors) {
        var game = GameForm(zone: zone, now: now)
        game.sport = sport
        game.day = day
        game.time = time
        game.duration_minutes = duration_minutes
        game.place_name = place_name
        game.capacity = capacity
        game.min_players = "2"
        // The game page shows the plan's words as its notes.
        game.description = text
        game.privacy = Team.Privacy.private.rawValue
        let (validGame, gameErrors) = game.validate(kind: .pickup, allowsPrivate: true, now: now)
        var errors = gameErrors
        if errors["capacity"] != nil { errors["capacity"] = t("Enter how many people in all, you included: 2 to 100") }

        let words = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if words.isEmpty {
            errors["text"] = t("Say what you plan, for example “Running at the lake, who's in?”")
        } else if words.count > Plan.maxText {
            errors["text"] = t("Keep it to {max} characters (it has {length})", Plan.maxText, words.count)
        }
        let choice = audience ?? ""
        var chosen: (Plan.Audience, String?)?
        if let plain = Plan.Audience(rawValue: choice), plain != .team {
            chosen = (plain, nil)
        } else if choice.hasPrefix("team:"), teams.contains(String(choice.dropFirst(5))) {
            chosen = (.team, String(choice.dropFirst(5)))
        } else {
            errors["audience"] = t("Choose who sees the plan")
        }
        // Everyone who sees the plan must be able to open its route: a route for friends only
        // goes with plans for friends.
        var routeID: UUID?
        if let raw = route, !raw.isEmpty {
            if let id = UUID(uuidString: raw), let visibility = routes[id] {
                if visibility == .friends, chosen.map({ $0.0 != .friends }) ?? false {
                    errors["route"] = t("That route is shared with friends only; share it with everyone, or plan for friends")
                } else {
                    routeID = id
                }
            } else {
                errors["route"] = t("Choose one of your shared routes")
            }
        }
        guard errors.isEmpty, let validGame, let chosen else { return (nil, errors) }
        return (Valid(text: words, audience: chosen.0, teamSlug: chosen.1, route: routeID, game: validGame), [:])
    }
}
