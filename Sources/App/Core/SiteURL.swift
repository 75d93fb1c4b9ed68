import Foundation
import Vapor

/// A path the app links to, redirects to, stores (in notifications) or hands out (invitations,
/// calendar feeds). Every such path is made by a named constructor, so it reads the same wherever it
/// is made, ids are always lower-case and every segment is escaped once.
///
/// Core knows no feature: each feature declares its own paths in `<Feature>/<Feature>URLs.swift`
/// as `extension SiteURL { static func game(_ id: UUID) -> SiteURL ... }`. Templates get their
/// paths from their page context or through `#url(...)` (see `URLTag`).
struct SiteURL: Sendable, Hashable, CustomStringConvertible {
    let path: String

    /// Joins segments into a path, escaping each one, so a slug or username can never add a
    /// segment or a query of its own.
    init(_ segments: String...) { self.init(segments: segments) }

    init(segments: [String]) {
        path =
            "/"
            + segments.map(Self.escape).joined(separator: "/")
    }

    /// This path with a query. Parameters without a value are left out, so optional filters can be
    /// passed as they are.
    func with(_ query: [(String, String?)]) -> String {
        let items = query.compactMap { name, value in
            value.flatMap { $0.isEmpty ? nil : name + "=" + (Self.encodeQueryValue($0)) }
        }
        return items.isEmpty ? path : path + "?" + items.joined(separator: "&")
    }

    /// This path with a fragment, for a link to one item of a page.
    func fragment(_ anchor: String) -> String { path + "#" + anchor }

    var description: String { path }

    /// How an id is written in every URL and every JSON answer.
    static func id(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// The site's front page.
    static let home = SiteURL(SitePath.home)

    /// Games and teams near a place (Games serves it; Teams sends visitors there too).
    static let find = SiteURL(SitePath.find)

    private init(path: String) { self.path = path }

    /// A path this site made earlier and stored, such as a notification's link. Anything that is not
    /// a path on this site becomes the front page.
    static func stored(_ path: String) -> SiteURL {
        path.hasPrefix("/") && !path.hasPrefix("//") && !path.contains("\\")
            && path.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) ? SiteURL(path: path) : home
    }

    private static func encodeQueryValue(_ value: String) -> String { escape(value) }

    /// RFC 3986 unreserved characters stay; every other UTF-8 byte becomes %XX. Byte by byte, because
    /// Foundation's `addingPercentEncoding` cost a few per cent of every page's time (pages link a lot).
    static func escape(_ text: String) -> String {
        func unreserved(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        }
        if text.utf8.allSatisfy(unreserved) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if unreserved(byte) {
                out.append(byte)
            } else {
                out += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Request {
    func redirect(to url: SiteURL) -> Response { redirect(to: url.path) }
}
