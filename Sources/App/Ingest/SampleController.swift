import FieldhouseKit
import Fluent
import Foundation
import Vapor

/// `POST /api/v1/samples` (JSON or form) and `POST /api/v1/heart-rate/ble`: a person's own time
/// series, whether or not a workout is running.
struct SampleController: RouteCollection {
    let maxBodyBytes: Int

    func boot(routes: any RoutesBuilder) throws {
        let api = routes.grouped(DeviceAuthMiddleware())
        api.on(.POST, IngestPath.apiSamples, body: .collect(maxSize: .init(value: maxBodyBytes)), use: samples)
        api.on(.POST, IngestPath.apiHeartRateBLE, body: .collect(maxSize: .init(value: maxBodyBytes)), use: ble)
    }

    struct Answer: Content {
        let stored: SeriesCounts
        let duplicates: SeriesCounts
        /// Samples not kept because they fall outside every workout while continuous monitoring
        /// is off in the person's profile; `skipped_reason` says so in words.
        let skipped: SeriesCounts
        let skipped_reason: String?
        let refused: [Refusal]
    }

    func samples(req: Request) async throws -> Response {
        let input: SampleInput
        if req.headers.contentType == .urlEncodedForm {
            // Fields the form does not know are left alone, as unknown keys are in JSON; an empty
            // form is an empty batch, answered as `{}` is.
            let fields = APIQuery(encoded: req.body.data.map { String(decoding: $0.readableBytesView, as: UTF8.self) } ?? "", code: "invalid_form")
            var form: [String: String] = [:]
            for key in SampleInput.formKeys {
                form[key] = try fields.value(key)
            }
            input = try SampleInput(form: form)
        } else {
            guard let body = req.body.data, body.readableBytes > 0 else {
                throw APIError(status: .badRequest, code: "invalid_json", reason: t("The request has no body; send JSON."))
            }
            input = try SampleInput(json: Array(body.readableBytesView))
        }
        guard input.count <= SampleInput.maxSamples else {
            throw APIError(
                status: .payloadTooLarge, code: "too_many_samples",
                reason: t("At most {maximum} samples per request; this one has {count}. Split it.", SampleInput.maxSamples, input.count))
        }
        let (batch, refused) = input.validated(now: req.now)
        return try await store(batch, refused: refused, on: req)
    }

    struct BLEInput: Decodable {
        struct Reading: Decodable {
            let t: SampleTimeValue
            @NotNull var hex: String?
            @NotNull var base64: String?
        }
        let notifications: [Reading]
    }

    func ble(req: Request) async throws -> Response {
        let input = try APIJSON.decode(BLEInput.self, from: req)
        guard input.notifications.count <= SampleInput.maxSamples else {
            throw APIError(
                status: .payloadTooLarge, code: "too_many_samples", reason: t("At most {maximum} notifications per request.", SampleInput.maxSamples))
        }
        var checker = SampleChecker(now: req.now)
        var batch = SampleBatch()
        for (index, notification) in input.notifications.enumerated() {
            guard let at = checker.time(notification.t, "notifications", index) else { continue }
            // A Bluetooth notification carries at most 512 bytes: anything longer is not one, and is not read.
            let field = notification.hex != nil ? "hex" : "base64"
            guard (notification.hex ?? "").utf8.count <= 2_048, (notification.base64 ?? "").utf8.count <= 2_048 else {
                checker.refuse("notifications", index, field, t("is longer than a Bluetooth notification can be (512 bytes)"))
                continue
            }
            let bytes =
                notification.hex.flatMap(HeartRateMeasurement.bytes(hex:))
                ?? notification.base64.flatMap { Data(base64Encoded: $0) }.map { Array($0) }
            guard let bytes else {
                checker.refuse(
                    "notifications", index, notification.hex != nil ? "hex" : "base64",
                    notification.hex == nil && notification.base64 == nil
                        ? t("send the notification as hex or base64") : t("is not valid {encoding}", notification.hex != nil ? "hex" : "base64"))
                continue
            }
            let measurement: HeartRateMeasurement
            do { measurement = try HeartRateMeasurement.parse(bytes) } catch let failure as HeartRateMeasurement.Failure {
                checker.refuse("notifications", index, notification.hex != nil ? "hex" : "base64", Self.describe(failure))
                continue
            }
            if measurement.contact == .notDetected {
                checker.refuse("notifications", index, "flags", t("the strap reported no skin contact; the reading is not stored"))
                continue
            }
            if let bpm = checker.range(Double(measurement.bpm), Plausible.heartRate, "notifications", index, "bpm") {
                batch.heartRate.append((at, Int(bpm)))
            }
            // The last interval ends at the notification's time; each earlier one ends where the next began.
            var end = Double(at)
            for ms in measurement.rrIntervals.reversed() {
                if Plausible.rrInterval.contains(ms), Plausible.isTime(Int64(end.rounded()), now: req.now) { batch.rr.append((Int64(end.rounded()), ms)) }
                end -= ms
            }
        }
        return try await store(batch, refused: checker.refused, on: req)
    }

