import FieldhouseKit
import Fluent
import Vapor

/// The checks on what a device sends about a workout, with the API's error for each: shared by
/// the JSON workout API and the file upload's form fields.
enum WorkoutFields {
    static let maxDuration: Int64 = 7 * 24 * 3_600_000

    /// The request's person's workout, or 404 (also for other people's, so ids reveal nothing).
    static func own(_ req: Request) async throws -> Workout {
        let user = try req.auth.require(User.self)
        guard let id = req.parameters.get("id", as: UUID.self),
            let workout = try await Workout.query(on: req.db).filter(\.$id == id).filter(\.$user.$id == user.requireID()).first()
        else {
            throw APIError(status: .notFound, code: "not_found", reason: t("There is no such workout."))
        }
        return workout
    }

    static func sport(_ raw: String) throws -> WorkoutSport {
        // Exactly as the document's enum spells it: "Running" is not a sport id.
        guard let sport = WorkoutSport(rawValue: raw) else {
            throw APIError(
                status: .unprocessableEntity, code: "invalid_field",
                reason: t("sport “{sport}” is not known. One of: {sports}.", raw.prefix(40), WorkoutSport.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        return sport
    }

    static func time(_ value: SampleTimeValue, _ field: String, now: Date) throws -> Int64 {
        guard let milliseconds = value.milliseconds else {
            throw APIError(status: .badRequest, code: "invalid_json", reason: t("{field} must be an RFC 3339 time or epoch milliseconds.", field))
        }
        guard milliseconds >= Plausible.earliestMilliseconds else {
            throw APIError(status: .unprocessableEntity, code: "invalid_field", reason: t("{field} must not be before the year 2000.", field))
        }
        guard milliseconds <= Plausible.latestMilliseconds(now: now) else {
            throw APIError(status: .unprocessableEntity, code: "invalid_field", reason: t("{field} must not be more than 5 minutes in the future.", field))
        }
        return milliseconds
    }

    static func checkWindow(start: Int64, end: Int64) throws {
        guard end > start else {
            throw APIError(status: .unprocessableEntity, code: "invalid_field", reason: t("end must be after start."))
        }
        guard end - start <= maxDuration else {
            throw APIError(status: .unprocessableEntity, code: "invalid_field", reason: t("A workout may last at most 7 days."))
        }
    }

    static func name(_ raw: String?) throws -> String? {
        guard let raw else { return nil }
        // Counted as JSON Schema's maxLength counts (code points), before spaces are tidied, so a
        // name the document refuses is refused here too.
        guard raw.unicodeScalars.count <= 100 else {
            throw APIError(status: .unprocessableEntity, code: "invalid_field", reason: t("name must be at most 100 characters."))
        }
        let name = AccountRules.collapseWhitespace(raw)
        return name.isEmpty ? nil : name
    }

    static func externalID(_ raw: String?) throws -> String? {
        guard let raw else { return nil }
        guard !raw.isEmpty, raw.unicodeScalars.count <= 200 else {
            throw APIError(status: .unprocessableEntity, code: "invalid_field", reason: t("external_id must be 1 to 200 characters."))
        }
        return raw
    }
}
