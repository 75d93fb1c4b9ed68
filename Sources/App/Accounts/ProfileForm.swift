import FieldhouseKit
import Foundation
import Vapor

/// The profile settings form as typed, and its validation into values or per-field messages.
struct ProfileForm: Content {
    var display_name: String?
    var bio: String?
    var birth_date: String?
    var gender: String?
    var height_cm: String?
    var weight_kg: String?
    var home_name: String?
    var home_lat: String?
    var home_lon: String?
    var time_zone: String?
    var units: String?
    /// "24h" or "12h"; left out (a form from before the choice) keeps the person's choice.
    var clock: String?
    /// A language's code, or "" to follow the browser.
    var language: String?
    var continuous_hr: String?
    /// Skill per sport, keyed by the sport's raw value; "" means "don't play".
    var sports: [String: String]?

    init(user: User) {
        display_name = user.displayName
        bio = user.bio
        birth_date = user.birthDate
        gender = user.gender.rawValue
        height_cm = user.heightCm.map(Self.number)
        weight_kg = user.weightKg.map(Self.number)
        home_name = user.homeName
        home_lat = user.homeLat.map(Self.number)
        home_lon = user.homeLon.map(Self.number)
        time_zone = user.timeZone
        units = user.units.rawValue
        clock = user.clock.rawValue
        language = user.languageCode ?? ""
        continuous_hr = user.continuousHeartRate ? "on" : nil
        sports = Dictionary(uniqueKeysWithValues: (user.$sports.value ?? []).map { ($0.sport, $0.skill) })
    }

    struct Valid {
        var displayName: String
        var bio: String?
        var birthDate: CalendarDate
        var gender: User.Gender
        /// Optional: without them calories are estimated for a 70 kg person, and the workout says so.
        var heightCm: Double?
        var weightKg: Double?
        var homeName: String?
        var homeLat: Double?
        var homeLon: Double?
        var timeZone: String
        var units: User.Units
        /// nil: as it was.
        var clock: ClockStyle?
        /// nil: as the browser asks.
        var language: Language?
        var continuousHeartRate: Bool
        var sports: [(Sport, Skill)]
    }

    func validate(today: CalendarDate) -> (Valid?, FieldErrors) {
        var errors: FieldErrors = [:]
        let name = AccountRules.displayName(display_name)
        errors["display_name"] = name.error
        let bioText = (bio ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if bioText.count > 500 { errors["bio"] = t("Keep your bio to 500 characters or fewer (it has {count})", bioText.count) }
        let birth = AccountRules.birthDate(birth_date, today: today)
        errors["birth_date"] = birth.error
        let genderValue = User.Gender(rawValue: gender ?? "unspecified")
        if genderValue == nil { errors["gender"] = t("Choose one of the options") }
        let height = Self.measure(height_cm, .height, range: 50...260)
        errors["height_cm"] = height.error
        let weight = Self.measure(weight_kg, .weight, range: 20...350)
        errors["weight_kg"] = weight.error

        let place = AccountRules.collapseWhitespace(home_name ?? "")
        if place.count > 80 { errors["home_name"] = t("Keep the place name to 80 characters or fewer") }
        let lat = FormNumber.coordinate(home_lat, range: -90...90, axis: "latitude")
        let lon = FormNumber.coordinate(home_lon, range: -180...180, axis: "longitude")
        errors["home_lat"] = lat.error
        errors["home_lon"] = lon.error
        if lat.error == nil, lon.error == nil, (lat.value == nil) != (lon.value == nil) {
            errors[lat.value == nil ? "home_lat" : "home_lon"] = t("Enter both latitude and longitude, or neither")
        }

        let zone = (time_zone ?? "").trimmingCharacters(in: .whitespaces)
        if zone.isEmpty || TimeZone.known(zone) == nil { errors["time_zone"] = t("Choose your time zone from the list") }
        let unitsValue = User.Units(rawValue: units ?? "")
        if unitsValue == nil { errors["units"] = t("Choose metric or imperial units") }
        let clockValue = clock.flatMap(ClockStyle.init(rawValue:))
        if clock != nil, clockValue == nil { errors["clock"] = t("Choose the 24-hour or the 12-hour clock") }
        let chosenLanguage = (language ?? "").isEmpty ? nil : Language(rawValue: language ?? "")
        if !(language ?? "").isEmpty, chosenLanguage == nil { errors["language"] = t("Choose a language from the list") }

        var played: [(Sport, Skill)] = []
        for (key, level) in sports ?? [:] where !level.isEmpty {
            guard let sport = Sport(rawValue: key), let skill = Skill(rawValue: level) else {
                errors["sports"] = t("Choose a skill level from the list for each sport you play")
                continue
            }
            played.append((sport, skill))
        }

        guard errors.isEmpty, let birthDate = birth.value, let genderValue, let unitsValue else { return (nil, errors) }
        return (
            Valid(
                displayName: name.value, bio: bioText.isEmpty ? nil : bioText, birthDate: birthDate,
                gender: genderValue, heightCm: height.value, weightKg: weight.value,
                homeName: place.isEmpty ? nil : place,
                homeLat: lat.value.map(Self.coarse), homeLon: lon.value.map(Self.coarse),
                timeZone: zone, units: unitsValue, clock: clockValue, language: chosenLanguage, continuousHeartRate: continuous_hr == "on",
                sports: played.sorted { $0.0.rawValue < $1.0.rawValue }
            ), [:]
        )
    }

    /// Home is kept coarse (about 1 km), enough for "games near me" and no more.
    static func coarse(_ degrees: Double) -> Double { (degrees * 100).rounded() / 100 }

    private enum Measure { case height, weight }

    private static func measure(_ raw: String?, _ kind: Measure, range: ClosedRange<Double>) -> (value: Double?, error: String?) {
        let example = Int(range.lowerBound + (range.upperBound - range.lowerBound) / 3)
        let (low, high) = (Int(range.lowerBound), Int(range.upperBound))
        switch NumberInput.read(raw) {
        case .blank: return (nil, nil)
        case .invalid(let ambiguous):
            if ambiguous {
                return (nil, (kind == .height ? t("Enter your height.") : t("Enter your weight.")) + " " + NumberInput.ambiguityHint)
            }
            return (
                nil,
                kind == .height
                    ? t("Enter your height as a number, like {example}", example) : t("Enter your weight as a number, like {example}", example)
            )
        case .value(let value):
            guard range.contains(value) else {
                return (
                    nil,
                    kind == .height
                        ? t("Enter a height between {min} and {max} cm", low, high) : t("Enter a weight between {min} and {max} kg", low, high)
                )
            }
            return ((value * 10).rounded() / 10, nil)
        }
    }

    private static func number(_ value: Double) -> String {
        FormNumber.text(value)
    }
}
