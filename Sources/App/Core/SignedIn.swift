import Vapor

/// Who is signed in, as far as Core needs to know: the person the layout shows and the session's
/// CSRF token. Accounts sets it when it reads the session cookie, so Core names no account type.
struct SignedIn: Sendable {
    let person: any LayoutPerson
    let csrfToken: String
}

/// Someone the page header can show.
protocol LayoutPerson: Sendable {
    var layoutViewer: Layout.Viewer { get }
    /// The language the person chose in their settings; nil to follow the browser.
    var language: Language? { get }
    /// The clock the person reads times in.
    var clock: ClockStyle { get }
}

struct SignedInKey: StorageKey {
    typealias Value = SignedIn
}
