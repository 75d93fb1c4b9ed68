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

    /// The part of the site a page belongs to, for the main navigation.
    enum Section: String, Encodable {
        case home, teams, games, places, challenges, workouts, learn, people, messages, settings
    }

    struct Tab: Encodable {
        let label: String
        let url: String
        let current: Bool
    }

    /// One language a visitor can switch to (`Views/base.leaf`'s footer).
    struct LanguageChoice: Encodable {
        let code: String
        let name: String
        let current: Bool
    }

    let title: String
    /// The page's language, for `<html lang>`.
    let lang: String
    /// The language switch: every language, the page's own marked.
    let languages: [LanguageChoice]
    /// The page language's own name ("Português"), for the signed-in footer.
    let languageName: String
    /// This page's path and query, where the language switch comes back to.
    let here: String
    let section: Section?
    let csrf: String
    let viewer: Viewer?
    let flash: Flash?
    /// The features' header counts by name (`HeaderCount`); all 0 when signed out.
    let counts: [String: Int]
    /// The settings tabs, on pages under /settings/ only; the one for this path is current.
    let settingsTabs: [Tab]
    /// Reload the page after this many seconds, while something it shows is being made.
    let refreshSeconds: Int?
    /// Whether only a browser without script reloads (a page whose script keeps it current).
    let refreshWithoutScriptOnly: Bool
    /// The stylesheet, script and icon at their current versions.
    let assets: AssetURLs
}

extension Request {
    func layout(
        title: String, section: Layout.Section? = nil, hasForms: Bool = false, refreshSeconds: Int? = nil, refreshWithoutScriptOnly: Bool = false
    ) -> Layout {
        let viewer = storage[SignedInKey.self]?.person.layoutViewer
        // Anonymous pages without forms must not mint a token: that would set a cookie on every
        // visit to a public page and defeat caching.
        let csrf = viewer != nil || hasForms ? csrfToken : ""
        let language = self.language
        return Layout(
            title: title, lang: language.rawValue,
            languages: Language.allCases.map { Layout.LanguageChoice(code: $0.rawValue, name: $0.name, current: $0 == language) },
            languageName: language.name, here: url.string, section: section, csrf: csrf, viewer: viewer, flash: takeFlash(),
            counts: Dictionary(
                application.headerCounts.map { ($0.name, viewer == nil ? 0 : storage[HeaderCountsKey.self]?[$0.name] ?? 0) }, uniquingKeysWith: +),
            settingsTabs: url.path.hasPrefix("/settings/")
                ? application.settingsTabs.map { Layout.Tab(label: $0.label, url: $0.url.path, current: $0.url.path == url.path) } : [],
            refreshSeconds: refreshSeconds, refreshWithoutScriptOnly: refreshWithoutScriptOnly, assets: application.assets)
    }
}

extension HTTPCookies.Value {
    /// `.expired` has no path, so the browser would only clear a cookie set on the current path.
    static let expiredAtRoot = HTTPCookies.Value(string: "", expires: Date(timeIntervalSince1970: 0), path: "/")
}
