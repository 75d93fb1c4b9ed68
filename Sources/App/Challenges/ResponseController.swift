import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Replying to a challenge with a photo, and the sender's judgement.
struct ResponseController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.on(.POST, ChallengePath.responses, body: .stream, use: reply).userInfo[CSRF.checkedByHandler] = true
        routes.post(ChallengePath.acceptResponse) { try await judge(req: $0, accept: true) }
        routes.post(ChallengePath.rejectResponse) { try await judge(req: $0, accept: false) }
    }

    func reply(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let access = try await ChallengeAccess.load(req)
        let challenge = access.challenge
        let challengeID = try challenge.requireID()
        // Everything that can be refused without the photo is refused before reading it.
        guard access.canTakePart else {
            throw Abort(.forbidden, reason: access.isSender ? t("You cannot reply to your own challenge.") : t("This challenge was not sent to you."))
        }
        let (body, receiver) = try await PhotoReceiver.receiveForm(req)
        receiver.adoptHeld(from: body, owner: userID, now: req.now)
        do {
            let form = ChallengeForm(body)
            if !form.key.isEmpty,
                try await ChallengeResponse.query(on: req.db)
                    .filter(\.$user.$id == userID).filter(\.$clientKey == form.key).first() != nil
            {
                await receiver.discard()
                return req.redirect(to: challenge.url)
            }
            if challenge.isClosed(at: req.now) {
                throw Abort(.conflict, reason: t("This challenge closed at its deadline; replies are no longer accepted."))
            }
            let open = try await ChallengeResponse.query(on: req.db).filter(\.$challenge.$id == challengeID)
                .filter(\.$user.$id == userID).filter(\.$status != .rejected).first()
            if let open {
                throw Abort(
                    .conflict,
                    reason: open.status == .accepted
                        ? t("You already completed this challenge.")
                        : t("You already replied; wait for the judgement before trying again."))
            }
            var errors: FieldErrors = [:]
            form.validateNote(errors: &errors)
            errors["photo"] = receiver.missingMessage(in: body, prompt: t("Choose your photo."))
            let place = form.place(photoPlace: receiver.received?.exif?.coordinate, errors: &errors)
            guard errors.isEmpty else {
                let shown = form.shownAgain(keeping: receiver, owner: userID, now: req.now)
                if shown.heldPhoto.isEmpty { await receiver.discard() }
                let page = try await ChallengePage.build(req, access: access, replyForm: shown, replyErrors: errors)
                return try await req.view.render("challenges/show", page).encodeResponse(status: .unprocessableEntity, for: req)
            }

            let photoID = try await Self.store(form, place: place, photo: receiver, challenge: challenge, user: user, req: req)
            receiver.releaseHold()
            await req.application.photoSizer.enqueue([photoID])
            req.flash(.success, t("Reply sent. You'll be told when it has been judged."))
            return req.redirect(to: challenge.url)
        } catch {
            await receiver.discard()
            throw error
        }
    }

    /// Keeps the reply with its photo and tells the sender, in one transaction; the photo's id.
    private static func store(
        _ form: ChallengeForm, place: ChallengeForm.Place?, photo receiver: PhotoReceiver, challenge: Challenge, user: User, req: Request
    ) async throws -> UUID {
        let (userID, challengeID) = (try user.requireID(), try challenge.requireID())
        let takenAt = receiver.received?.exif?.capturedAt?.instant(fallbackZone: TimeZone.named(user.timeZone), now: req.now)
        let today = req.clock.today
        do {
            return try await req.db.inTransaction { db in
                let photo = try await receiver.save(owner: userID, zone: user.timeZone, now: req.now, on: db)
                let response = ChallengeResponse()
                response.$challenge.id = challengeID
                response.$challenger.id = challenge.$sender.id
                response.$user.id = userID
                response.$photo.id = try photo.requireID()
                response.note = form.note
                response.latitude = place?.coordinate.latitude
                response.longitude = place?.coordinate.longitude
                response.locationSource = place?.source
                if let here = place?.coordinate, let there = challenge.coordinate {
                    response.distanceMetres = Geo.distance(here, there)
                }
                response.takenBefore = takenAt.map { $0 < (challenge.createdAt ?? req.now) } ?? false
                response.status = .pending
                response.clientKey = form.key.isEmpty ? RandomToken.make() : form.key
                try await response.create(on: db)
                try await Notification.send(
                    to: [challenge.$sender.id], by: user, kind: .challengeReply, today: today,
                    text: { t("{name} replied to your challenge “{caption}”", $0, Format.excerpt(challenge.caption)) },
                    link: challenge.url, on: db
                )
                return try photo.requireID()
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Two replies raced past the check above; the unique index kept one.
            throw Abort(.conflict, reason: t("You already replied; wait for the judgement before trying again."))
        }
    }

    struct Judgement: Content {
        var stars: Int?
        var reason: String?
    }

    func judge(req: Request, accept: Bool) async throws -> Response {
        let access = try await ChallengeAccess.load(req)
        guard access.isSender else {
            throw Abort(.forbidden, reason: t("Only the person who sent this challenge can judge its replies."))
        }
        let challenge = access.challenge
        guard let responseID = req.parameters.get("rid", as: UUID.self),
            let response = try await ChallengeResponse.query(on: req.db).filter(\.$id == responseID)
                .filter(\.$challenge.$id == challenge.requireID()).first()
        else { throw Abort(.notFound) }
        let input: Judgement
        do { input = try req.content.decode(Judgement.self) } catch {
            throw Abort(.unprocessableEntity, reason: accept ? t("Give the reply from 1 to 5 stars.") : t("Say why the reply is not accepted."))
        }
        let reason = try Self.reason(of: input, accept: accept)
        let now = req.now
        let judged = try await req.db.inTransaction { db -> Bool in
            let sql = db.sql
            // Guarded: judging twice (two tabs, a double tap) changes nothing the second time.
            let rows = try await sql.update(ChallengeResponse.schema)
                .set("status", to: accept ? "accepted" : "rejected")
                .set("stars", to: accept ? input.stars : nil)
                .set("reason", to: accept ? nil : reason)
                .set("judged_at", to: now)
                .where("id", .equal, responseID).where("status", .equal, "pending")
                .returning("id").all()
            guard !rows.isEmpty else { return false }
            if accept {
                try await sql.update(Challenge.schema).set("completed_count", to: SQLRaw("completed_count + 1"))
                    .where("id", .equal, challenge.requireID()).run()
                try await sql.update(ChallengeRecipient.schema).set("completed_at", to: now)
                    .where("challenge_id", .equal, challenge.requireID()).where("user_id", .equal, response.$user.id).run()
            }
            let stars = input.stars ?? 0
            try await Notification.send(
                to: [response.$user.id], from: challenge.$sender.id, kind: .challengeJudged,
                text: accept
                    ? tn(
                        "Your reply to “{caption}” was accepted with {count} star.", "Your reply to “{caption}” was accepted with {count} stars.", stars,
                        Format.excerpt(challenge.caption))
                    : t("Your reply to “{caption}” was not accepted: {reason}", Format.excerpt(challenge.caption), reason),
                link: challenge.url, on: db)
            return true
        }
        guard judged else { throw Abort(.conflict, reason: t("This reply has already been judged.")) }
        // One reply fewer to judge in the header.
        try await req.personChanged(response.$challenger.id)
        req.flash(.success, accept ? t("Reply accepted.") : t("Reply not accepted; they can try again before the deadline."))
        return req.redirect(to: challenge.url)
    }

    /// The judgement checked: stars from 1 to 5 to accept, a short reason not to; the reason trimmed.
    private static func reason(of input: Judgement, accept: Bool) throws -> String {
        let reason = (input.reason ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if accept {
            guard let stars = input.stars, (1...5).contains(stars) else {
                throw Abort(.unprocessableEntity, reason: t("Give the reply from 1 to 5 stars."))
            }
        } else {
            guard !reason.isEmpty, reason.count <= 200 else {
                throw Abort(
                    .unprocessableEntity,
                    reason: reason.isEmpty ? t("Say why the reply is not accepted, so they can try again.") : t("Keep the reason to 200 characters."))
            }
        }
        return reason
    }
}
