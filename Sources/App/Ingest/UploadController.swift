import FieldhouseKit
import Vapor

/// `POST /api/v1/uploads`: one GPX, TCX or FIT file (or a .gz of one) from a device, in multipart
/// `file` with optional `name`, `sport` and `external_id`. Processed at once; the answer says what
/// it became.
struct UploadController: RouteCollection {
    let maxBytes: Int

    func boot(routes: any RoutesBuilder) throws {
        routes.grouped(DeviceAuthMiddleware())
            .on(.POST, IngestPath.apiUploads, body: .stream, use: upload)
    }

    func upload(req: Request) async throws -> Response {
        let user = try req.auth.require(User.self)
        var receiver: ActivityFileReceiver?
        let form: StreamedForm
        do {
            form = try await StreamedForm.receive(req, maxBytes: maxBytes, checkCSRF: false) { field, filename in
                guard field == "file", receiver == nil else { return nil }
                let length = req.headers.first(name: .contentLength).flatMap(Int.init).map { min($0, maxBytes) }
                receiver = ActivityFileReceiver(filename: filename, expected: length)
                return receiver
            }
        } catch let abort as any AbortError where abort.status == .payloadTooLarge {
            throw APIError(status: .payloadTooLarge, code: "too_large", reason: t("Files may be at most {megabytes} MB.", maxBytes / 1_048_576))
        } catch let abort as any AbortError where abort.status == .unsupportedMediaType {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_file_type",
                reason: t("Send the file as multipart/form-data in a part named “file”."), accepted: ActivityFileError.accepted)
        }
        guard let file = receiver, !file.bytes.isEmpty else {
            throw APIError(
                status: .badRequest, code: "missing_file",
                reason: form.emptyFiles["file"] != nil ? t("The file is empty.") : t("Attach the file in a part named “file”."))
        }
        let options = try WorkoutImporter.Options(
            name: WorkoutFields.name(form["name"]),
            sport: form["sport"].flatMap { $0.isEmpty ? nil : $0 }.map(WorkoutFields.sport),
            externalID: WorkoutFields.externalID(form["external_id"].flatMap { $0.isEmpty ? nil : $0 }),
            filename: String(file.filename.prefix(200)), maxExpandedBytes: maxBytes)
        let outcome: WorkoutImporter.Outcome
        do {
            outcome = try await WorkoutImporter.importFile(
                file.take(), options: options, user: user, on: req.db, now: req.now, writers: req.application.sqliteWriters)
        } catch let error as WorkoutImportError {
            throw error.apiError
        }
        if outcome.recordedWorkout { try await WorkoutRecorded.announce(for: user, on: req) }
        switch outcome {
        case .created(let workout):
            req.application.metrics.stored("workout_files")
            return try await WorkoutAnswer(workout: WorkoutJSON(workout)).encodeResponse(status: .created, for: req)
        case .duplicate(let workout, let reason):
            return try await WorkoutAnswer(workout: WorkoutJSON(workout), duplicate: true, duplicate_reason: reason.rawValue)
                .encodeResponse(status: .ok, for: req)
        case .merged(let workout, let streams):
            return try await WorkoutAnswer(workout: WorkoutJSON(workout), merged: streams.map(\.rawValue)).encodeResponse(status: .ok, for: req)
        case .route(let route, let duplicate):
            return try await RouteAnswer(route, duplicate: duplicate).encodeResponse(status: duplicate ? .ok : .created, for: req)
        }
    }
}
