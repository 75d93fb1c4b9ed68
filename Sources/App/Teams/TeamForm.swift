import FieldhouseKit
import Foundation
import Vapor

/// The team form as typed, and its validation into values or per-field messages. Leagues share the
/// common fields (name, sport, level, place) through `Attributes`.
struct TeamForm: Content {
    var name: String?
    var sport: String?
    var privacy: String?
    var place_name: String?
    var latitude: String?
    var longitude: String?
    var age_group: String?
    var gender: String?
    var skill: String?
    var description: String?
    var looking_for_players: String?

    init() {
        privacy = Team.Privacy.protected.rawValue
        age_group = AgeGroup.any.rawValue
        gender = TeamGender.any.rawValue
        skill = TeamSkill.any.rawValue
        looking_for_players = "on"
    }

    init(team: Team) {
        name = team.name
        sport = team.sport
        privacy = team.privacy.rawValue
        place_name = team.placeName
        latitude = team.latitude.map(FormNumber.text)
        longitude = team.longitude.map(FormNumber.text)
        age_group = team.ageGroup
        gender = team.gender
        skill = team.skill
        description = team.description
        looking_for_players = team.lookingForPlayers ? "on" : nil
    }

    struct Valid {
        var name: String
        var sport: Sport
        var privacy: Team.Privacy
        var place: NamedPlace
        var ageGroup: AgeGroup
        var gender: TeamGender
        var skill: TeamSkill
        var description: String
        var lookingForPlayers: Bool
    }

    func validate() -> (Valid?, FieldErrors) {
        var errors: FieldErrors = [:]
        let attributes = Attributes.validate(
            name: name, sport: sport, ageGroup: age_group, gender: gender, skill: skill,
            placeName: place_name, latitude: latitude, longitude: longitude, errors: &errors
        )
        let privacyValue = Team.Privacy(rawValue: privacy ?? "")
        if privacyValue == nil { errors["privacy"] = t("Choose who can find and join the team") }
        let text = (description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > 5000 {
            errors["description"] = t("Keep the description to 5,000 characters or fewer (it has {count})", text.count)
        }
        guard errors.isEmpty, let attributes, let privacyValue else { return (nil, errors) }
        return (
            Valid(
                name: attributes.name, sport: attributes.sport, privacy: privacyValue, place: attributes.place,
                ageGroup: attributes.ageGroup, gender: attributes.gender, skill: attributes.skill,
                description: text, lookingForPlayers: looking_for_players == "on"
            ), [:]
        )
    }
}

/// A named place with optional coordinates.
struct NamedPlace {
    var name: String?
    var latitude: Double?
    var longitude: Double?
}

/// Fields teams and leagues share, validated the same way with the same messages.
struct Attributes {
    var name: String
    var sport: Sport
    var ageGroup: AgeGroup
    var gender: TeamGender
    var skill: TeamSkill
    var place: NamedPlace

    static func validate(
        name rawName: String?, sport: String?, ageGroup: String?, gender: String?, skill: String?,
        placeName: String?, latitude: String?, longitude: String?, errors: inout FieldErrors
    ) -> Attributes? {
        let name = AccountRules.collapseWhitespace(rawName ?? "")
        if name.isEmpty {
            errors["name"] = t("Enter a name")
        } else if Slug.make(name).isEmpty {
            errors["name"] = t("Use some letters or digits in the name")
        } else if name.count > 80 {
            errors["name"] = t("Keep the name to 80 characters or fewer")
        }
        let sportValue = Sport(rawValue: sport ?? "")
        if sportValue == nil { errors["sport"] = t("Choose a sport from the list") }
        let ageValue = AgeGroup(rawValue: ageGroup ?? "")
        if ageValue == nil { errors["age_group"] = t("Choose an age group from the list") }
        let genderValue = TeamGender(rawValue: gender ?? "")
        if genderValue == nil { errors["gender"] = t("Choose who can play from the list") }
        let skillValue = TeamSkill(rawValue: skill ?? "")
        if skillValue == nil { errors["skill"] = t("Choose a level from the list") }

        let place = AccountRules.collapseWhitespace(placeName ?? "")
        if place.count > 120 { errors["place_name"] = t("Keep the place name to 120 characters or fewer") }
        let lat = FormNumber.coordinate(latitude, range: -90...90, axis: "latitude")
        let lon = FormNumber.coordinate(longitude, range: -180...180, axis: "longitude")
        errors["latitude"] = lat.error
        errors["longitude"] = lon.error
        if lat.error == nil, lon.error == nil, (lat.value == nil) != (lon.value == nil) {
            errors[lat.value == nil ? "latitude" : "longitude"] = t("Enter both latitude and longitude, or neither")
        }
        guard let sportValue, let ageValue, let genderValue, let skillValue,
            errors["name"] == nil, errors["latitude"] == nil, errors["longitude"] == nil, errors["place_name"] == nil
        else { return nil }
        return Attributes(
            name: name, sport: sportValue, ageGroup: ageValue, gender: genderValue, skill: skillValue,
            place: NamedPlace(name: place.isEmpty ? nil : place, latitude: lat.value, longitude: lon.value)
        )
    }
}

/// The choices the team and league forms offer, as (value, label) pairs for the templates.
struct Choices: Encodable {
    let sports = Sport.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }
    let ageGroups = AgeGroup.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }
    let genders = TeamGender.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }
    let skills = TeamSkill.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }
    let privacies = Team.Privacy.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }
    /// Find's days in words and orders (`FindQuery`).
    let days = [("today", t("Today")), ("tomorrow", t("Tomorrow")), ("weekend", t("This weekend"))].map { SelectOption(value: $0.0, label: $0.1) }
    let sorts = [SelectOption(value: "distance", label: t("Nearest first")), SelectOption(value: "time", label: t("Soonest first"))]
}

/// "15–17 · Mixed · Intermediate": who a team, league or game is for, in one line.
func levelLabel(ageGroup: String, gender: String, skill: String) -> String {
    [AgeGroup(rawValue: ageGroup)?.label, TeamGender(rawValue: gender)?.label, TeamSkill(rawValue: skill)?.label]
        .compactMap { $0 }.joined(separator: " · ")
}
