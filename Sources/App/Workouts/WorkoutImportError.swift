import FieldhouseKit
import Foundation

/// Why a file became neither a workout nor a route, in the importer's own terms. The edges turn
/// it into their answer: the device API into a status and a code (`Ingest/UploadController`), the
/// import page into a line under the file's name; both show `message`.
enum WorkoutImportError: Error, Equatable {
    /// Not a GPX, TCX or FIT file, nor a .gz of one.
    case unsupportedFormat
    /// A file of the right kind that cannot be read to its end; `detail` says where.
    case unreadable(Damage, detail: String)
    /// A readable file with no workout in it (no points, or a single moment); the text says which.
    case empty(String)
    /// More than the server takes (expanded size, points, laps); the text says which.
    case tooLarge(String)
    /// Times before 2000 or in the future, or longer than one workout may last.
    case implausibleTimes(start: Int64, end: Int64, Implausible)

    enum Damage: Equatable {
        /// Cut short.
        case truncated
        /// Broken inside.
        case corrupt
        /// Well formed, but not an activity (a FIT settings file, a GPX of waypoints).
        case notActivity
    }

    enum Implausible: Equatable {
        /// Before 2000 or in the future.
        case outOfRange
        /// Longer than the 7 days one workout may last.
        case tooLong
    }

    init(_ error: ActivityFileError) {
        switch error {
        case .unknownType: self = .unsupportedFormat
        case .truncated(let detail): self = .unreadable(.truncated, detail: detail)
        case .corrupt(let detail): self = .unreadable(.corrupt, detail: detail)
        case .notActivity(let detail): self = .unreadable(.notActivity, detail: detail)
        case .noData(let text): self = .empty(text)
        case .tooLarge(let text): self = .tooLarge(text)
        }
    }

    /// The file types people may upload.
    static var accepted: [String] { ActivityFileError.accepted }

    /// What the person reads, in the language of the request.
    var message: String {
        switch self {
        case .unsupportedFormat:
            t("{message} Accepted: {types}.", ActivityFileError.unknownType.description, Self.accepted.joined(separator: ", "))
        case .unreadable(.truncated, let detail): ActivityFileError.truncated(detail).description
        case .unreadable(.corrupt, let detail): ActivityFileError.corrupt(detail).description
        case .unreadable(.notActivity, let detail): ActivityFileError.notActivity(detail).description
        case .empty(let text), .tooLarge(let text): text
        case .implausibleTimes(let start, let end, .outOfRange):
            t(
                "The file's times ({start} to {end}) are before 2000 or in the future; check the device's clock.",
                SampleTime.rfc3339(milliseconds: start), SampleTime.rfc3339(milliseconds: end))
        case .implausibleTimes(let start, let end, .tooLong):
            t(
                "The file runs from {start} to {end}, more than the 7 days one workout may last; check the device's clock or split the file.",
                SampleTime.rfc3339(milliseconds: start), SampleTime.rfc3339(milliseconds: end))
        }
    }
}
