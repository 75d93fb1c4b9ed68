import Fluent
import SQLKit
import Vapor

/// Reads the session cookie, signs the person in for this request, and refreshes the session's
/// expiry at most once an hour. One query per signed-in request; none for anonymous visitors.
struct SessionMiddleware: AsyncMiddleware {
    static let cookieName = "fh_session"

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let token = request.cookies[Self.cookieName]?.string, !token.isEmpty, token.count < 100 else {
            return try await next.respond(to: request)
        }
        let now = request.now
        let hash = RandomToken.hash(token)
        let cache = request.application.signInCache
        // Only pages that change nothing use what is kept. A form that changes something checks
        // the password, or saves the person, against what the database holds now: a value kept
        // from before a change on another process must never be written back, nor an old password
        // accepted, in the moment before that process hears of the change.
        var found = request.method == .GET || request.method == .HEAD ? cache.get(hash, now: now) : nil
        if let kept = found, kept.session_expires <= now { found = nil }
        if found == nil { found = try await read(hash, request) }
        guard let signIn = found else {
            let response = try await next.respond(to: request)
            response.cookies[Self.cookieName] = .expiredAtRoot
            return response
        }
        let user = User(row: signIn.user)
        let session = signIn.session.model(userID: signIn.user.id)
        request.auth.login(user)
        request.storage[HeaderCountsKey.self] = signIn.counts
        request.storage[CurrentSessionKey.self] = session
        request.storage[SignedInKey.self] = SignedIn(person: user, csrfToken: session.csrfToken)
        if now.timeIntervalSince(session.lastSeenAt) > UserSession.refreshInterval {
            session.lastSeenAt = now
            session.expiresAt = now.addingTimeInterval(UserSession.lifetime)
            try await session.update(on: request.db)
            cache.remove(hash)
        }
        return try await next.respond(to: request)
    }

    /// The session with this token's hash, its person and the header's counts: one plain-SQL
    /// query (see `User.Row` for why not Fluent), the counts as scalar subqueries over `u`. Kept in
    /// `signInCache` until the person changes (`PersonChanges`), so most requests run none.
    private func read(_ hash: String, _ request: Request) async throws -> SignInRow? {
        var query: SQLQueryString = """
            SELECT s.id AS session_id, s.csrf_token AS session_csrf, s.created_at AS session_created,
                   s.last_seen_at AS session_seen, s.expires_at AS session_expires,
            """
        for count in request.application.headerCounts {
            query += " (" + count.subquery + ") AS \(ident: "count_" + count.name),"
        }
        query += """
             u.* FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = \(bind: hash) AND s.expires_at > \(bind: request.now)
            """
        // The mark comes first: a change made while this reads is not kept past it.
        let mark = request.application.personChanges.mark()
        guard let row = try await request.db.sql.raw(query).first(),
            let user = try? row.decode(model: User.Row.self), let session = try? row.decode(model: SessionRow.self)
        else { return nil }
        var counts: [String: Int] = [:]
        for count in request.application.headerCounts {
            counts[count.name] = (try? row.decode(column: "count_" + count.name, as: Int.self)) ?? 0
        }
        let signIn = SignInRow(user: user, session: session, counts: counts)
        request.application.signInCache.set(hash, person: user.id, mark: mark, value: signIn, now: request.now)
        return signIn
    }

    static func cookie(_ token: String, secure: Bool) -> HTTPCookies.Value {
        HTTPCookies.Value(
            string: token, maxAge: Int(UserSession.lifetime), path: "/",
            isSecure: secure, isHTTPOnly: true, sameSite: .lax
        )
    }
}

struct CurrentSessionKey: StorageKey { typealias Value = UserSession }

extension User: LayoutPerson {
    var layoutViewer: Layout.Viewer {
        Layout.Viewer(
            username: username, displayName: displayName, initials: initials,
            avatarURL: avatarFile == nil ? nil : SiteURL.avatar(username: username).path, isAdmin: role == .admin)
    }
}

/// What a signed-in request reads before its page: kept per session token (`signInCache`).
struct SignInRow: Sendable {
    let user: User.Row
    fileprivate let session: SessionRow
    let counts: [String: Int]

    var session_expires: Date { session.session_expires }
}

extension Application {
    private struct SignInCacheKey: StorageKey { typealias Value = PersonCache<SignInRow> }

    /// The sessions read lately, by their token's hash; made in `Accounts.boot`, before any request.
    var signInCache: PersonCache<SignInRow> {
        if let cache = storage[SignInCacheKey.self] { return cache }
        let cache = PersonCache<SignInRow>(changes: personChanges, capacity: 20_000)
        storage[SignInCacheKey.self] = cache
        return cache
    }
}

private struct SessionRow: Decodable, Sendable {
    let session_id: UUID
    let session_csrf: String
    let session_created: Date
    let session_seen: Date
    let session_expires: Date

    func model(userID: UUID) -> UserSession {
        let session = UserSession()
        session.id = session_id
        session.$id.exists = true
        session.$user.id = userID
        session.csrfToken = session_csrf
        session.createdAt = session_created
        session.lastSeenAt = session_seen
        session.expiresAt = session_expires
        return session
    }
}

extension Request {
    var currentUser: User? { auth.get(User.self) }

    /// The signed-in person, or a redirect to the sign-in page that brings them back here.
    func requireUser() throws -> User {
        if let user = currentUser { return user }
        var next = url.path
        if let query = url.query, !query.isEmpty { next += "?" + query }
        throw Abort.redirect(to: SiteURL.login(next: next), redirectType: .normal)
    }

    /// Starts a session for `user` and sets its cookie on `response`.
    func signIn(_ user: User, on response: Response) async throws {
        let token = RandomToken.make(), now = self.now
        let session = UserSession(
            tokenHash: RandomToken.hash(token), userID: try user.requireID(),
            csrfToken: RandomToken.make(), now: now
        )
        try await session.create(on: db)
        // Tidy up this person's expired sessions while we are here; nothing else needs them.
        try await UserSession.query(on: db).filter(\.$user.$id == user.requireID()).filter(\.$expiresAt < now).delete()
        response.cookies[SessionMiddleware.cookieName] = SessionMiddleware.cookie(token, secure: application.config.secureCookies)
        // A new session gets a new CSRF token, so one seen before signing in is worthless after.
        response.cookies[CSRF.cookieName] = .expiredAtRoot
    }

    func signOut(on response: Response) async throws {
        if let session = storage[CurrentSessionKey.self] {
            try await session.delete(on: db)
            try await personChanged(session.$user.id)
        }
        forgetSignIn()
        response.cookies[SessionMiddleware.cookieName] = .expiredAtRoot
    }

    /// Signed out for the rest of this request too, so a page rendered now shows no one.
    func forgetSignIn() {
        auth.logout(User.self)
        storage[SignedInKey.self] = nil
        storage[CurrentSessionKey.self] = nil
    }
}
