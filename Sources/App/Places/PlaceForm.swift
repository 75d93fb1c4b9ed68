import FieldhouseKit
import Foundation
import Vapor

/// The place form as typed.
struct PlaceForm: Content {
    var name: String?
    var kind: String?
    var latitude: String?
    var longitude: String?
    var radius_m: String?
    var description: String?
    var opening_hours: String?
    var sports: [String]?
    var time_zone: String?
    /// Usernames of the people who manage it, separated by commas.
    var managers: String?

    init(zone: String) {
        radius_m = "100"
        time_zone = zone
        kind = Place.Kind.park.rawValue
    }

    init(_ place: Place, managers: [String]) {
        name = place.name
        kind = place.kind.rawValue
        latitude = FormNumber.text(place.latitude)
        longitude = FormNumber.text(place.longitude)
        radius_m = FormNumber.text(place.radius)
        description = place.description
        opening_hours = place.openingHours
        sports = place.sports.map(\.rawValue)
        time_zone = place.timeZone
        self.managers = managers.joined(separator: ", ")
    }

    struct Valid {
        let name: String
        let kind: Place.Kind
        let coordinate: Coordinate
        let radius: Double
        let description: String
        let openingHours: String
        let sports: [Sport]
        let timeZone: String
        let managers: [String]
    }

    func validate() -> (Valid?, FieldErrors) {
        var errors: FieldErrors = [:]
        let name = AccountRules.collapseWhitespace(self.name ?? "")
        if name.isEmpty || name.count > Place.maxName { errors["name"] = t("Give the place a name of up to {max} characters", Place.maxName) }
        let kind = Place.Kind(rawValue: self.kind ?? "")
        if kind == nil { errors["kind"] = t("Choose what kind of place it is") }
        let lat = FormNumber.read(latitude, in: -90...90, required: true, field: "latitude", message: t("Enter a latitude between -90 and 90"), errors: &errors)
        let lon = FormNumber.read(
            longitude, in: -180...180, required: true, field: "longitude", message: t("Enter a longitude between -180 and 180"), errors: &errors)
        let radius = FormNumber.read(
            radius_m, in: Place.radii, required: true, field: "radius_m",
            message: t(
                "Enter how far around the point counts as there: {min} to {max} metres", Int(Place.radii.lowerBound), Int(Place.radii.upperBound)),
            errors: &errors)
        let description = (self.description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if description.count > Place.maxDescription {
            errors["description"] = t("Keep it to {max} characters (it has {length})", Place.maxDescription, description.count)
        }
        let hours = AccountRules.collapseWhitespace(opening_hours ?? "")
        if hours.count > 200 { errors["opening_hours"] = t("Keep the opening hours to 200 characters") }
        var sports: [Sport] = []
        for raw in self.sports ?? [] {
            guard let sport = Sport(rawValue: raw) else { errors["sports"] = t("Choose sports from the list"); break }
            if !sports.contains(sport) { sports.append(sport) }
        }
        let zone = time_zone ?? ""
        if zone.isEmpty || zone.count > 64 || TimeZone.known(zone) == nil { errors["time_zone"] = t("Choose a time zone from the list") }
        let managers = (self.managers ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "@")).lowercased()
        }
        .filter { !$0.isEmpty }
        if managers.count > 20 { errors["managers"] = t("At most 20 managers") }
        guard errors.isEmpty, let kind, let lat, let lon, let radius else { return (nil, errors) }
        return (
            Valid(
                name: name, kind: kind, coordinate: Coordinate(latitude: lat, longitude: lon), radius: radius, description: description,
                openingHours: hours, sports: sports, timeZone: zone, managers: Array(Set(managers)).sorted()), [:]
        )
    }
}

/// The reward form as typed.
struct RewardForm: Content {
    var reward_text: String?
    var daily_cap: String?
    var from: String?
    var until: String?

    init(_ place: Place) {
        reward_text = place.rewardText
        daily_cap = place.rewardDailyCap > 0 ? String(place.rewardDailyCap) : "20"
        from = place.rewardFrom
        until = place.rewardUntil
    }

    struct Valid {
        let text: String
        let dailyCap: Int
        let from: CalendarDate?
        let until: CalendarDate?
    }

    func validate() -> (Valid?, FieldErrors) {
        var errors: FieldErrors = [:]
        let text = AccountRules.collapseWhitespace(reward_text ?? "")
        if text.count > 120 { errors["reward_text"] = t("Keep the offer to 120 characters (it has {length})", text.count) }
        let cap = FormNumber.whole(
            daily_cap, in: 1...10_000, required: !text.isEmpty, field: "daily_cap", message: t("Enter how many rewards a day at most: 1 to 10000"),
            errors: &errors
        )
        func day(_ raw: String?, _ field: String) -> CalendarDate? {
            guard let raw, !raw.isEmpty else { return nil }
            guard let date = CalendarDate(iso: raw) else { errors[field] = t("Enter a date such as 2026-12-01"); return nil }
            return date
        }
        let from = day(from, "from"), until = day(until, "until")
        if let from, let until, until < from { errors["until"] = t("The last day can't be before the first") }
        guard errors.isEmpty else { return (nil, errors) }
        return (Valid(text: text, dailyCap: text.isEmpty ? 0 : cap ?? 0, from: from, until: until), [:])
    }
}
