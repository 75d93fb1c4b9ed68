import Vapor

extension WorkoutImportError {
    /// The device API's answer for a file that could not be imported: 415 for what is not an
    /// activity file format at all, 413 for too much, 422 for a file of the right kind that is
    /// broken, empty or dated impossibly (the codes are in the OpenAPI document).
    var apiError: APIError {
        switch self {
        case .unsupportedFormat: APIError(status: .unsupportedMediaType, code: "unsupported_file_type", reason: message, accepted: Self.accepted)
        case .unreadable(.truncated, _): APIError(status: .unprocessableEntity, code: "truncated_file", reason: message)
        case .unreadable(.corrupt, _): APIError(status: .unprocessableEntity, code: "corrupt_file", reason: message)
        case .unreadable(.notActivity, _): APIError(status: .unprocessableEntity, code: "not_an_activity", reason: message)
        case .empty: APIError(status: .unprocessableEntity, code: "no_data", reason: message)
        case .tooLarge: APIError(status: .payloadTooLarge, code: "too_large", reason: message)
        case .implausibleTimes: APIError(status: .unprocessableEntity, code: "bad_times", reason: message)
        }
    }
}
