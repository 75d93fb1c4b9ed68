@testable import App
import FieldhouseKit
import Foundation
import Testing
import Vapor

/// Photos from `Tests/Fixtures/photos`.
func fixturePhoto(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/photos/\(name)")
    return Array(try Data(contentsOf: url))
}

extension Browser {
    /// Follows each other with `other` (both profiles public, so no approval is needed).
    func befriend(_ other: Browser, _ otherName: String, me: String) async throws {
        try await post("/u/\(otherName)/follow", [], csrfFrom: "/u/\(otherName)")
        try await other.post("/u/\(me)/follow", [], csrfFrom: "/u/\(me)")
    }

    /// Sends a challenge through the form; returns the response (303 to the challenge on success).
    func sendChallenge(
        to recipients: [String], caption: String = "Find this mural and copy the pose",
        photo: String = "geotagged_sony.jpg", bytes: [UInt8]? = nil, contentType: String = "image/jpeg",
        extra: [(String, String)] = [], location: String = "photo"
    ) async throws -> Page {
        var fields: [(String, String)] = [("key", UUID().uuidString), ("caption", caption)]
        fields += recipients.map { ("to", $0) }
        fields += [("location", location)] + extra
        return try await multipart(
            "/challenges/new", fields: fields,
            file: ("photo", photo, contentType, try bytes ?? fixturePhoto(photo)), csrfFrom: "/challenges/new")
    }

    /// Replies to a challenge with a photo.
    func reply(
        to challenge: String, photo: String = "r_sony.jpg", note: String = "Done it!", fields: [(String, String)] = [],
        key: String = UUID().uuidString
    ) async throws -> Page {
        try await multipart(
            "\(challenge)/responses", fields: [("key", key), ("note", note)] + fields,
            file: ("photo", photo, "image/jpeg", try fixturePhoto(photo)), csrfFrom: challenge)
    }
}

/// Ana with three friends (Ben, Cara, Eve) and a stranger (Dan) who follows nobody.
struct ChallengeCast {
    let ana, ben, cara, eve, dan: Browser

    static func make(_ app: TestApp) async throws -> ChallengeCast {
        let cast = ChallengeCast(ana: app.browser(), ben: app.browser(), cara: app.browser(), eve: app.browser(), dan: app.browser())
        try await cast.ana.signUp("ana", name: "Ana Costa")
        try await cast.ben.signUp("ben", name: "Ben Ode")
        try await cast.cara.signUp("cara", name: "Cara Lind")
        try await cast.eve.signUp("eve", name: "Eve Park")
        try await cast.dan.signUp("dan", name: "Dan Stranger")
        for (friend, name) in [(cast.ben, "ben"), (cast.cara, "cara"), (cast.eve, "eve")] {
            try await cast.ana.befriend(friend, name, me: "ana")
        }
        return cast
    }
}

/// The `/photos/…` addresses on a page, in order.
func photoURLs(in page: Browser.Page) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: #"src="(/photos/[0-9a-f-]+(?:/large|/small)?)""#) else { return [] }
    let body = page.body
    return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
        Range($0.range(at: 1), in: body).map { String(body[$0]) }
    }
}
