@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing

/// Photos as people see them: re-encoded upright with nothing hidden in the file, in sizes that
/// pages and lists use, HEIC from iPhones accepted, avatars treated the same way, and every size
/// kept from people who may not see the photo.
@Suite struct PhotoPipelineTests {
    /// Width, height and whether any EXIF survived, read from served bytes.
    static func inspect(_ page: Browser.Page) throws -> (width: Int, height: Int, format: ImageFormat?, exif: Bool) {
        let header = try PhotoRenderer.header(page.bytes)
        let format = ImageFormat.sniff(page.bytes)
        var sanitizer = try ImageSanitizer(format: try #require(format))
        _ = try sanitizer.feed(page.bytes)
        return (header.width, header.height, format, try sanitizer.finish().exif != nil)
    }

    @Test func aChallengePhotoIsServedUprightWithoutMetadataAndInSizes() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            // 2,400 × 1,200 as stored, EXIF orientation 6 and a GPS position.
            let sent = try await cast.ana.sendChallenge(to: ["ben"], photo: "rotated_gps_large.jpg")
            #expect(sent.status == .seeOther)
            await app.app.photoSizer.idle()
            let photo = try #require(try await Photo.query(on: app.db).first())
            #expect(photo.sizes == .ready && photo.orientation == 1)
            let id = try photo.requireID().uuidString.lowercased()

            let page = try await cast.ben.get(try #require(sent.location))
            #expect(page.contains("src=\"/photos/\(id)/large\""))
            #expect(page.contains("class=\"orient-1\""))
            #expect(page.contains("href=\"/photos/\(id)\">Open full size"))
            #expect(page.contains("from the photo GPS"), "the place is still read from the original's EXIF")
            #expect(try await cast.ben.get("/challenges").contains("src=\"/photos/\(id)/small\""))

            for (path, width, height) in [("/photos/\(id)", 1200, 2400), ("/photos/\(id)/large", 640, 1280), ("/photos/\(id)/small", 160, 160)] {
                let served = try await cast.ben.get(path)
                #expect(served.status == .ok, "\(path)")
                #expect(served.headers.first(name: .contentType) == "image/jpeg")
                // Asked again every time (a 304 when unchanged), so a lost right to see it takes effect at once.
                #expect(served.headers.first(name: .cacheControl) == "private, no-cache")
                let etag = try #require(served.headers.first(name: .eTag))
                #expect(try await cast.ben.get(path, headers: ["If-None-Match": etag]).status == .notModified)
                let seen = try Self.inspect(served)
                #expect((seen.width, seen.height) == (width, height), "\(path)")
                #expect(!seen.exif && !served.body.contains("Fieldhouse fixture"), "\(path) carries no EXIF")
            }
            #expect(try await cast.ben.get("/photos/\(id)/huge").status == .notFound)
            // Not Dan's to see, at any size; not anyone's when signed out.
            for path in ["/photos/\(id)", "/photos/\(id)/large", "/photos/\(id)/small"] {
                #expect(try await cast.dan.get(path).status == .notFound, "\(path)")
                #expect(try await app.browser().get(path).status == .notFound, "\(path)")
            }
        }
    }

    @Test func aHEICReplyIsAcceptedAndServedAsJPEG() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let challenge = try #require(try await cast.ana.sendChallenge(to: ["ben", "cara"]).location)
            let heic = try fixturePhoto("rotated_gps.heic")
            let reply = try await cast.ben.multipart(
                "\(challenge)/responses", fields: [("key", "k1"), ("note", "From my iPhone"), ("location", "photo")],
                file: ("photo", "IMG_0001.HEIC", "image/heic", heic), csrfFrom: challenge)
            #expect(reply.status == .seeOther, "\(reply.body.prefix(300))")
            let response = try #require(try await ChallengeResponse.query(on: app.db).with(\.$photo).first())
            #expect(response.photo.format == "jpeg" && response.photo.originalFile.hasSuffix(".heic"))
            #expect(response.latitude != nil, "the place was read from the HEIC's EXIF")
            // Served as JPEG at once, before the sizes are made.
            let url = Photo.url(try response.photo.requireID())
            let first = try await cast.ana.get(url)
            #expect(first.headers.first(name: .contentType) == "image/jpeg")
            #expect(try Self.inspect(first).exif == false)
            await app.app.photoSizer.idle()
            let small = try await cast.ana.get(url + "/small")
            #expect(small.status == .ok && ImageFormat.sniff(small.bytes) == .jpeg)
            #expect(try Self.inspect(small).exif == false)

