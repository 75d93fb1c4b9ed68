import MultipartKit
import Vapor

/// Where the bytes of one uploaded file go as they arrive.
protocol UploadReceiver: AnyObject {
    func receive(_ chunk: ByteBuffer) async throws
    /// The part ended; a receiver that found the file incomplete or wrong throws here.
    func complete() async throws
    /// The request failed before or after `complete`: remove whatever was written.
    func discard() async
}

/// A `multipart/form-data` body read as it arrives instead of collected in memory: text fields are
/// kept (small), each file part is handed chunk by chunk to a receiver. A 20 MB photo therefore
/// costs the server a few 64 KiB buffers, not 20 MB, however many arrive at once.
///
/// Routes that use it are registered with `body: .stream` and `CSRF.checkedByHandler`; the token
/// is checked here, before a single byte of a file is accepted (forms put the `csrf` field first).
struct StreamedForm {
    /// Text fields by name; a name sent several times (checkboxes) keeps every value.
    private(set) var values: [String: [String]] = [:]

    subscript(_ name: String) -> String? { values[name]?.first }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Field names of the file parts that were received, in order.
    private(set) var fileFields: [String] = []
    /// File parts that arrived without a byte, by field: the file name (empty when no file was chosen).
    private(set) var emptyFiles: [String: String] = [:]

    static let maxFieldBytes = 16 * 1024
    static let maxFields = 64

    private enum Event {
        case header(String, String)
        case body(ByteBuffer)
        case end
    }

    /// Reads the whole body. `receiver` is asked for a destination when a file part begins (nil
    /// skips the part). On any failure every receiver that was handed bytes is told to discard.
    static func receive(
        _ req: Request, maxBytes: Int, receiver: (_ field: String, _ filename: String) throws -> (any UploadReceiver)?
    ) async throws -> (form: StreamedForm, receivers: [any UploadReceiver]) {
        guard let contentType = req.headers.contentType, contentType.type == "multipart", contentType.subType == "form-data",
              let boundary = contentType.parameters["boundary"], !boundary.isEmpty, boundary.count <= 200 else {
            throw Abort(.unsupportedMediaType, reason: "This form must be sent as multipart/form-data with the file attached.")
        }
        // Refuse at once what is announced too large, before reading any of it. Form fields and
        // part headers add a little to the file, hence the allowance.
        let allowance = 64 * 1024
        if let length = req.headers.first(name: .contentLength).flatMap(Int.init), length > maxBytes + allowance {
            throw Abort(.payloadTooLarge)
        }

        var form = StreamedForm()
        var receivers: [any UploadReceiver] = []
        let parser = MultipartParser(boundary: boundary)
        var events: [Event] = []
        parser.onHeader = { events.append(.header($0, $1)) }
        parser.onBody = { events.append(.body($0)) }
        parser.onPartComplete = { events.append(.end) }

        var headers: [String: String] = [:]
        var current: (any UploadReceiver)?
        var textField: (name: String, value: ByteBuffer)?
        var inFile = false
        var total = 0
        var finished = false

        do {
            for try await chunk in req.body {
                total += chunk.readableBytes
                if total > maxBytes + allowance { throw Abort(.payloadTooLarge) }
                do { try parser.execute(chunk) } catch {
                    throw Abort(.badRequest, reason: "The form data was malformed. Reload the page and try again.")
                }
                for event in events {
                    switch event {
                    case .header(let name, let value):
                        headers[name.lowercased()] = value
                    case .body(var bytes):
                        if textField == nil, current == nil, !inFile {
                            // First bytes of a part: decide what it is.
                            let disposition = Self.disposition(headers["content-disposition"] ?? "")
                            guard let name = disposition.name else { break }
                            if let filename = disposition.filename {
                                inFile = true
                                try form.checkCSRF(req)
                                current = try receiver(name, filename)
                                if let current { receivers.append(current); form.fileFields.append(name) }
                            } else {
                                textField = (name, ByteBuffer())
                            }
                        }
                        if let receiver = current {
                            try await receiver.receive(bytes)
                        } else if var field = textField {
                            guard field.value.readableBytes + bytes.readableBytes <= maxFieldBytes else {
                                throw Abort(.payloadTooLarge, reason: "A text field of this form is too long.")
                            }
                            field.value.writeBuffer(&bytes)
                            textField = field
                        }
                    case .end:
                        if let receiver = current {
                            try await receiver.complete()
                        } else if let field = textField {
                            guard form.values.values.map(\.count).reduce(0, +) < maxFields else {
                                throw Abort(.badRequest, reason: "This form has too many fields.")
                            }
                            form.values[field.name, default: []].append(String(decoding: field.value.readableBytesView, as: UTF8.self))
                        } else if case let (name?, filename) = Self.disposition(headers["content-disposition"] ?? "") {
                            // An empty part: an empty text field, an empty file, or no file chosen.
                            if let filename { form.emptyFiles[name] = filename } else { form.values[name, default: []].append("") }
                        }
                        headers = [:]
                        current = nil
                        textField = nil
                        inFile = false
                    }
                }
                events.removeAll(keepingCapacity: true)
            }
            finished = true
            try form.checkCSRF(req)
        } catch {
            for receiver in receivers { await receiver.discard() }
            if !finished, (error as? any AbortError)?.status == .payloadTooLarge {
                // Tell the client not to send the rest on this connection.
                throw Abort(.payloadTooLarge, headers: ["Connection": "close"], reason: (error as? any AbortError)?.reason ?? "")
            }
            throw error
        }
        return (form, receivers)
    }

    private func checkCSRF(_ req: Request) throws {
        try req.verifyCSRF(submitted: req.headers.first(name: "X-CSRF-Token") ?? self[CSRF.fieldName])
    }

    /// `form-data; name="photo"; filename="IMG_0001.jpg"` → ("photo", "IMG_0001.jpg").
    static func disposition(_ value: String) -> (name: String?, filename: String?) {
        var name: String?
        var filename: String?
        for item in value.split(separator: ";") {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            let unquoted = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2
                ? String(pair[1].dropFirst().dropLast()) : pair[1]
            switch pair[0].lowercased() {
            case "name": name = unquoted
            case "filename": filename = unquoted
            default: break
            }
        }
        return (name, filename)
    }
}
