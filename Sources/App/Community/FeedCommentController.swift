import Fluent
import SQLKit
import Vapor

/// Comments under feed entries (`/comments?on=workout:<id>`): anyone who may see the entry reads
/// and writes them; the owner hears once per entry until they read it ("Kai and 2 others
/// commented on Harbour loop"); an author or the owner removes one. A child hears only from people
/// they know, so others may not write under a child's entry.
struct FeedCommentController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(CommunityPath.feedComments, use: page)
        routes.post(CommunityPath.feedComments, use: create)
        routes.post(CommunityPath.deleteFeedComment, use: delete)
    }

    struct Item: Encodable {
        let author: String
        let authorURL: String?
        let body: String
        let when: String
        let datetime: String
        let deleteAction: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let title: String
        let url: String
        let subject: String
        let comments: [Item]
        let body: String
        let error: String?
        let action: String
    }

    private func render(_ req: Request, subject: FeedSubject, body: String = "", error: String? = nil, status: HTTPStatus = .ok) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        // The newest 500, read oldest first: a flood of old comments cannot hide new ones.
        let comments = try await FeedComment.query(on: req.db).filter(\.$subject == subject.key).sort(\.$createdAt, .descending).limit(500)
            .with(\.$author).all().reversed()
        let known = Set(try await PersonCard.list(comments.map(\.author), viewer: user, today: req.clock.today, on: req.db).map(\.username))
        let format = Format(user)
        let items = try comments.map { comment in
            let isKnown = comment.author.id == userID || known.contains(comment.author.username)
            let mayDelete = comment.$author.id == userID || comment.$owner.id == userID
            return Item(
                author: isKnown ? comment.author.displayName : t("Someone"),
                authorURL: isKnown ? SiteURL.person(username: comment.author.username).path : nil, body: comment.body,
                when: comment.createdAt.map(format.shortWhen) ?? "", datetime: comment.createdAt.map(Format.machine) ?? "",
                deleteAction: mayDelete ? SiteURL.deleteFeedComment(try comment.requireID()).path : nil)
        }
        return try await req.view.render(
            "community/comments",
            Page(
                layout: req.layout(title: t("Comments on {title}", subject.title), section: .home, hasForms: true), title: subject.title, url: subject.url,
                subject: subject.key, comments: items, body: body, error: error, action: SiteURL.feedComments.path)
        ).encodeResponse(status: status, for: req)
    }

    func page(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let subject = try await FeedSubject.resolve(
            req.query[String.self, at: "on"], viewer: user, kinds: FeedComment.subjectKinds, today: req.clock.today, on: req.db)
        // A workout's comments are one thread on its page, with its coaches' (old links land there).
        if subject.key.hasPrefix("workout:") { return req.redirect(to: SiteURL.feedComments(on: subject.key)) }
        return try await render(req, subject: subject)
    }

    struct Form: Content {
        var on: String?
        var body: String?
    }

    func create(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(Form.self)
        let subject = try await FeedSubject.resolve(form.on, viewer: user, kinds: FeedComment.subjectKinds, today: req.clock.today, on: req.db)
        let body = (form.body ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        switch try await FeedComment.add(body, under: subject, by: user, now: req.now, today: req.clock.today, on: req.db) {
        case .added: return req.redirect(to: SiteURL.feedComments(on: subject.key) + "#comments")
        case .refused(let status, let reason):
            if status == .forbidden { throw Abort(.forbidden, reason: reason) }
            return try await render(req, subject: subject, body: body, error: reason, status: status)
        }
    }

    func delete(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let userID = try user.requireID()
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)), let comment = try await FeedComment.find(id, on: req.db),
            comment.$author.id == userID || comment.$owner.id == userID
        else { throw Abort(.notFound) }
        try await comment.delete(on: req.db)
        req.flash(.success, t("Comment removed."))
        return req.redirect(to: SiteURL.feedComments(on: comment.subject) + "#comments")
    }
}
