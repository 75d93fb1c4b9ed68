import Foundation
import Logging

/// `LOG_FORMAT=json`: each log entry as one JSON object on one line of standard output, with its
/// metadata as fields (a request's `request-id`, `route`, `status`, `duration_ms`), for a log
/// collector to read without parsing text. (It lives with the entry point: log times are the
/// machine's, not the app clock's.)
struct JSONLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    private let label: String

    init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String, file: String, function: String,
        line: UInt
    ) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(explicit ?? [:], uniquingKeysWith: { _, new in new }) { fields[key] = "\(value)" }
        fields["time"] = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())
        fields["level"] = level.rawValue
        fields["label"] = label
        fields["message"] = message.description
        guard var data = try? Self.encoder.encode(fields) else { return }
        data.append(0x0A)
        // Whole lines, one writer at a time; a log that cannot be written (a closed pipe, a full
        // disk) is dropped rather than taking the server down.
        Self.output.withLock { try? FileHandle.standardOutput.write(contentsOf: data) }
    }

    private static let output = NSLock()

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
