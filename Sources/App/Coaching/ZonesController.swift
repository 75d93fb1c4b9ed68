import FieldhouseKit
import Fluent
import Vapor

/// Heart-rate zones: `/settings/zones` for one's own, `/coach/athletes/{username}/zones` for an
/// athlete's coach. Saving recomputes the last four weeks' workouts, so time in zones and load
/// (and the coach's dashboard) follow at once; older workouts keep the zones they were summed with.
struct ZonesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CoachPath.zoneSettings, use: ownPage)
        routes.post(CoachPath.zoneSettings, use: saveOwn)
        routes.get(CoachPath.athleteZones, use: coachPage)
        routes.post(CoachPath.athleteZones, use: saveByCoach)
    }

    struct Form: Content {
        var max_hr: String?
        var resting_hr: String?
        var basis: String?
        var zone1: String?
        var zone2: String?
        var zone3: String?
        var zone4: String?
        var zone5: String?

        var percents: [String?] { [zone1, zone2, zone3, zone4, zone5] }
    }

    struct Zone: Encodable {
        let number: Int
        let field: String
        let value: String
        let bpm: String
        let error: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let action: String
        let back: String
        /// The person's own zones (under Settings) rather than an athlete's seen by their coach.
        let own: Bool
        let heading: String
        let form: Form
        let zones: [Zone]
        let errors: FieldErrors
        let estimate: String
    }

    func ownPage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        return try await render(req, athlete: user, action: SiteURL.zoneSettings.path, back: SiteURL.coachSettings.path, own: true)
    }

    func coachPage(req: Request) async throws -> Response {
        let athlete = try await AthleteAccess.load(req, coach: try req.requireUser()).athlete
        return try await render(
            req, athlete: athlete, action: SiteURL.athleteZones(username: athlete.username).path,
            back: SiteURL.athlete(username: athlete.username).path, own: false)
    }

    func saveOwn(req: Request) async throws -> Response {
        try await save(req, athlete: try req.requireUser(), action: SiteURL.zoneSettings.path, back: SiteURL.coachSettings.path, own: true)
    }

    func saveByCoach(req: Request) async throws -> Response {
        let coach = try req.requireUser()
        let athlete = try await AthleteAccess.load(req, coach: coach).athlete
        let response = try await save(
            req, athlete: athlete, action: SiteURL.athleteZones(username: athlete.username).path,
            back: SiteURL.athlete(username: athlete.username).path, own: false)
        if response.status == .seeOther {
            try await Notification.send(
                to: [athlete.requireID()], from: coach.id, kind: .zonesChanged,
                text: t("{name} updated your heart-rate zones.", coach.displayName), link: SiteURL.zoneSettings.path, on: req.db)
        }
        return response
    }

    private func render(
        _ req: Request, athlete: User, action: String, back: String, own: Bool,
        form: Form? = nil, errors: FieldErrors = [:]
    ) async throws -> Response {
        let current = athlete.heartRateZones
        let form =
            form
            ?? Form(
                max_hr: current.map { "\($0.maximum)" } ?? "", resting_hr: athlete.restingHeartRate.map(String.init) ?? "",
                basis: current?.basis.rawValue ?? "max",
                zone1: "\(current?.percents[0] ?? 50)", zone2: "\(current?.percents[1] ?? 60)", zone3: "\(current?.percents[2] ?? 70)",
                zone4: "\(current?.percents[3] ?? 80)", zone5: "\(current?.percents[4] ?? 90)")
        // The limits in bpm for what the form holds, only when it adds up: typed numbers can be anything.
        let parsed = Self.parse(form)
        let sound = HeartRateZones.problems(maximum: parsed.maximum, resting: parsed.resting, basis: parsed.basis, percents: parsed.percents).isEmpty
        let limits =
            sound
            ? parsed.maximum.map {
                HeartRateZones(
                    maximum: $0, resting: parsed.resting, basis: parsed.basis,
                    percents: parsed.percents.map { $0 ?? 0 }
                ).limits
            } : nil
        let zones = form.percents.enumerated().map { index, value in
            Zone(
                number: index + 1, field: "zone\(index + 1)", value: value ?? "",
                bpm: limits.map { t("from {bpm} bpm", $0[index]) } ?? "", error: errors["zone\(index + 1)"])
        }
        let age = athlete.birthDate.flatMap(CalendarDate.init(iso:))?.age(on: req.clock.today)
        let estimate =
            age.map { t("Without a measured maximum, Fieldhouse uses 208 − 0.7 × age (Tanaka 2001): {bpm} bpm.", Int((208 - 0.7 * Double($0)).rounded())) }
            ?? t("Without a measured maximum, Fieldhouse assumes 190 bpm.")
        let heading = own ? t("Your heart-rate zones") : t("{name}'s heart-rate zones", athlete.displayName)
        let page = Page(
            layout: req.layout(title: heading, section: own ? .settings : nil), action: action, back: back, own: own, heading: heading,
            form: form, zones: zones, errors: errors, estimate: estimate)
        return try await req.view.render("coaching/zones", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    private static func parse(_ form: Form) -> (maximum: Int?, resting: Int?, basis: HeartRateZones.Basis, percents: [Int?]) {
        func number(_ text: String?) -> Int? {
            guard case .value(let value) = NumberInput.read(text), !(text ?? "").contains(where: { $0 == "," || $0 == "." }) else { return nil }
            return Int(exactly: value)
        }
        return (
            number(form.max_hr), number(form.resting_hr), HeartRateZones.Basis(rawValue: form.basis ?? "") ?? .maximum,
            form.percents.map(number)
        )
    }

    private func save(_ req: Request, athlete: User, action: String, back: String, own: Bool) async throws -> Response {
        let form = try req.content.decode(Form.self)
        let parsed = Self.parse(form)
        var errors = FieldErrors(HeartRateZones.problems(maximum: parsed.maximum, resting: parsed.resting, basis: parsed.basis, percents: parsed.percents))
        if HeartRateZones.Basis(rawValue: form.basis ?? "") == nil { errors["basis"] = t("Choose how the zones are counted.") }
        if !(form.max_hr ?? "").isEmpty && parsed.maximum == nil { errors["max_hr"] = t("Enter the maximum as a whole number of beats per minute.") }
        if !(form.resting_hr ?? "").isEmpty && parsed.resting == nil { errors["resting_hr"] = t("Enter the resting heart rate as a whole number.") }
        guard errors.isEmpty, let maximum = parsed.maximum else {
            return try await render(req, athlete: athlete, action: action, back: back, own: own, form: form, errors: errors)
        }
        athlete.maxHeartRate = maximum
        athlete.restingHeartRate = parsed.resting
        athlete.zoneBasis = parsed.basis.rawValue
        athlete.zonePercents = parsed.percents.compactMap { $0 }.map(String.init).joined(separator: ",")
        try await athlete.save(on: req.db)
        // The last four weeks take the new zones now.
        let since = req.clock.milliseconds - 28 * 86_400_000
        let recent = try await Workout.query(on: req.db).filter(\.$user.$id == athlete.requireID()).filter(\.$startMS >= since)
            .filter(\.$endMS != nil).filter(\.$source != "manual").all()
        for workout in recent {
            try await workout.summarise(for: athlete, on: req.db)
            try await workout.save(on: req.db)
        }
        req.flash(
            .success,
            tn(
                "Saved. Zones now start at {limits} bpm; {count} recent workout recomputed.",
                "Saved. Zones now start at {limits} bpm; {count} recent workouts recomputed.", recent.count,
                athlete.heartRateZones!.limits.map(String.init).joined(separator: ", "))
        )
        return req.redirect(to: action)
    }
}
