import FieldhouseKit
import Fluent
import Foundation
import Vapor

/// What someone searching for a game or a team asks for; read from the query string, with one
/// message per bad field.
struct FindQuery {
    var centre: Coordinate?
    var radiusKm: Double = 25
    var sport: Sport?
    var skill: TeamSkill?
    var ageGroup: AgeGroup?
    var gender: TeamGender?
    var from: Date?
    var to: Date?
    /// Games soonest first instead of nearest first ("sort=time").
    var byTime = false
    var errors: FieldErrors = [:]
    /// The text as typed, to put back into the form and the paging links.
    var echo: [(String, String)] = []
    /// A place typed by name ("Riverside", "Lisboa"), found by `resolvePlace`; it wins over coordinates.
    var placeText = ""

    init(_ req: Request) {
        func text(_ key: String) -> String {
            let value = (req.query[String.self, at: key] ?? "").trimmingCharacters(in: .whitespaces)
            echo.append((key, value))
            return value
        }
        placeText = text("place")
        let latText = text("lat"), lonText = text("lon")
        let lat = FormNumber.coordinate(latText, range: -90...90, axis: "latitude")
        let lon = FormNumber.coordinate(lonText, range: -180...180, axis: "longitude")
        errors["lat"] = lat.error
        errors["lon"] = lon.error
        if let latitude = lat.value, let longitude = lon.value {
            centre = Coordinate(latitude: latitude, longitude: longitude)
        } else if placeText.isEmpty, latText.isEmpty, lonText.isEmpty, let home = req.currentUser, let hlat = home.homeLat, let hlon = home.homeLon {
            centre = Coordinate(latitude: hlat, longitude: hlon)
        } else if lat.error == nil, lon.error == nil, latText.isEmpty != lonText.isEmpty {
            errors[latText.isEmpty ? "lat" : "lon"] = t("Enter both latitude and longitude")
        }
        let radiusText = text("radius_km")
        if let radius = FormNumber.read(radiusText, in: 1...200, field: "radius_km", message: t("Choose a distance between 1 and 200 km"), errors: &errors) {
            radiusKm = radius
        }
        func pick<T: RawRepresentable>(_ key: String, _ type: T.Type, message: String) -> T? where T.RawValue == String {
            let raw = text(key)
            guard !raw.isEmpty else { return nil }
            guard let value = T(rawValue: raw) else { errors[key] = message; return nil }
            return value
        }
        sport = pick("sport", Sport.self, message: t("Choose a sport from the list"))
        skill = pick("skill", TeamSkill.self, message: t("Choose a level from the list"))
        ageGroup = pick("age", AgeGroup.self, message: t("Choose an age group from the list"))
        gender = pick("gender", TeamGender.self, message: t("Choose from the list"))
        // Dates are whole days in the searcher's zone: "to" includes the whole of that day.
        let zone = req.currentUser?.timeZone ?? "UTC"
        for key in ["from", "to"] {
            let raw = text(key)
            guard !raw.isEmpty else { continue }
            guard let start = LocalTime.instant(day: raw, time: "00:00", zone: zone) else {
                errors[key] = t("Enter a date such as 2026-11-26")
                continue
            }
            if key == "from" { from = start } else { to = start.addingTimeInterval(86_400) }
        }
        if let from, let to, to <= from { errors["to"] = t("The last day can't be before the first") }
        // "when": a day in words (today, tomorrow, the weekend) when no dates are given.
        let when = text("when")
        if from == nil, to == nil, !when.isEmpty {
            if let range = Self.days(when, zone: zone, now: req.now) { (from, to) = range } else { errors["when"] = t("Choose a day from the list") }
        }
        switch text("sort") {
        case "", "distance": byTime = false
        case "time": byTime = true
        default: errors["sort"] = t("Sort by distance or by time")
        }
    }

    /// The instants `when` covers in `zone`: today (what is left of it), tomorrow, or the coming
    /// weekend (Saturday and Sunday; today's rest when it is one of them).
    static func days(_ when: String, zone: String, now: Date) -> (Date, Date)? {
        let today = LocalTime.parts(of: now, zone: zone).day
        guard let day = CalendarDate(iso: today) else { return nil }
        func start(_ offset: Int) -> Date? { LocalTime.instant(day: day.adding(days: offset).description, time: "00:00", zone: zone) }
        switch when {
        case "today": return start(1).map { (now, $0) }
        case "tomorrow": return start(1).flatMap { from in start(2).map { (from, $0) } }
        case "weekend":
            // CalendarDate.weekday: 0 is Sunday, 6 Saturday.
            switch day.weekday {
            case 6: return start(2).map { (now, $0) }
            case 0: return start(1).map { (now, $0) }
            default: return start(6 - day.weekday).flatMap { from in start(8 - day.weekday).map { (from, $0) } }
            }
        default: return nil
        }
    }

    /// Finds the typed place; the form then shows its name as offered and its coordinates.
    mutating func resolvePlace(viewer: User?, features: [any Feature.Type], on db: any Database) async throws {
        guard !placeText.isEmpty else { return }
        guard let place = try await PlaceFinder.resolve(placeText, home: viewer?.homePlace, from: features, on: db) else {
            errors["place"] = t("No place called “{place}” was found. Try a town's name, or use your current location.", placeText)
            centre = nil
            return
        }
        centre = place.coordinate
        errors["lat"] = nil
        errors["lon"] = nil
        let shown = ["place": place.label, "lat": FormNumber.text(place.latitude), "lon": FormNumber.text(place.longitude)]
        echo = echo.map { key, value in (key, shown[key] ?? value) }
    }

    var isValid: Bool { errors.isEmpty }
    func value(_ key: String) -> String { echo.first { $0.0 == key }?.1 ?? "" }
}

extension FindQuery {
    /// A search set in code rather than read from a request (games at a place).
    init(centre: Coordinate, radiusKm: Double) {
        self.centre = centre
        self.radiusKm = radiusKm
    }
}
