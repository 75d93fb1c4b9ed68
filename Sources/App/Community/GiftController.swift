import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Gifts: a drawn sticker and a short note to congratulate someone on a workout or a badge the
/// sender may see, a few a day at most, heard of by the recipient only from people they may hear
/// from (`PersonAccess.reach`).
struct GiftController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("gifts", "new", use: newPage)
        routes.post("gifts", "new", use: send)
    }

    /// What a gift congratulates, as the sender may see it.
    struct Subject {
        let key: String
        let recipient: User
        let title: String
        let url: String
    }

    /// The workout or badge named by "workout:<id>" or "badge:<id>", or 404 when the viewer may
    /// not see it (or it does not exist: the two look the same).
    static func subject(_ text: String?, viewer: User, on db: any Database) async throws -> Subject {
        let parts = (text ?? "").split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = UUID(uuidString: parts[1]) else { throw Abort(.notFound) }
        let key = "\(parts[0]):\(SiteURL.id(id))"
        switch parts[0] {
        case "workout":
            guard let workout = try await Workout.find(id, on: db), workout.endMS != nil,
                try await WorkoutAccess.canView(workout, viewer: viewer, on: db),
                let owner = try await User.find(workout.$user.id, on: db)
            else { throw Abort(.notFound) }
            return Subject(key: key, recipient: owner, title: workout.name, url: SiteURL.workout(id).path)
        case "badge":
            guard let badge = try await Badge.find(id, on: db), let kind = BadgeKind(rawValue: badge.kind),
                let owner = try await User.find(badge.$owner.id, on: db)
            else { throw Abort(.notFound) }
            // Badges show to the owner's accepted followers (as in the feed and on the profile).
            let follows =
                try await Follow.query(on: db).filter(\.$follower.$id == viewer.requireID()).filter(\.$followee.$id == badge.$owner.id)
                .filter(\.$status == .accepted).first() != nil
            guard follows || owner.id == viewer.id else { throw Abort(.notFound) }
            return Subject(key: key, recipient: owner, title: "the badge “\(kind.title)”", url: SiteURL.person(username: owner.username).path)
        default:
            throw Abort(.notFound)
        }
    }

    struct Form: Content {
        var `for`: String?
        var sticker: String?
        var note: String?
    }

    struct Page: Encodable {
        struct Sticker: Encodable {
            let value: String
            let symbol: String
            let label: String
        }

        let layout: Layout
        let recipient: String
        let title: String
        let url: String
        let subject: String
        let stickers: [Sticker]
        let form: Form
        let errors: FieldErrors
        let action: String
    }

    private func render(_ req: Request, subject: Subject, form: Form, errors: FieldErrors, status: HTTPStatus = .ok) async throws -> Response {
        let page = Page(
            layout: req.layout(title: "Send a gift", section: .home, hasForms: true), recipient: subject.recipient.displayName,
            title: subject.title, url: subject.url, subject: subject.key,
            stickers: Gift.Sticker.allCases.map { Page.Sticker(value: $0.rawValue, symbol: $0.symbol, label: $0.label) }, form: form,
            errors: errors, action: SiteURL.newGift.path)
        let response = try await req.view.render("community/gift", page).encodeResponse(for: req)
        response.status = status
        return response
    }

    func newPage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let subject = try await Self.subject(req.query[String.self, at: "for"], viewer: user, on: req.db)
        guard subject.recipient.id != user.id else { throw Abort(.unprocessableEntity, reason: "Gifts are for other people.") }
        return try await render(req, subject: subject, form: Form(for: subject.key, sticker: Gift.Sticker.medal.rawValue, note: ""), errors: [:])
    }

    func send(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(Form.self)
        let subject = try await Self.subject(form.for, viewer: user, on: req.db)
        let recipientID = try subject.recipient.requireID(), userID = try user.requireID()
        guard recipientID != userID else { throw Abort(.unprocessableEntity, reason: "Gifts are for other people.") }
        guard try await PersonAccess.reach(subject.recipient, from: user, today: req.clock.today, on: req.db) == .allowed else {
            throw Abort(.forbidden, reason: "\(subject.recipient.displayName) only hears from people they know.")
        }
        var errors: FieldErrors = [:]
        let sticker = Gift.Sticker(rawValue: form.sticker ?? "")
        if sticker == nil { errors["sticker"] = "Choose a sticker" }
        let note = AccountRules.collapseWhitespace(form.note ?? "")
        if note.count > Gift.maxNote { errors["note"] = "Keep the note to \(Gift.maxNote) characters (it has \(note.count))" }
        let sentToday = try await Gift.query(on: req.db).filter(\.$sender.$id == userID)
            .filter(\.$createdAt >= req.now.addingTimeInterval(-86_400)).count()
        if sentToday >= Gift.perDay { errors["sticker"] = "You've sent \(Gift.perDay) gifts in the last 24 hours: send more tomorrow" }
        guard errors.isEmpty, let sticker else {
            return try await render(req, subject: subject, form: form, errors: errors, status: .unprocessableEntity)
        }
        let gift = Gift()
        gift.$sender.id = userID
        gift.$recipient.id = recipientID
        gift.subject = subject.key
        gift.sticker = sticker
        gift.note = note
        try await req.db.transaction { db in
            try await gift.create(on: db)
            try await Notification.send(
                to: [recipientID], from: userID, kind: .gift,
                text: "\(user.displayName) sent you \(sticker.symbol) for \(subject.title)" + (note.isEmpty ? "" : ": “\(Format.excerpt(note))”"),
                link: SiteURL.badges.path, on: db)
        }
        req.flash(.success, "Sent \(sticker.symbol) to \(subject.recipient.displayName).")
        return req.redirect(to: subject.url)
    }
}
