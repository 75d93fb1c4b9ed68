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

    /// Reads the whole body. `receiver` is asked for a destination when a file part begins (nil
    /// skips the part). On any failure every receiver that was handed bytes is told to discard.
    /// `checkCSRF` is false only for the device API, whose bearer token cannot be sent by a foreign page.
    static func receive(
        _ req: Request, maxBytes: Int, checkCSRF: Bool = true,
        receiver: (_ field: String, _ filename: String) throws -> (any UploadReceiver)?
    ) async throws -> StreamedForm {
        guard let contentType = req.headers.contentType, contentType.type == "multipart", contentType.subType == "form-data",
            let boundary = contentType.parameters["boundary"], !boundary.isEmpty, boundary.count <= 200
        else {
            throw Abort(.unsupportedMediaType, reason: t("This form must be sent as multipart/form-data with the file attached."))
        }
        // Refuse at once what is announced too large, before reading any of it. Form fields and
        // part headers add a little to the file, hence the allowance.
        let allowance = 64 * 1024
        if let length = req.headers.first(name: .contentLength).flatMap(Int.init), length > maxBytes + allowance {
            throw Abort(.payloadTooLarge)
        }

        var form = StreamedForm()
        var receivers: [any UploadReceiver] = []
        var scanner = MultipartScanner(boundary: boundary)
        // The part being read: a file going to a receiver, a file nobody wants, or a text field.
        enum Part { case file(name: String, filename: String, receiver: (any UploadReceiver)?, bytes: Int), text(String, ByteBuffer), none }
        var part = Part.none
        var total = 0
        var finished = false

        do {
            for try await chunk in req.bodyChunks() {
                total += chunk.readableBytes
                if total > maxBytes + allowance { throw Abort(.payloadTooLarge) }
                let events: [MultipartScanner.Event]
                do { events = try scanner.scan(chunk) } catch {
                    throw Abort(.badRequest, reason: t("The form data was malformed. Reload the page and try again."))
                }
                for event in events {
                    switch event {
                    case .part(let headers):
                        let disposition = Self.disposition(headers["content-disposition"] ?? "")
                        guard let name = disposition.name else { part = .none; continue }
                        if let filename = disposition.filename {
                            if checkCSRF { try form.checkCSRF(req) }
                            let destination = try receiver(name, filename)
                            if let destination { receivers.append(destination) }
                            part = .file(name: name, filename: filename, receiver: destination, bytes: 0)
                        } else {
                            guard form.values.values.map(\.count).reduce(0, +) < maxFields else {
                                throw Abort(.badRequest, reason: t("This form has too many fields."))
                            }
                            part = .text(name, ByteBuffer())
                        }
                    case .body(var bytes):
                        switch part {
                        case .file(let name, let filename, let destination, let count):
                            try await destination?.receive(bytes)
                            part = .file(name: name, filename: filename, receiver: destination, bytes: count + bytes.readableBytes)
                        case .text(let name, var value):
                            guard value.readableBytes + bytes.readableBytes <= maxFieldBytes else {
                                throw Abort(.payloadTooLarge, reason: t("A text field of this form is too long."))
                            }
                            value.writeBuffer(&bytes)
                            part = .text(name, value)
                        case .none:
                            break
                        }
                    case .end:
                        switch part {
                        case .file(let name, let filename, let destination, let count):
                            if count == 0 {
                                // A file input left empty, or a 0-byte file.
                                form.emptyFiles[name] = filename
                                if let destination { receivers.removeAll { $0 === destination } }
                            } else {
                                try await destination?.complete()
                                form.fileFields.append(name)
                            }
                        case .text(let name, let value):
                            form.values[name, default: []].append(String(decoding: value.readableBytesView, as: UTF8.self))
                        case .none:
                            break
                        }
                        part = .none
                    }
                }
            }
            guard scanner.isFinished else {
                throw Abort(.badRequest, reason: t("The upload was cut off before it finished. Try again."))
            }
            finished = true
            if checkCSRF { try form.checkCSRF(req) }
        } catch {
            for receiver in receivers { await receiver.discard() }
            if !finished, (error as? any AbortError)?.status == .payloadTooLarge {
                // Tell the client not to send the rest on this connection.
                throw Abort(.payloadTooLarge, headers: ["Connection": "close"], reason: (error as? any AbortError)?.reason ?? "")
            }
            throw error
        }
        return form
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
            let unquoted =
                pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2
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