            // A file that only starts like a HEIC is refused, and nothing of it stays.
            let fake = try await cast.cara.multipart(
                "\(challenge)/responses", fields: [("key", "k2"), ("note", "x")],
                file: ("photo", "x.heic", "image/heic", [0, 0, 0, 24] + Array("ftypheic".utf8) + Array(repeating: 0, count: 100)),
                csrfFrom: challenge)
            #expect(fake.status == .unprocessableEntity && fake.contains("HEIC photo is damaged"))
            #expect(try await Photo.query(on: app.db).count() == 2)
        }
    }

    @Test func anAvatarIsCroppedUprightAndStripped() async throws {
        try await withApp { app in
            let browser = app.browser()
            try await browser.signUp("pictured")
            let upload = try await browser.upload(
                "/settings/avatar", field: "avatar", filename: "me.jpg", contentType: "image/jpeg",
                data: try fixturePhoto("rotated_gps_large.jpg"), csrfFrom: "/settings/avatar")
            #expect(upload.status == .seeOther)
            let served = try await app.browser().get("/u/pictured/avatar")
            #expect(served.status == .ok && served.headers.first(name: .contentType) == "image/jpeg")
            let seen = try Self.inspect(served)
            #expect((seen.width, seen.height) == (400, 400))
            #expect(!seen.exif && !served.body.contains("Fieldhouse fixture"))

            let heic = try await browser.upload(
                "/settings/avatar", field: "avatar", filename: "me.heic", contentType: "image/heic",
                data: try fixturePhoto("rotated_gps.heic"), csrfFrom: "/settings/avatar")
            #expect(heic.status == .seeOther)
            #expect(try Self.inspect(try await app.browser().get("/u/pictured/avatar")).format == .jpeg)
            let files = try FileManager.default.contentsOfDirectory(atPath: app.store.config.dataDirectory + "/avatars")
            #expect(files.count == 1, "the replaced avatar's file is gone: \(files)")
        }
    }

    /// After a restart, photos left unprocessed (or stored before processing existed) are done, and
    /// avatars stored as uploaded are re-encoded.
    @Test func aRestartFinishesWhatWasLeft() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            _ = try await cast.ana.sendChallenge(to: ["ben"], photo: "rotated_gps_large.jpg")
            await app.app.photoSizer.idle()
            let photo = try #require(try await Photo.query(on: app.db).first())
            // As if the server had stopped before sizing it.
            photo.sizes = .pending
            try await photo.update(on: app.db)
            for size in Photo.Size.allCases {
                try FileManager.default.removeItem(atPath: PhotoStore.sizePath(photo.servedFile, size, config: app.store.config))
            }
            // And an avatar saved as uploaded, EXIF and all, the way avatars used to be stored.
            let ana = try #require(try await User.query(on: app.db).filter(\.$username == "ana").first())
            let raw = try fixturePhoto("rotated_gps.jpg")
            try Data(raw).write(to: URL(fileURLWithPath: AvatarStore.path(of: "old.jpg", config: app.store.config)))
            ana.avatarFile = "old.jpg"
            try await ana.update(on: app.db)
            #expect(try await cast.ben.get("/u/ana/avatar").status == .notFound, "an unprocessed avatar is never served")

            try await startBackgroundWork(app.app)
            await app.app.photoSizer.idle()
            #expect(try await Photo.find(photo.requireID(), on: app.db)?.sizes == .ready)
            let small = try await cast.ben.get(Photo.url(try photo.requireID(), size: .small))
            #expect(try Self.inspect(small).width == 160)
            let avatar = try await cast.ben.get("/u/ana/avatar")
            #expect(avatar.status == .ok)
            #expect(try Self.inspect(avatar).exif == false)
            #expect(!FileManager.default.fileExists(atPath: AvatarStore.path(of: "old.jpg", config: app.store.config)))
        }
    }

    @Test func aPictureWithTooManyPixelsIsRefusedBeforeItIsStored() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            // A real PNG header claiming 20,000 × 20,000 pixels (400 megapixels) in a tiny file.
            var huge = PNGWriter.rgb(width: 1, height: 1) { _, _ in (0, 0, 0) }
            let side: [UInt8] = [0, 0, 0x4E, 0x20]
            huge.replaceSubrange(16..<24, with: side + side)
            let crc = PNGWriter.crc32(Array(huge[12..<29]))
            huge.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
            let sent = try await cast.ana.sendChallenge(to: ["ben"], photo: "huge.png", bytes: huge, contentType: "image/png")
            #expect(sent.status == .unprocessableEntity && sent.contains("20000 × 20000 pixels"), "\(sent.body.prefix(200))")
            #expect(try await Photo.query(on: app.db).count() == 0)
        }
    }
}
