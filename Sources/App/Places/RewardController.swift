import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Rewards for arriving actively: the offer a place's managers set (`/places/{id}/reward`),
/// checking in from the browser (`/places/{id}/checkin`), the counter where a place redeems codes
/// (`/places/{id}/redeem`), and the person's own state, history and codes (`/rewards`).
struct RewardController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlacePath.placeReward, use: rewardForm)
        routes.post(PlacePath.placeReward, use: saveReward)
        routes.post(PlacePath.placeCheckin, use: checkin)
        routes.get(PlacePath.placeRedeem, use: redeemPage)
        routes.post(PlacePath.placeRedeem, use: redeem)
        routes.get(PlacePath.myRewards, use: rewards)
        routes.post(PlacePath.rewardSettings, use: settings)
    }

    // MARK: The offer

    struct RewardPage: Encodable {
        let layout: Layout
        let place: String
        let form: RewardForm
        let errors: FieldErrors
        let action: String
        let back: String
    }

    private func renderReward(_ req: Request, place: Place, form: RewardForm, errors: FieldErrors = [:], status: HTTPStatus = .ok) async throws
        -> Response
    {
        let id = try place.requireID()
        return try await req.view.render(
            "places/reward",
            RewardPage(
                layout: req.layout(title: t("Reward at {place}", place.name), section: .places, hasForms: true), place: place.name, form: form, errors: errors,
                action: SiteURL.placeReward(id).path, back: SiteURL.place(id).path)
        ).encodeResponse(status: status, for: req)
    }

    func rewardForm(req: Request) async throws -> Response {
        let access = try await PlaceAccess.manager(req, id: req.parameters.get("id"))
        return try await renderReward(req, place: access.place, form: RewardForm(access.place))
    }

    func saveReward(req: Request) async throws -> Response {
        let access = try await PlaceAccess.manager(req, id: req.parameters.get("id"))
        let form = try req.content.decode(RewardForm.self)
        let (valid, errors) = form.validate()
        guard let valid else { return try await renderReward(req, place: access.place, form: form, errors: errors, status: .unprocessableEntity) }
        let place = access.place
        place.rewardText = valid.text
        place.rewardDailyCap = valid.dailyCap
        place.rewardFrom = valid.from?.description
        place.rewardUntil = valid.until?.description
        try await place.save(on: req.db)
        req.flash(.success, valid.text.isEmpty ? t("No reward is offered now.") : t("Saved: “{offer}”, at most {cap} a day.", valid.text, valid.dailyCap))
        return req.redirect(to: .place(try place.requireID()))
    }

    // MARK: Checking in

    struct CheckinForm: Content {
        var latitude: String?
        var longitude: String?
    }

    func checkin(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let access = try await PlaceAccess.load(req, id: req.parameters.get("id"))
        let form = try req.content.decode(CheckinForm.self)
        let lat = FormNumber.coordinate(form.latitude, range: -90...90, axis: "latitude")
        let lon = FormNumber.coordinate(form.longitude, range: -180...180, axis: "longitude")
        guard let latitude = lat.value, let longitude = lon.value else {
            req.flash(.error, lat.error ?? lon.error ?? t("Press “Use where I am now” so we can tell you're there."))
            return req.redirect(to: .place(try access.place.requireID()))
        }
        let outcome = try await CheckIn.attempt(
            user, at: access.place, position: Coordinate(latitude: latitude, longitude: longitude), now: req.now,
            rules: req.application.config.cyclingRules, on: req.db)
        switch outcome {
        case .rewarded(let code):
            req.flash(.success, t("Checked in at {place}: show code {code} at the counter for “{reward}”.", access.place.name, code.code, code.rewardText))
            return req.redirect(to: .myRewards)
        case .refused(_, let code, let reason):
            // Refusals that depend on the person's own rewards state point to where it is shown and changed.
            let aboutRewards = ["rewards_off", "not_eligible", "no_ride", "not_a_ride", "vehicle", "daily_limit"].contains(code)
            req.flash(.error, reason, link: aboutRewards ? (t("Open Rewards"), .myRewards) : nil)
            return req.redirect(to: .place(try access.place.requireID()))
        }
    }

    // MARK: The counter

    struct Redeemed: Encodable {
        let code: String
        let reward: String
        let when: String
    }

    struct RedeemPage: Encodable {
        let layout: Layout
        let place: String
        let code: String
        let error: String?
        let result: String?
        let today: Int
        let redeemedToday: Int
        let cap: Int
        let recent: [Redeemed]
        let action: String
        let back: String
    }

    private func renderRedeem(_ req: Request, place: Place, code: String = "", error: String? = nil, result: String? = nil, status: HTTPStatus = .ok)
        async throws -> Response
    {
        let id = try place.requireID()
        let day = LocalTime.day(of: req.now, zone: place.timeZone).description
        let format = Format(imperial: false, zone: TimeZone.named(place.timeZone))
        // Codes and counts only: a place never learns who earned a code.
        let today = try await RewardCode.query(on: req.db).filter(\.$place.$id == id).filter(\.$day == day).count()
        let redeemedToday = try await RewardCode.query(on: req.db).filter(\.$place.$id == id).filter(\.$day == day).filter(\.$redeemedAt != nil).count()
        let recent = try await RewardCode.query(on: req.db).filter(\.$place.$id == id).filter(\.$redeemedAt != nil).sort(\.$redeemedAt, .descending)
            .limit(20).all().map { Redeemed(code: $0.code, reward: $0.rewardText, when: $0.redeemedAt.map(format.shortWhen) ?? "") }
        return try await req.view.render(
            "places/redeem",
            RedeemPage(
                layout: req.layout(title: t("Redeem codes at {place}", place.name), section: .places, hasForms: true), place: place.name, code: code,
                error: error,
                result: result, today: today, redeemedToday: redeemedToday, cap: place.rewardDailyCap, recent: recent, action: SiteURL.placeRedeem(id).path,
                back: SiteURL.place(id).path)
        ).encodeResponse(status: status, for: req)
    }

    func redeemPage(req: Request) async throws -> Response {
        let access = try await PlaceAccess.manager(req, id: req.parameters.get("id"))
        return try await renderRedeem(req, place: access.place)
    }

    struct RedeemForm: Content { var code: String? }

    func redeem(req: Request) async throws -> Response {
        let access = try await PlaceAccess.manager(req, id: req.parameters.get("id"))
        let place = access.place
        let id = try place.requireID()
        let typed = try req.content.decode(RedeemForm.self).code ?? ""
        let code = RewardCode.normalise(typed)
        guard code.count == 8, code.allSatisfy({ RewardCode.alphabet.contains($0) }) else {
            return try await renderRedeem(
                req, place: place, code: typed, error: t("A code is 8 letters and digits, like K7QM4TRW"), status: .unprocessableEntity)
        }
        let now = req.now
        let today = LocalTime.day(of: now, zone: place.timeZone).description
        // One statement decides: of two counters redeeming at once, exactly one changes the row.
        let changed = try await req.db.sql.raw(
            """
            UPDATE reward_codes SET redeemed_at = \(bind: now)
            WHERE place_id = \(bind: id) AND code = \(bind: code) AND redeemed_at IS NULL AND day = \(bind: today)
            RETURNING reward_text
            """
        ).all()
        if let row = changed.first {
            let reward = try row.decode(column: "reward_text", as: String.self)
            return try await renderRedeem(req, place: place, result: t("Redeemed {code}: {reward}.", code, reward))
        }
        guard let known = try await RewardCode.query(on: req.db).filter(\.$place.$id == id).filter(\.$code == code).first() else {
            return try await renderRedeem(
                req, place: place, code: typed, error: t("{code} is not a code of {place}", code, place.name), status: .unprocessableEntity)
        }
        let format = Format(imperial: false, zone: TimeZone.named(place.timeZone))
        if let at = known.redeemedAt {
            return try await renderRedeem(
                req, place: place, code: typed, error: t("{code} was already redeemed, {when}", code, format.shortWhen(at)), status: .conflict)
        }
        return try await renderRedeem(req, place: place, code: typed, error: t("{code} was for {day} and has run out", code, known.day), status: .conflict)
    }

    // MARK: Mine

    struct Step: Encodable {
        let when: String
        let from: String
        let to: String
        let cause: String
    }

    struct Code: Encodable {
        let code: String
        let place: String
        let placeURL: String
        let reward: String
        let state: String
        let drawing: String
    }

    struct RewardsPage: Encodable {
        let layout: Layout
        let enabled: Bool
        let settingsAction: String
        let state: String
        let eligible: Bool
        let explanation: String
        let codes: [Code]
        let history: [Step]
        let places: String
        let devices: String
    }

    struct SettingsForm: Content { var enabled: String? }

    /// Rewards are off until the person turns them on: only then are their readings looked at.
    func settings(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let on = try req.content.decode(SettingsForm.self).enabled == "on"
        try await CyclingTracker.set(on, for: user.requireID(), on: req.db)
        req.flash(
            .success,
            on
                ? t("Rewards are on: from now on your phone's motion readings say whether you're cycling.")
                : t("Rewards are off, and what your readings showed is deleted."))
        return req.redirect(to: .myRewards)
    }

    static func label(_ state: CyclingEligibility.State) -> String {
        switch state {
        case .ineligible: t("Not cycling")
        case .cyclingIneligible: t("Cycling, not long enough yet")
        case .cyclingEligible: t("Cycling: rewards are yours today")
        case .unknownEligible: t("Stopped cycling: rewards are yours until the day ends")
        case .vehicular: t("In a vehicle")
        }
    }

    func rewards(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let rules = req.application.config.cyclingRules
        let status = try await CyclingTracker.advance(userID, timeZone: user.timeZone, events: [], now: req.now, rules: rules, on: req.db)
        let state = status?.state ?? .ineligible
        let format = Format(user)
        let history = try await CyclingTransition.query(on: req.db).filter(\.$user.$id == userID).sort(\.$atMS, .descending).limit(50).all().map {
            Step(
                when: format.when($0.atMS), from: CyclingEligibility.State(rawValue: $0.from).map(Self.label) ?? $0.from,
                to: CyclingEligibility.State(rawValue: $0.to).map(Self.label) ?? $0.to, cause: CyclingTracker.causeText($0.cause))
        }
        let codes = try await RewardCode.query(on: req.db).filter(\.$user.$id == userID).sort(\.$issuedAt, .descending).limit(30).with(\.$place).all()
            .map { code in
                let current = code.redeemedAt == nil && code.day == LocalTime.day(of: req.now, zone: code.place.timeZone).description
                return Code(
                    code: code.code, place: code.place.name, placeURL: SiteURL.place(code.place.id!).path, reward: code.rewardText,
                    state: code.redeemedAt.map { t("Redeemed {when}", format.shortWhen($0)) }
                        ?? (current ? t("Show it at the counter today") : t("Ran out at the end of {day}", code.day)),
                    drawing: current ? RewardCodeDrawing.svg(code.code) : "")
            }
        let explanation = tn(
            "Partner places reward arriving by bike. Rewards need {minutes} of cycling that your phone reports through the device API ({count} readings in a row to start or stop counting). What it decides stays with you: places see only codes.",
            "Partner places reward arriving by bike. Rewards need {minutes} of cycling that your phone reports through the device API ({count} readings in a row to start or stop counting). What it decides stays with you: places see only codes.",
            rules.readingsInARow, CyclingTracker.minutesText(rules.cyclingSeconds))
        // What a check-in then asks of the phone's positions (`RideCheck`), and of a new account.
        let ride = t(
            "At the door, your phone's positions from the last {minutes} must show the ride ending there, sent as you ride (they are kept an hour for this, then deleted). New accounts earn codes from their second day, or once their e-mail address is confirmed.",
            CyclingTracker.minutesText(RideCheck.window(rules)))
        return try await req.view.render(
            "places/rewards",
            RewardsPage(
                layout: req.layout(title: t("Rewards"), section: .places), enabled: status != nil, settingsAction: SiteURL.rewardSettings.path,
                state: Self.label(state), eligible: state.isEligible,
                explanation: explanation + " " + ride, codes: codes, history: history, places: SiteURL.places.with([("kind", Place.Kind.cafe.rawValue)]),
                devices: SiteURL.deviceSettings.path)
        ).encodeResponse(for: req)
    }
}

/// A code drawn as a grid of squares, QR-like, for a counter's eye and a phone's screen: each
/// character's five bits in a column, framed by a fixed border so the drawing reads as one thing.
/// The code in text beside it is what counts.
enum RewardCodeDrawing {
    static func svg(_ code: String) -> String {
        let cells = Array(code.utf8)
        let size = 10.0
        let columns = cells.count + 2, rows = 7
        var out =
            "<svg class=\"reward-code\" viewBox=\"0 0 \(Int(Double(columns) * size)) \(Int(Double(rows) * size))\" role=\"img\" aria-label=\"\(SVGMap.escape(t("Code {code} drawn as squares", code)))\" xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
        for x in 0..<columns {
            for y in 0..<rows {
                let border = x == 0 || y == 0 || x == columns - 1 || y == rows - 1
                let on: Bool
                if border {
                    on = (x + y) % 2 == 0
                } else {
                    on = (Int(cells[x - 1]) >> (y - 1)) & 1 == 1
                }
                if on { out += "<rect x=\"\(Int(Double(x) * size))\" y=\"\(Int(Double(y) * size))\" width=\"10\" height=\"10\" fill=\"#17202a\"/>" }
            }
        }
        return out + "</svg>"
    }
}
