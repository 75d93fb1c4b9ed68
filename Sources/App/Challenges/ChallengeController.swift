import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Sending a challenge, its page, and deleting it.
struct ChallengeController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ChallengePath.newChallenge, use: newPage)
        routes.on(.POST, ChallengePath.newChallenge, body: .stream, use: create).userInfo[CSRF.checkedByHandler] = true
        routes.get(ChallengePath.challenge, use: show)
        routes.post(ChallengePath.deleteChallenge, use: delete)
    }

    // MARK: New

    struct Friend: Encodable {
        let username: String
        let displayName: String
        let checked: Bool
    }

    struct NewPage: Encodable {
        let layout: Layout
        let form: ChallengeForm
        let errors: FieldErrors
        let friends: [Friend]
        let maxMB: Int
        let deadlineMin: String
    }

    private func friends(of user: User, on db: any Database) async throws -> [User] {
        let ids = try await PeopleQueries.friendIDs(of: user.requireID(), on: db)
        guard !ids.isEmpty else { return [] }
        return try await PersonLoader.select(on: db) { $0.where("id", .in, ids).orderBy("search_name") }
    }

    private func renderNew(_ req: Request, user: User, form: ChallengeForm, errors: FieldErrors, status: HTTPStatus = .ok) async throws -> Response {
        let chosen = Set(form.recipients)
        let friends = try await friends(of: user, on: req.db).map {
            Friend(username: $0.username, displayName: $0.displayName, checked: chosen.contains($0.username))
        }
        let today = LocalTime.parts(of: req.now, zone: user.timeZone)
        let page = NewPage(
            layout: req.layout(title: t("New challenge"), section: .challenges), form: form, errors: errors, friends: friends,
            maxMB: req.application.config.maxUploadBytes / (1024 * 1024), deadlineMin: today.day + "T" + today.time
        )
        return try await req.view.render("challenges/new", page).encodeResponse(status: status, for: req)
    }

    func newPage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        var form = ChallengeForm(for: user, today: req.clock.today)
        if let to = req.query[String.self, at: "to"] { form.recipients = [to] }
        return try await renderNew(req, user: user, form: form, errors: [:])
    }

    func create(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        let (body, receiver) = try await PhotoReceiver.receiveForm(req)
        receiver.adoptHeld(from: body, owner: userID, now: req.now)
        do {
            let form = ChallengeForm(body)
            // A retried submission (a double tap, a reload after a lost answer) finds the first one.
            if !form.key.isEmpty,
                let existing = try await Challenge.query(on: req.db)
                    .filter(\.$sender.$id == userID).filter(\.$clientKey == form.key).first()
            {
                await receiver.discard()
                return req.redirect(to: existing.url)
            }
            var errors: FieldErrors = [:]
            let deadline = form.validateChallenge(zone: user.timeZone, now: req.now, errors: &errors)
            errors["photo"] = receiver.missingMessage(in: body, prompt: t("Choose a photo for your challenge."))
            let place = form.place(photoPlace: receiver.received?.exif?.coordinate, errors: &errors)
            // Only friends can be sent a challenge; anything else is refused outright, not fixed up.
            let friends = try await friends(of: user, on: req.db)
            let byUsername = Dictionary(friends.map { ($0.username, $0) }, uniquingKeysWith: { a, _ in a })
            let recipients = Array(Set(form.recipients))
            if recipients.contains(where: { byUsername[$0] == nil }) {
                await receiver.discard()
                throw Abort(.forbidden, reason: t("You can only send challenges to friends: people who follow you and whom you follow."))
            }
            guard errors.isEmpty else {
                let shown = form.shownAgain(keeping: receiver, owner: userID, now: req.now)
                if shown.heldPhoto.isEmpty { await receiver.discard() }
                return try await renderNew(req, user: user, form: shown, errors: errors, status: .unprocessableEntity)
            }

            let people = recipients.map { byUsername[$0]! }
            let challenge = try await Self.store(form, deadline: deadline, place: place, to: people, photo: receiver, user: user, req: req)
            receiver.releaseHold()
            await req.application.photoSizer.enqueue([challenge.$photo.id])
            var message =
                recipients.isEmpty
                ? t("Your public challenge is up.") : tn("Challenge sent to {count} friend.", "Challenge sent to {count} friends.", recipients.count)
            if form.location == "photo" && place == nil { message += " " + t("Your photo had no location, so none is shown.") }
            req.flash(.success, message)
            return req.redirect(to: challenge.url)
        } catch {
            await receiver.discard()
            throw error
        }
    }

    /// Keeps the challenge with its photo and its recipients, and tells them, in one transaction.
    private static func store(
        _ form: ChallengeForm, deadline: Date?, place: ChallengeForm.Place?, to people: [User], photo receiver: PhotoReceiver, user: User,
        req: Request
    ) async throws -> Challenge {
        let userID = try user.requireID()
        return try await req.db.inTransaction { db in
            let photo = try await receiver.save(owner: userID, zone: user.timeZone, now: req.now, on: db)
            let challenge = Challenge()
            challenge.$sender.id = userID
            challenge.$photo.id = try photo.requireID()
            challenge.caption = form.caption
            challenge.isPublic = form.isPublic
            challenge.deadline = deadline
            challenge.latitude = place?.coordinate.latitude
            challenge.longitude = place?.coordinate.longitude
            challenge.locationSource = place?.source
            challenge.recipientCount = people.count
            challenge.completedCount = 0
            challenge.clientKey = form.key.isEmpty ? RandomToken.make() : form.key
            try await challenge.create(on: db)
            let challengeID = try challenge.requireID()
            for person in people {
                try await ChallengeRecipient(challenge: challengeID, user: person.requireID()).create(on: db)
            }
            try await Notification.send(
                to: people.compactMap(\.id), from: user.id, kind: .challengeReceived,
                text: t("{name} challenged you: {caption}", user.displayName, Format.excerpt(form.caption)), link: challenge.url, on: db
            )
            return challenge
        }
    }

    // MARK: Page

    func show(req: Request) async throws -> View {
        let access = try await ChallengeAccess.load(req)
        let page = try await ChallengePage.build(req, access: access, replyForm: ChallengeForm(for: req.currentUser, today: req.clock.today), replyErrors: [:])
        return try await req.view.render("challenges/show", page)
    }

    // MARK: Delete

    func delete(req: Request) async throws -> Response {
        let access = try await ChallengeAccess.load(req)
        try access.requireSender()
        guard (try? req.content.get(String.self, at: "confirm")) == "yes" else {
            throw Abort(.unprocessableEntity, reason: t("Tick the box to confirm that the challenge and all its photos should be deleted."))
        }
        let photos = try await req.db.inTransaction { db in try await access.challenge.deleteWithReplies(on: db) }
        PhotoStore.removeFiles(of: photos, config: req.application.config)
        req.flash(.success, t("The challenge and its photos are deleted."))
        return req.redirect(to: .challenges)
    }
}