    private func store(_ batch: SampleBatch, refused: [Refusal], on req: Request) async throws -> Response {
        let user = try req.auth.require(User.self)
        // How the person moves is read from everything the device sent, kept or not: only what it
        // concludes is stored (see `Feature.movementReceived`). A position without a speed (a
        // browser's, often) gets the one measured from the position before it in the batch.
        let rules = req.application.config.cyclingRules
        let speeds = PositionSpeeds.speeds(
            batch.locations.map { .init(time: $0.t, place: Coordinate(latitude: $0.lat, longitude: $0.lon), accuracy: $0.accuracy, speed: $0.speed) })
        let movement =
            batch.motion.compactMap { CyclingEligibility.Event.motion(time: $0.t, activity: $0.activity, confidence: $0.confidence, rules: rules) }
            + speeds.compactMap { CyclingEligibility.Event.speed(time: $0.time, metresPerSecond: $0.metresPerSecond, rules: rules) }
        let received = Int64(req.now.timeIntervalSince1970 * 1000)
        let positions = batch.locations.map { RideFix(time: $0.t, place: Coordinate(latitude: $0.lat, longitude: $0.lon), received: received) }
        var batch = batch
        var skipped = SeriesCounts()
        // Continuous monitoring off: only samples inside one of the person's workouts (a recording
        // one counts from its start) are kept. A device should start the workout before sending
        // its samples, or upload the workout's file.
        if !user.continuousHeartRate, let span = batch.span {
            let userID = try user.requireID()
            let latest: Int64 = span.upperBound, earliest: Int64 = span.lowerBound
            let workouts = try await Workout.query(on: req.db)
                .filter(\.$user.$id == userID)
                .filter(\.$startMS <= latest)
                .group(.or) { $0.filter(\.$endMS == .null).filter(\.$endMS >= earliest) }
                .all()
            let windows: [ClosedRange<Int64>] = workouts.map { $0.startMS...($0.endMS ?? Int64.max) }
            skipped = batch.keep(within: windows)
        }
        let (stored, duplicates) = try await SampleStore.store(
            batch, for: user.requireID(), on: req.db, writers: req.application.sqliteWriters)
        req.application.metrics.stored("samples", count: stored.heart_rate + stored.rr + stored.locations + stored.steps + stored.motion)
        if stored.heart_rate + stored.locations > 0 {
            // Anyone watching this person live, on any process, reads what is new.
            try await req.application.liveBus.publish(LiveTopic.samples(of: user.requireID()), on: req.db)
        }
        if !movement.isEmpty || !positions.isEmpty {
            for listener in req.application.features.compactMap({ $0 as? any MovementListener.Type }) {
                try await listener.movementReceived(
                    movement.sorted { $0.time < $1.time }, positions: positions, by: user.requireID(), timeZone: user.timeZone, now: req.now,
                    config: req.application.config, on: req.db)
            }
        }
        let anything = stored != SeriesCounts()
        let reason =
            skipped == SeriesCounts()
            ? nil
            : t(
                "Continuous monitoring is off in your profile, so samples outside a workout are not kept. Start a workout first, or turn it on under Settings → Profile."
            )
        return try await Answer(stored: stored, duplicates: duplicates, skipped: skipped, skipped_reason: reason, refused: refused)
            .encodeResponse(status: anything ? .created : .ok, for: req)
    }

    static func describe(_ failure: HeartRateMeasurement.Failure) -> String {
        switch failure {
        case .empty: t("is empty")
        case .tooShort(let expected, let actual): t("is {actual} bytes; its flags need at least {expected}", actual, expected)
        case .strayByte: t("has a stray byte: RR intervals come in pairs of bytes")
        }
    }
}
