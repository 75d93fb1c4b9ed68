import FieldhouseKit
import Vapor

/// Collects an uploaded activity file in memory: files are parsed whole, and the largest one
/// allowed is a small fraction of the server's memory.
final class ActivityFileReceiver: UploadReceiver, @unchecked Sendable {
    let filename: String
    private(set) var bytes: [UInt8] = []

    /// `expected`: the request's length when known, so a long file is not copied as the buffer grows.
    init(filename: String, expected: Int? = nil) {
        self.filename = filename
        if let expected { bytes.reserveCapacity(expected) }
    }

    /// The bytes, handed over: the receiver keeps no copy.
    func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    func receive(_ chunk: ByteBuffer) async throws { bytes.append(contentsOf: chunk.readableBytesView) }
    func complete() async throws {}
    func discard() async { bytes = [] }
}
