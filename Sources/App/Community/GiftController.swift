import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Gifts: a drawn sticker and a short note to congratulate someone on a workout or a badge the
/// sender may see, a few a day at most, heard of by the recipient only from people they may hear
/// from (`PersonAccess.reach`).
struct GiftController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CommunityPath.newGift, use: newPage)
        routes.post(CommunityPath.newGift, use: send)
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

    private func render(_ req: Request, subject: FeedSubject, form: Form, errors: FieldErrors, status: HTTPStatus = .ok) async throws -> Response {
        let page = Page(
            layout: req.layout(title: t("Send a gift"), section: .home, hasForms: true), recipient: subject.owner.displayName,
            title: subject.title, url: subject.url, subject: subject.key,
            stickers: Gift.Sticker.allCases.map { Page.Sticker(value: $0.rawValue, symbol: $0.symbol, label: $0.label) }, form: form,
            errors: errors, action: SiteURL.newGift.path)
        return try await req.view.render("community/gift", page).encodeResponse(status: status, for: req)
    }

    func newPage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let subject = try await FeedSubject.resolve(
            req.query[String.self, at: "for"], viewer: user, kinds: Gift.subjectKinds, today: req.clock.today, on: req.db)
        guard subject.owner.id != user.id else { throw Abort(.unprocessableEntity, reason: t("Gifts are for other people.")) }
        return try await render(req, subject: subject, form: Form(for: subject.key, sticker: Gift.Sticker.medal.rawValue, note: ""), errors: [:])
    }

    func send(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(Form.self)
        let subject = try await FeedSubject.resolve(form.for, viewer: user, kinds: Gift.subjectKinds, today: req.clock.today, on: req.db)
        let recipientID = try subject.owner.requireID(), userID = try user.requireID()
        guard recipientID != userID else { throw Abort(.unprocessableEntity, reason: t("Gifts are for other people.")) }
        guard try await PersonAccess.reach(subject.owner, from: user, today: req.clock.today, on: req.db) == .allowed else {
            throw Abort(.forbidden, reason: t("{name} only hears from people they know.", subject.owner.displayName))
        }
        var errors: FieldErrors = [:]
        let sticker = Gift.Sticker(rawValue: form.sticker ?? "")
        if sticker == nil { errors["sticker"] = t("Choose a sticker") }
        let note = AccountRules.collapseWhitespace(form.note ?? "")
        if note.count > Gift.maxNote { errors["note"] = t("Keep the note to {max} characters (it has {length})", Gift.maxNote, note.count) }
        guard errors.isEmpty, let sticker else {
            return try await render(req, subject: subject, form: form, errors: errors, status: .unprocessableEntity)
        }
        let now = req.now, today = req.clock.today
        // Counted and given in one transaction, the sender's row locked: parallel gifts cannot all
        // count below the limit.
        let given = try await req.db.inTransaction { db -> Bool in
            try await db.lockForCount(User.schema, id: userID)
            let sentToday = try await Gift.query(on: db).filter(\.$sender.$id == userID).filter(\.$createdAt >= now.addingTimeInterval(-86_400)).count()
            guard sentToday < Gift.perDay else { return false }
            try await Gift.give(sticker, note: note, for: subject, from: user, now: now, today: today, on: db)
            return true
        }
        guard given else {
            errors["sticker"] = tn(
                "You've sent {count} gift in the last 24 hours: send more tomorrow", "You've sent {count} gifts in the last 24 hours: send more tomorrow",
                Gift.perDay)
            return try await render(req, subject: subject, form: form, errors: errors, status: .unprocessableEntity)
        }
        req.flash(.success, t("Sent {sticker} to {name}.", sticker.symbol, subject.owner.displayName))
        return req.redirect(to: subject.url)
    }
}
