import Vapor

/// What the shared page frame (`Views/base.leaf`) needs: title, the signed-in person, the CSRF
/// token for forms, and a one-time message. Every page context carries one.
struct Layout: Encodable {
    struct Viewer: Encodable {
        let username: String
        let displayName: String
        let initials: String
        let avatarURL: String?
        let isAdmin: Bool
    }

    let title: String
    let section: String?
    let csrf: String
    let viewer: Viewer?
    let flash: Flash?
    /// The features' header counts by name (`HeaderCount`); all 0 when signed out.
    let counts: [String: Int]
    /// Reload the page after this many seconds, while something it shows is being made.
    let refreshSeconds: Int?
}

extension Request {
    func layout(title: String, section: String? = nil, hasForms: Bool = false, refreshSeconds: Int? = nil) -> Layout {
        let viewer = currentUser.map {
            Layout.Viewer(
                username: $0.username, displayName: $0.displayName, initials: $0.initials,
                avatarURL: $0.avatarFile == nil ? nil : "/u/\($0.username)/avatar", isAdmin: $0.role == .admin
            )
        }
        // Anonymous pages without forms must not mint a token: that would set a cookie on every
        // visit to a public page and defeat caching.
        let csrf = viewer != nil || hasForms ? csrfToken : ""
        return Layout(title: title, section: section, csrf: csrf, viewer: viewer, flash: takeFlash(),
                      counts: Dictionary(uniqueKeysWithValues: HeaderCount.all.map { ($0.name, viewer == nil ? 0 : storage[HeaderCountsKey.self]?[$0.name] ?? 0) }),
                      refreshSeconds: refreshSeconds)
    }
}

extension HTTPCookies.Value {
    /// `.expired` has no path, so the browser would only clear a cookie set on the current path.
    static let expiredAtRoot = HTTPCookies.Value(string: "", expires: Date(timeIntervalSince1970: 0), path: "/")
}
