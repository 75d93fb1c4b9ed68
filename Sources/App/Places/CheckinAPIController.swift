import FieldhouseKit
import Fluent
import Vapor

/// `POST /api/v1/checkins` from a device: `{"place": id, "lat": …, "lon": …}`. 201 with the code, or
/// the refusal's status with its `code` (outside, not_eligible, new_account, daily_limit, no_ride, not_a_ride,
/// vehicle, not_here, daily_cap, already_rewarded, no_reward) and a message a person can read.
struct CheckinAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped("api", "v1").grouped(DeviceAuthMiddleware()).post("checkins", use: checkin)
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
}
