import FieldhouseKit
import Fluent
import Vapor

/// `POST /api/v1/checkins` from a device: `{"place": id, "lat": …, "lon": …}`. 201 with the code, or
/// the refusal's status with its `code` (outside, not_eligible, new_account, daily_limit, no_ride, not_a_ride,
/// vehicle, not_here, daily_cap, already_rewarded, no_reward) and a message a person can read.
/// `GET /api/v1/checkins/offer?lat=…&lon=…`: the place the recorder may offer a check-in at, here and now.
struct CheckinAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped(DeviceAuthMiddleware())
        api.post(PlacePath.apiCheckins, use: checkin)
        api.get(PlacePath.apiCheckinOffer, use: offer)
    }

    struct Input: Decodable {
        let place: String
        let lat: Double
        let lon: Double
    }

    struct Answer: Content {
        let code: String
        let reward: String
        let place: String
        /// The place's day the code is good for.
        let day: String
    }

    func checkin(req: Request) async throws -> Response {
        let user = try req.auth.require(User.self)
        let input = try APIJSON.decode(Input.self, from: req)
        guard let id = UUID(uuidString: input.place), let place = try await Place.find(id, on: req.db) else {
            throw APIError(status: .notFound, code: "unknown_place", reason: t("There is no place with that id."))
        }
        let position = Coordinate(latitude: input.lat, longitude: input.lon)
        guard position.isValid else {
            throw APIError(status: .unprocessableEntity, code: "bad_position", reason: t("lat must be from -90 to 90 and lon from -180 to 180."))
        }
        switch try await CheckIn.attempt(user, at: place, position: position, now: req.now, rules: req.application.config.cyclingRules, on: req.db) {
        case .rewarded(let code):
            return try await Answer(code: code.code, reward: code.rewardText, place: place.name, day: code.day).encodeResponse(status: .created, for: req)
        case .refused(let status, let code, let reason):
            throw APIError(status: status, code: code, reason: reason)
        }
    }

    struct OfferAnswer: Content {
        struct Offer: Content {
            /// The place's id, for `POST /api/v1/checkins`.
            let place: String
            let name: String
            let reward: String
            /// How far the position given is from the place's point, and how far counts as there.
            let distance_m: Int
            let radius_m: Int
            /// The place's page, where the person can also check in.
            let url: String
            /// What the recorder shows, in the person's language.
            let message: String
        }
        let offer: Offer?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(offer, forKey: .offer) // null, not missing, when there is nothing to offer
        }
    }

    /// The partner place whose circle holds the position given, when a check-in there would earn its
    /// reward now (`CheckIn.refusal`, and the counts its code would meet); else `{"offer": null}`. The
    /// person's own state only: nothing here tells them about anyone else.
    func offer(req: Request) async throws -> Response {
        let user = try req.auth.require(User.self)
        let query = APIQuery(req)
        let lat = try query.number("lat", in: -90...90, otherwise: t("lat must be a number from -90 to 90."))
        let lon = try query.number("lon", in: -180...180, otherwise: t("lon must be a number from -180 to 180."))
        guard let lat, let lon else {
            let missing = lat == nil ? "lat" : "lon"
            throw APIError(
                status: .badRequest, code: "invalid_query", reason: t("Give lat and lon: where the phone is now."), fields: [missing: t("Give it.")])
        }
        let position = Coordinate(latitude: lat, longitude: lon)
        let now = req.now, rules = req.application.config.cyclingRules
        var found: OfferAnswer.Offer?
        // Most calls come from people not eligible now: one look at their state answers them.
        let userID = try user.requireID()
        if let status = try await CyclingTracker.advance(userID, timeZone: user.timeZone, events: [], now: now, rules: rules, on: req.db),
            status.state.isEligible, try await CheckIn.dailyLimit(userID, now: now, on: req.db) == nil
        {
            let hits = try await PlaceSearch.rewarding(around: position, limit: 5, on: req.db)
            let places = Dictionary(uniqueKeysWithValues: try await Place.query(on: req.db).filter(\.$id ~~ hits.map(\.id)).all().map { ($0.id!, $0) })
            for hit in hits {
                guard let place = places[hit.id] else { continue }
                let day = LocalTime.day(of: now, zone: place.timeZone)
                guard let reward = place.reward(on: day),
                    try await CheckIn.refusal(user, at: place, position: position, now: now, rules: rules, on: req.db) == nil,
                    try await CheckIn.capReached(place, day: day, on: req.db) == false
                else { continue }
                found = OfferAnswer.Offer(
                    place: SiteURL.id(hit.id), name: place.name, reward: reward, distance_m: Int(hit.metres.rounded()), radius_m: Int(place.radius.rounded()),
                    url: SiteURL.place(hit.id).path, message: t("You're at {place}: check in for “{reward}”.", place.name, reward))
                break
            }
        }
        let response = try await OfferAnswer(offer: found).encodeResponse(for: req)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }
}
