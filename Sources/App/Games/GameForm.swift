import FieldhouseKit
import Foundation
import Vapor

/// The game form as typed (team games and pick-up games share it), and its validation into values
/// or one message per field.
struct GameForm: Content {
    var day: String?
    var time: String?
    var time_zone: String?
    var duration_minutes: String?
    var place_name: String?
    var latitude: String?
    var longitude: String?
    var description: String?
    // Team games
    var opponent_team: String?
    var opponent_name: String?
    /// A new team game: "never" or "weekly", with the last day `until` (`GameSeries`).
    var repeats: String?
    var until: String?
    /// Editing or cancelling one of a series: "one" (the default) or "following".
    var scope: String?
    // Pick-up games
    var sport: String?
    var privacy: String?
    var age_group: String?
    var gender: String?
    var skill: String?
    var capacity: String?
    var min_players: String?

    /// A new team game: the team's home ground, a week from now at 19:00 in the organiser's zone.
    init(team: Team, zone: String, now: Date) {
        self.init(zone: zone, now: now)
        place_name = team.placeName
        latitude = team.latitude.map(FormNumber.text)
        longitude = team.longitude.map(FormNumber.text)
    }

    /// A new pick-up game with the usual choices.
    init(zone: String, now: Date) {
        let parts = LocalTime.parts(of: now.addingTimeInterval(7 * 86_400), zone: zone)
        day = parts.day
        time = "19:00"
        time_zone = zone
        duration_minutes = "90"
        privacy = Team.Privacy.public.rawValue
        age_group = AgeGroup.any.rawValue
        gender = TeamGender.any.rawValue
        skill = TeamSkill.any.rawValue
        capacity = "12"
        min_players = "6"
    }

    init(game: Game, opponentSlug: String?) {
        let parts = LocalTime.parts(of: game.startsAt, zone: game.timeZone)
        day = parts.day
        time = parts.time
        time_zone = game.timeZone
        duration_minutes = String(game.durationMinutes)
        place_name = game.placeName
        latitude = game.latitude.map(FormNumber.text)
        longitude = game.longitude.map(FormNumber.text)
        description = game.description
        opponent_team = opponentSlug
        opponent_name = opponentSlug == nil ? game.opponentName : nil
        sport = game.sport
        privacy = game.privacy
        age_group = game.ageGroup
        gender = game.gender
        skill = game.skill
        capacity = game.capacity.map(String.init)
        min_players = game.minPlayers.map(String.init)
    }

    struct Valid {
        var startsAt: Date
        var timeZone: String
        var durationMinutes: Int
        var place: NamedPlace
        var description: String
        var opponentTeamSlug: String?
        var opponentName: String?
        var sport: Sport?
        var privacy: Team.Privacy?
        var ageGroup: AgeGroup?
        var gender: TeamGender?
        var skill: TeamSkill?
        var capacity: Int?
        var minPlayers: Int?
    }

    /// `previousStart` is the saved start when editing: an unchanged start may lie in the past
    /// (fixing the notes of last week's game), a new one may not. `allowsPrivate` is for a game
    /// that only its players see (a friend's plan): it must stay so, and nothing else may become so.
    func validate(kind: Game.Kind, previousStart: Date? = nil, allowsPrivate: Bool = false, now: Date) -> (Valid?, FieldErrors) {
        var errors: FieldErrors = [:]
        let zone = (time_zone ?? "").trimmingCharacters(in: .whitespaces)
        if TimeZone.known(zone) == nil { errors["time_zone"] = t("Choose the venue's time zone from the list") }
        let dayText = (day ?? "").trimmingCharacters(in: .whitespaces)
        let timeText = (time ?? "").trimmingCharacters(in: .whitespaces)
        if CalendarDate(iso: dayText) == nil { errors["day"] = t("Enter a real date, for example 2026-11-26") }
        let start = LocalTime.instant(day: dayText, time: timeText, zone: zone)
        if errors["day"] == nil, start == nil, errors["time_zone"] == nil { errors["time"] = t("Enter a time such as 19:30") }
        if let start, start != previousStart, start <= now { errors["day"] = t("Choose a date and time in the future") }

        let duration = FormNumber.whole(
            duration_minutes, in: 5...1440, required: true, field: "duration_minutes",
            message: t("Enter a duration between 5 minutes and 24 hours (1,440 minutes), in whole minutes"), errors: &errors)

        let placeName = AccountRules.collapseWhitespace(place_name ?? "")
        if placeName.count > 120 { errors["place_name"] = t("Keep the place name to 120 characters or fewer") }
        let lat = FormNumber.coordinate(latitude, range: -90...90, axis: "latitude")
        let lon = FormNumber.coordinate(longitude, range: -180...180, axis: "longitude")
        errors["latitude"] = lat.error
        errors["longitude"] = lon.error
        if lat.error == nil, lon.error == nil, (lat.value == nil) != (lon.value == nil) {
            errors[lat.value == nil ? "latitude" : "longitude"] = t("Enter both latitude and longitude, or neither")
        }
        let text = (description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > 2000 { errors["description"] = t("Keep the notes to 2,000 characters or fewer (they have {count})", text.count) }

        var valid = Valid(
            startsAt: start ?? now, timeZone: zone, durationMinutes: duration ?? 0,
            place: NamedPlace(name: placeName.isEmpty ? nil : placeName, latitude: lat.value, longitude: lon.value),
            description: text
        )
        switch kind {
        case .team:
            let slug = (opponent_team ?? "").trimmingCharacters(in: .whitespaces)
            let name = AccountRules.collapseWhitespace(opponent_name ?? "")
            if name.count > 80 { errors["opponent_name"] = t("Keep the opponent's name to 80 characters or fewer") }
            valid.opponentTeamSlug = slug.isEmpty ? nil : slug
            valid.opponentName = name.isEmpty ? nil : name
        case .pickup:
            valid.sport = Sport(rawValue: sport ?? "")
            if valid.sport == nil { errors["sport"] = t("Choose a sport from the list") }
            valid.privacy = Team.Privacy(rawValue: privacy ?? "")
            if valid.privacy == nil || (valid.privacy == .private) != allowsPrivate {
                // A game only its players see stays so: its people joined a plan among friends, not a public list.
                errors["privacy"] = allowsPrivate ? t("A game made from a plan stays among the people in it") : t("Choose who can join")
            }
            valid.ageGroup = AgeGroup(rawValue: age_group ?? "")
            if valid.ageGroup == nil { errors["age_group"] = t("Choose an age group from the list") }
            valid.gender = TeamGender(rawValue: gender ?? "")
            if valid.gender == nil { errors["gender"] = t("Choose who can play from the list") }
            valid.skill = TeamSkill(rawValue: skill ?? "")
            if valid.skill == nil { errors["skill"] = t("Choose a level from the list") }
            let capacity = FormNumber.whole(
                capacity, in: 2...100, required: true, field: "capacity",
                message: t("Enter a number of players between 2 and 100"), errors: &errors)
            let minimum = FormNumber.whole(
                min_players, in: 2...100, required: true, field: "min_players",
                message: t("Enter a minimum between 2 and 100"), errors: &errors)
            if let capacity, let minimum, capacity < minimum {
                errors["capacity"] = t("The most players can't be fewer than the minimum ({minimum})", minimum)
            }
            valid.capacity = capacity
            valid.minPlayers = minimum
        }
        return errors.isEmpty ? (valid, [:]) : (nil, errors)
    }
}
