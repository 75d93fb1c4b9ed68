@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Snap challenges")
struct ChallengeTests {
    @Test func sendToThreeFriendsReplyAcceptAndScoresUpdate() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let form = try await cast.ana.get("/challenges/new")
            #expect(form.contains(#"accept="image/*""#) && form.contains("Ben Ode") && form.contains("Cara Lind"))
            #expect(!form.contains("Dan Stranger"))

            let sent = try await cast.ana.sendChallenge(to: ["ben", "cara", "eve"])
            #expect(sent.status == .seeOther, "\(sent.body.prefix(500))")
            let url = try #require(sent.location)
            let page = try await cast.ana.get(url)
            #expect(page.contains("Find this mural and copy the pose"))
            #expect(page.contains("0 of 3 completed"))
            #expect(page.contains("Challenge sent to 3 friends"))
            // The place came from the photo's EXIF GPS, and is drawn and linked.
            #expect(page.contains("55.6761, 12.5683") && page.contains("from the photo GPS"))
            #expect(page.contains("<svg class=\"map\"") && page.contains("openstreetmap.org/?mlat=55.67610&amp;mlon=12.56834"))
            let challenge = try #require(try await Challenge.query(on: app.db).first())
            #expect(abs(try #require(challenge.latitude) - 55.676098) < 1e-5)

            for friend in [cast.ben, cast.cara, cast.eve] {
                let inbox = try await friend.get("/challenges")
                #expect(inbox.contains("Find this mural") && inbox.contains("From Ana Costa"))
                #expect(try await friend.get("/notifications").contains("Ana Costa challenged you"))
            }

            let replied = try await cast.ben.reply(to: url, fields: [("location", "here"), ("lat", "55.6765"), ("lon", "12.5690")])
            #expect(replied.status == .seeOther, "\(replied.body.prefix(500))")
            let anaHome = try await cast.ana.get("/")
            #expect(anaHome.contains(#"count-alert">1<"#), "header badge")
            let inbox = try await cast.ana.get("/challenges")
            #expect(inbox.contains("Reply from Ben Ode"))
            #expect(try await cast.ana.get("/notifications").contains("Ben Ode replied"))

            let response = try #require(try await ChallengeResponse.query(on: app.db).first())
            let rid = try response.requireID().uuidString.lowercased()
            #expect(try #require(response.distanceMetres) < 100)
            let accepted = try await cast.ana.post("\(url)/responses/\(rid)/accept", [("stars", "4")], csrfFrom: url)
            #expect(accepted.status == .seeOther)
            let after = try await cast.ana.get(url)
            #expect(after.contains("1 of 3 completed") && after.contains("★★★★☆"))
            #expect(!after.contains(#"count-alert""#), "badge cleared")
            #expect(try await cast.ben.get("/notifications").contains("accepted with 4 stars"))
            #expect(try await cast.ben.get("/challenges?list=finished").contains("You completed it"))

            let board = try await cast.ana.get("/challenges/scoreboard?scope=friends&period=week")
            #expect(board.body.range(of: #"Ben Ode</a></td><td class="num">4<"#) != nil, "\(board.body)")
            #expect(board.body.range(of: #"Ana Costa</a> \(you\)</td><td class="num">1<"#, options: .regularExpression) != nil)
            #expect(try await cast.ben.get("/u/ben").contains("<strong>4</strong> challenge points"))
            // Judging twice changes nothing.
            let again = try await cast.ana.post("\(url)/responses/\(rid)/accept", [("stars", "5")], csrfFrom: url)
            #expect(again.status == .conflict)
            #expect(try await Challenge.query(on: app.db).first()?.completedCount == 1)
        }
    }

    @Test func servedPhotosCarryNoMetadataAndReachOnlyThoseAllowed() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let url = try #require(try await cast.ana.sendChallenge(to: ["ben"]).location)
            let photo = try #require(photoURLs(in: try await cast.ana.get(url)).first)

            let served = try await cast.ben.get(photo)
            #expect(served.status == .ok)
            #expect(served.headers.first(name: .contentType) == "image/jpeg")
            #expect(served.headers.first(name: .cacheControl)?.hasPrefix("private") == true)
            #expect(served.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(ImageFormat.sniff(served.bytes) == .jpeg)
            #expect(Exif.jpegBlock(served.bytes) == nil)
            #expect(!served.body.contains("Exif") && !served.body.contains("SONY"))
            // The stored original keeps its GPS; only the served copy lost it.
            let row = try #require(try await Photo.query(on: app.db).first())
            let original = Array(try Data(contentsOf: URL(fileURLWithPath: PhotoStore.originalPath(row.originalFile, config: app.store.config))))
            #expect(original == (try fixturePhoto("geotagged_sony.jpg")))

            // Not a recipient, signed out, or a made-up id: 404, for the page and the photo alike.
            #expect(try await cast.dan.get(photo).status == .notFound)
            #expect(try await cast.dan.get(url).status == .notFound)
            #expect(try await cast.cara.get(photo).status == .notFound)
            #expect(try await app.browser().get(photo).status == .notFound)
            #expect(try await cast.dan.get("/photos/\(UUID().uuidString)").status == .notFound)
            #expect(try await cast.dan.get("/photos/..%2F..%2Ffieldhouse.sqlite").status == .notFound)
            #expect(!(try await cast.dan.get("/challenges").contains("Find this mural")))
            #expect(!(try await cast.dan.get("/challenges/public").contains("Find this mural")))

            // A reply's photo: the replier and the sender see it; another recipient only once accepted.
            let both = try #require(try await cast.ana.sendChallenge(to: ["ben", "cara"], caption: "Second one").location)
            try await cast.ben.reply(to: both)
            let replyPhoto = try #require(photoURLs(in: try await cast.ana.get(both)).last)
            #expect(try await cast.ben.get(replyPhoto).status == .ok)
            #expect(try await cast.cara.get(replyPhoto).status == .notFound)
            #expect(!(try await cast.cara.get(both).contains(replyPhoto)))
            let rid = try #require(try await ChallengeResponse.query(on: app.db).first()?.requireID()).uuidString.lowercased()
            try await cast.ana.post("\(both)/responses/\(rid)/accept", [("stars", "3")], csrfFrom: both)
            #expect(try await cast.cara.get(replyPhoto).status == .ok)
            #expect(try await cast.dan.get(replyPhoto).status == .notFound)
        }
    }

    @Test func publicChallengesAreOpenToEveryoneSignedIn() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let url = try #require(try await cast.ana.sendChallenge(to: [], caption: "Touch the top of Hill 47", extra: [("public", "on")]).location)
            let list = try await cast.dan.get("/challenges/public")
            #expect(list.contains("Touch the top of Hill 47"))
            #expect(try await cast.dan.get(url).status == .ok)
            // Back to the public challenges when he came from them; to his challenges otherwise.
            let fromList = try await cast.dan.get(url, headers: ["Referer": "http://127.0.0.1:\(app.port)/challenges/public?page=2"])
            #expect(fromList.contains(#"<p><a href="/challenges/public?page=2">← Public challenges</a></p>"#))
            #expect(try await cast.dan.get(url).contains(#"<p><a href="/challenges">← Challenges</a></p>"#))
            let photo = try #require(photoURLs(in: try await cast.dan.get(url)).first)
            #expect(try await cast.dan.get(photo).status == .ok)
            #expect(try await app.browser().get(photo).status == .notFound)
            #expect(try await app.browser().get("/challenges/public").location?.hasPrefix("/login") == true)
            let replied = try await cast.dan.reply(to: url, fields: [("location", "none")])
            #expect(replied.status == .seeOther)
            let rid = try #require(try await ChallengeResponse.query(on: app.db).first()?.requireID()).uuidString.lowercased()
            try await cast.ana.post("\(url)/responses/\(rid)/accept", [("stars", "5")], csrfFrom: url)
            let board = try await cast.eve.get("/challenges/scoreboard?scope=public&period=all")
            #expect(board.main.contains("Dan Stranger") && board.main.contains("Ana Costa"))
            // Eve is no friend of Dan's: the friends board leaves him out.
            #expect(!(try await cast.eve.get("/challenges/scoreboard?scope=friends&period=all").contains("Dan Stranger")))
        }
    }

    @Test func pngAndWebPAreCleanedToo() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            for (name, type, marker) in [("geotagged.png", "image/png", "eXIf"), ("geotagged.webp", "image/webp", "EXIF")] {
                let sent = try await cast.ana.sendChallenge(to: ["ben"], photo: name, contentType: type)
                #expect(sent.status == .seeOther, "\(name): \(sent.body.prefix(300))")
                let page = try await cast.ben.get(try #require(sent.location))
                // Before and after re-encoding (PNG stays PNG; WebP is served as JPEG once re-encoded).
                let first = try await cast.ben.get(try #require(photoURLs(in: page).first))
                #expect(!first.body.contains(marker) && !first.body.contains("Jo Private"), "\(name)")
                await app.app.photoSizer.idle()
                let served = photoURLs(in: try await cast.ben.get(try #require(sent.location)))
                #expect(!served.isEmpty, "\(name): the challenge shows no photo")
                for url in served {
                    let served = try await cast.ben.get(url)
                    #expect(served.headers.first(name: .contentType) == (type == "image/png" ? type : "image/jpeg"), "\(name) \(url)")
                    #expect(!served.body.contains(marker) && !served.body.contains("Jo Private"), "\(name) \(url)")
                }
                #expect(page.contains("from the photo GPS"), "\(name) location read from its EXIF")
            }
        }
    }

    @Test func badUploadsAreRefusedAndLeaveNothingBehind() async throws {
        try await withApp(config: { $0.maxUploadBytes = 200_000 }) { app in
            let store = app.store
            let cast = try await ChallengeCast.make(app)
            let jpeg = try fixturePhoto("geotagged_sony.jpg")

            let empty = try await cast.ana.sendChallenge(to: ["ben"], photo: "notjpeg.jpg")
            #expect(empty.status == .unprocessableEntity && empty.contains("That photo file is empty"))
            let text = try await cast.ana.sendChallenge(to: ["ben"], photo: "notes.jpg", bytes: Array("just some text, honest".utf8))
            #expect(text.status == .unsupportedMediaType && text.contains("not a JPEG, PNG, WebP or HEIC"))
            let cut = try await cast.ana.sendChallenge(to: ["ben"], bytes: Array(jpeg.prefix(30_000)))
            #expect(cut.status == .unprocessableEntity && cut.contains("incomplete"))
            let heic = try await cast.ana.sendChallenge(
                to: ["ben"], photo: "IMG.heic", bytes: [0, 0, 0, 24] + Array("ftypheic".utf8) + Array(repeating: 0, count: 100))
            #expect(heic.status == .unprocessableEntity && heic.contains("HEIC photo is damaged"))
            let huge = try await cast.ana.sendChallenge(to: ["ben"], bytes: jpeg + Array(repeating: 0, count: 400_000))
            #expect(huge.status == .payloadTooLarge)
            let noCaption = try await cast.ana.sendChallenge(to: ["ben"], caption: "   ")
            #expect(noCaption.status == .unprocessableEntity && noCaption.contains("Write a caption"))
            let long = try await cast.ana.sendChallenge(to: ["ben"], caption: String(repeating: "x", count: 281))
            #expect(long.status == .unprocessableEntity && long.contains("280 characters"))
            let stranger = try await cast.ana.sendChallenge(to: ["ben", "dan"])
            #expect(stranger.status == .forbidden && stranger.contains("only send challenges to friends"))
            let nobody = try await cast.ana.sendChallenge(to: [])
            #expect(nobody.status == .unprocessableEntity && nobody.contains("Choose at least one friend"))
            let farOff = try await cast.ana.sendChallenge(to: ["ben"], extra: [("lat", "91"), ("lon", "12")], location: "here")
            #expect(farOff.status == .unprocessableEntity && farOff.contains("between -90 and 90"))
            let past = try await cast.ana.sendChallenge(to: ["ben"], extra: [("deadline", "2020-01-01T10:00")])
            #expect(past.status == .unprocessableEntity && past.contains("at least 15 minutes from now"))
            let forged = try await cast.ana.multipart(
                "/challenges/new", fields: [("caption", "x"), ("to", "ben")],
                file: ("photo", "a.jpg", "image/jpeg", jpeg), csrfFrom: nil)
            #expect(forged.status == .forbidden)

            #expect(try await Challenge.query(on: app.db).count() == 0)
            #expect(try await Photo.query(on: app.db).count() == 0)
            // The photos of forms with mistakes were kept for another try, for a quarter of an hour.
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.config.dataDirectory + "/photos/held").count == 5)
            app.clock.advance(by: 16 * 60)
            HeldPhoto.sweep(now: app.clock.now, config: store.config)
            for folder in ["originals", "served", "large", "small", "held"] {
                let files = try FileManager.default.contentsOfDirectory(atPath: store.config.dataDirectory + "/photos/" + folder)
                #expect(files.isEmpty, "\(folder): \(files)")
            }
            // The server is still serving, and a good upload still works.
            #expect(try await cast.ana.sendChallenge(to: ["ben"]).status == .seeOther)
        }
    }

    /// A form with a mistake keeps the chosen photo: the page shows it again, only its owner can
    /// see it, and the corrected form is sent without choosing (or uploading) it again.
    @Test func aFormWithAMistakeKeepsThePhotoForTheNextTry() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let noCaption = try await cast.ana.sendChallenge(to: ["ben"], caption: " ")
            #expect(noCaption.status == .unprocessableEntity && noCaption.contains("Write a caption"))
            #expect(noCaption.contains("Your photo is kept") && !noCaption.contains("Choose the photo again"))
            let key = try #require(noCaption.firstMatch(#"name="held_photo" value="([A-Za-z0-9_-]{43})""#))
            let preview = try #require(noCaption.firstMatch(#"class="photo-preview" alt="[^"]*" src="(/photos/held/[A-Za-z0-9_-]{43})""#))
            let image = try await cast.ana.get(preview)
            #expect(image.status == .ok && image.headers.first(name: .contentType) == "image/jpeg")
            #expect(!image.body.isEmpty && image.headers.first(name: .cacheControl) == "private, no-store")
            // Nobody else sees it, friend or not, signed in or not; nor can they send it as theirs.
            #expect(try await cast.ben.get(preview).status == .notFound)
            #expect(try await app.browser().get(preview).status == .notFound)
            #expect(try await cast.ana.get("/photos/held/..%2F..%2Fsecret.key").status == .notFound)
            let stolen = try await cast.ben.multipart(
                "/challenges/new", fields: [("key", UUID().uuidString), ("caption", "Mine now"), ("held_photo", key), ("location", "none")],
                file: nil, csrfFrom: "/challenges/new")
            #expect(stolen.status == .unprocessableEntity && stolen.contains("Choose a photo for your challenge"))

            // Fixed: the caption, and no file this time.
            let sent = try await cast.ana.multipart(
                "/challenges/new",
                fields: [("key", UUID().uuidString), ("caption", "Find this mural"), ("to", "ben"), ("location", "photo"), ("held_photo", key)],
                file: nil, csrfFrom: "/challenges/new")
            #expect(sent.status == .seeOther)
            let challenge = try #require(try await Challenge.query(on: app.db).with(\.$photo).first())
            #expect(challenge.caption == "Find this mural" && challenge.photo.exifLatitude != nil, "the held photo keeps its place")
            #expect(try await cast.ben.get(try #require(sent.location)).contains("Find this mural"))
            // The key is spent.
            #expect(try await cast.ana.get(preview).status == .notFound)

            // A reply with a mistake keeps its photo too.
            let url = try #require(sent.location)
            let long = try await cast.ben.reply(to: url, note: String(repeating: "n", count: 281))
            #expect(long.status == .unprocessableEntity)
            let replyKey = try #require(long.firstMatch(#"name="held_photo" value="([A-Za-z0-9_-]{43})""#))
            let replied = try await cast.ben.multipart(
                "\(url)/responses", fields: [("key", UUID().uuidString), ("note", "Done"), ("held_photo", replyKey)], file: nil, csrfFrom: url)
            #expect(replied.status == .seeOther)
            #expect(try await ChallengeResponse.query(on: app.db).count() == 1)
        }
    }

    @Test func hostileCaptionsRenderAsText() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let hostile = #"<script>alert(1)</script><img src=x onerror=alert(2)>'; DROP TABLE challenges;--"#
            let url = try #require(try await cast.ana.sendChallenge(to: ["ben"], caption: hostile).location)
            for page in [try await cast.ben.get(url), try await cast.ben.get("/challenges")] {
                #expect(!page.contains("<script>alert(1)") && !page.contains("<img src=x"))
                #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            }
            #expect(try await Challenge.query(on: app.db).count() == 1)
        }
    }

    @Test func oneOpenReplyRetryAfterRejectionAndDeadline() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let url = try #require(try await cast.ana.sendChallenge(to: ["ben", "cara"]).location)
            let key = UUID().uuidString
            #expect(try await cast.ben.reply(to: url, key: key).status == .seeOther)
            // The same submission again (a retry) is harmless; a new one while the first is open is refused.
            #expect(try await cast.ben.reply(to: url, key: key).status == .seeOther)
            #expect(try await ChallengeResponse.query(on: app.db).count() == 1)
            let second = try await cast.ben.reply(to: url)
            #expect(second.status == .conflict && second.contains("wait for the judgement"))

            // Only the sender judges; others get 403, strangers 404.
            let rid = try #require(try await ChallengeResponse.query(on: app.db).first()?.requireID()).uuidString.lowercased()
            #expect(try await cast.cara.post("\(url)/responses/\(rid)/accept", [("stars", "5")], csrfFrom: url).status == .forbidden)
            #expect(try await cast.dan.post("\(url)/responses/\(rid)/accept", [("stars", "5")], csrfFrom: "/challenges").status == .notFound)
            #expect(try await cast.ana.post("\(url)/responses/\(rid)/accept", [("stars", "9")], csrfFrom: url).status == .unprocessableEntity)
            #expect(try await cast.ana.post("\(url)/responses/\(rid)/reject", [("reason", " ")], csrfFrom: url).status == .unprocessableEntity)
            let rejected = try await cast.ana.post("\(url)/responses/\(rid)/reject", [("reason", "Wrong mural")], csrfFrom: url)
            #expect(rejected.status == .seeOther)
            #expect(try await cast.ben.get("/notifications").contains("not accepted: Wrong mural"))
            #expect(try await cast.ben.get("/challenges").contains("Not accepted: Wrong mural. Try again!"))
            #expect(try await cast.ben.reply(to: url).status == .seeOther)
            #expect(try await ChallengeResponse.query(on: app.db).count() == 2)

            // A note over 280 characters or a judgement reason over 200 is refused, and nothing is saved.
            let longNote = try await cast.cara.reply(to: url, note: String(repeating: "n", count: 281))
            #expect(longNote.status == .unprocessableEntity && longNote.contains("280 characters"))
            let pending = try #require(try await ChallengeResponse.query(on: app.db).filter(\.$status == .pending).first())
            let pid = try pending.requireID().uuidString.lowercased()
            let longReason = try await cast.ana.post("\(url)/responses/\(pid)/reject", [("reason", String(repeating: "r", count: 201))], csrfFrom: url)
            #expect(longReason.status == .unprocessableEntity && longReason.contains("200 characters"))
            #expect(try await ChallengeResponse.query(on: app.db).count() == 2)
            #expect(try await Photo.query(on: app.db).count() == 3)

            // The sender can't reply to their own challenge; after the deadline nobody can.
            #expect(try await cast.ana.reply(to: url).status == .forbidden)
            let challenge = try #require(try await Challenge.query(on: app.db).first())
            challenge.deadline = app.clock.now.addingTimeInterval(-60)
            try await challenge.save(on: app.db)
            let late = try await cast.cara.reply(to: url)
            #expect(late.status == .conflict && late.contains("closed"))
            #expect(try await ChallengeResponse.query(on: app.db).count() == 2)
            #expect(try await cast.cara.get("/challenges?list=finished").contains("Closed before you completed it"))
        }
    }

    @Test func judgesSeeFlagsForFarAwayAndOldPhotos() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let url = try #require(try await cast.ana.sendChallenge(to: ["ben"]).location)
            // 55.7661 is 10 km north of the challenge; r_sony.jpg was taken in 2013.
            try await cast.ben.reply(to: url, fields: [("location", "here"), ("lat", "55.7661"), ("lon", "12.5683")])
            let page = try await cast.ana.get(url)
            #expect(page.contains("Taken 10 km away from the challenge location"))
            #expect(page.contains("Photo taken before the challenge was sent"))
            #expect(try await cast.ana.get("/challenges").contains("Taken 10 km away"))
            // The judge still decides.
            #expect(page.contains("/accept\"") && page.contains("/reject\""))
        }
    }

    @Test func deletingAChallengeDeletesItsFiles() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let url = try #require(try await cast.ana.sendChallenge(to: ["ben"]).location)
            try await cast.ben.reply(to: url)
            let photos = photoURLs(in: try await cast.ana.get(url))
            #expect(photos.count == 2)
            let folder = app.store.config.dataDirectory + "/photos/served"
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 2)
            #expect(try await cast.ben.post("\(url)/delete", [("confirm", "yes")], csrfFrom: url).status == .forbidden)
            #expect(try await cast.ana.post("\(url)/delete", [], csrfFrom: url).status == .unprocessableEntity)
            let deleted = try await cast.ana.post("\(url)/delete", [("confirm", "yes")], csrfFrom: url)
            #expect(deleted.status == .seeOther)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: app.store.config.dataDirectory + "/photos/originals").isEmpty)
            for photo in photos { #expect(try await cast.ana.get(photo).status == .notFound) }
            #expect(try await cast.ben.get(url).status == .notFound)
            #expect(try await Photo.query(on: app.db).count() == 0)
        }
    }
}

@Suite("Snap challenge lists and maps")
struct ChallengeListTests {
    /// Maps draw their tiles through this server, which fetches each from the configured tile
    /// server once and keeps it; browsers never call the tile server.
    @Test func mapTilesComeThroughTheServerAndAreFetchedOnce() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString).log").path
        let tiles = try LocalServer.start("tile-server.py", arguments: ["--log", log])
        defer {
            tiles.stop()
            try? FileManager.default.removeItem(atPath: log)
        }
        try await withApp(config: { $0.tileURL = "http://127.0.0.1:\(tiles.port)/{z}/{x}/{y}.png" }) { app in
            let cast = try await ChallengeCast.make(app)
            let url = try #require(try await cast.ana.sendChallenge(to: ["ben"]).location)
            let page = try await cast.ben.get(url)
            // A single photo is shown at zoom 15; Copenhagen City Hall Square is tile 17527/10256.
            // The map's tiles carry its signed area: two tiles around the three by two it shows.
            let signed = try #require(page.body.firstMatch(of: /<image href="(\/tiles\/15\/17527\/10256\.png\?a=([0-9.]+)&amp;s=([A-Za-z0-9_-]{22}))"/))
            let area = try #require(MapTiles.Area(text: String(signed.output.2)))
            #expect(area.zoom == 15 && area.contains(z: 15, x: 17527, y: 10256) && area.maxX - area.minX <= 8 && area.maxY - area.minY <= 8)
            let sign = try #require(app.app.mapTiles)
            #expect(signed.output.1.replacingOccurrences(of: "&amp;", with: "&") == sign.url(z: 15, x: 17527, y: 10256, in: area))
            let tileURL = sign.url(z: 15, x: 17527, y: 10256, in: area)
            #expect(!page.contains("127.0.0.1:\(tiles.port)"))
            // The zoomable layer gets the same area, as a template for every tile in it.
            #expect(page.contains(SVGMap.escape(sign.template(area))))
            #expect(page.contains("© OpenStreetMap contributors"))
            let policy = try #require(page.headers.first(name: "Content-Security-Policy"))
            #expect(policy.contains("img-src 'self' data:;"))

            for viewer in [cast.ben, cast.ben, app.browser()] {
                let tile = try await viewer.get(tileURL)
                #expect(tile.status == .ok && tile.headers.first(name: .contentType) == "image/png")
                #expect(tile.headers.first(name: .cacheControl) == "public, max-age=604800")
            }
            let asked = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(asked.count == 1 && asked[0].hasPrefix("/15/17527/10256.png Fieldhouse/"), "fetched once, saying who asks: \(asked)")
            // Zooming in stays inside the area; tiles outside it, or that cannot exist, are not asked for.
            #expect(try await cast.ben.get(sign.url(z: 17, x: 17527 * 4 + 3, y: 10256 * 4, in: area)).status == .ok)
            let query = "?a=\(area.text)&s=\(sign.signature(area))"
            for path in [
                "/tiles/20/0/0.png", "/tiles/3/8/0.png", "/tiles/3/0/-1.png", "/tiles/3/0/0.jpg", "/tiles/x/0/0.png", "/tiles/3/0/..%2F0.png",
                "/tiles/15/0/0.png" + query, "/tiles/15/\(area.maxX + 1)/10256.png" + query, "/tiles/19/\(17527 * 16)/\(10256 * 16).png" + query,
                "/tiles/3/0/0.png", "/tiles/15/17527/10256.png?s=" + sign.signature(area),
                "/tiles/15/17527/10256.png?a=\(area.text)&s=" + String(repeating: "A", count: 22),
                "/tiles/15/17527/10256.png?a=15.17000.10000.18000.11000&s=" + sign.signature(area),
            ] {
                #expect(try await cast.ben.get(path).status == .notFound, "\(path)")
            }
            let world = MapTiles.Area(zoom: 0, x: 0...0, y: 0...0, margin: 0)
            cast.ben.expectedServerError = .badGateway
            #expect(try await cast.ben.get(sign.url(z: 1, x: 0, y: 0, in: world)).status == .badGateway)
            #expect(try await cast.ben.get(sign.url(z: 1, x: 0, y: 0, in: world)).status == .badGateway)
            // A redirect from the tile server is not followed anywhere.
            #expect(try await cast.ben.get(sign.url(z: 2, x: 1, y: 1, in: world)).status == .badGateway)
            cast.ben.expectedServerError = nil
            let all = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(all.count == 5 && !all.contains { $0.hasPrefix("/15/0/0.png") }, "\(all)")
        }
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            let url = try #require(try await cast.ana.sendChallenge(to: ["ben"]).location)
            let page = try await cast.ben.get(url)
            #expect(page.contains("<svg class=\"map\"") && !page.contains("<image "))
            #expect(try await cast.ben.get("/tiles/15/17527/10256.png").status == .notFound)
        }
    }

    /// Issue 41, scenario 4: nobody can make the proxy fetch tiles of their choosing, many at once,
    /// or keep more than the cache's size.
    @Test func theTileProxyFetchesOnlyDrawnTilesAtABoundedRateIntoABoundedCache() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString).log").path
        let tiles = try LocalServer.start("tile-server.py", arguments: ["--log", log, "--delay", "0.3"])
        defer {
            tiles.stop()
            try? FileManager.default.removeItem(atPath: log)
        }
        func asked() throws -> [Substring] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        }
        try await withApp(config: {
            $0.tileURL = "http://127.0.0.1:\(tiles.port)/{z}/{x}/{y}.png"
            $0.tileCacheBytes = 300
        }) { app in
            let sign = try #require(app.app.mapTiles)
            let area = MapTiles.Area(zoom: 16, x: 35_000...35_020, y: 20_000...20_000, margin: 0)
            let visitor = app.browser()
            // Fifty made-up tiles, as in the report: none is fetched.
            for x in 0..<50 { #expect(try await visitor.get("/tiles/16/\(30_000 + x)/20000.png").status == .notFound) }
            #expect(try asked().isEmpty)
            // Twenty at once for one tile: one fetch.
            let one = sign.url(z: 16, x: 35_000, y: 20_000, in: area)
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<20 { group.addTask { try await app.browser().get(one).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok } && statuses.count == 20)
            #expect(try asked().count == 1)
            // The folder keeps about 300 bytes of tiles (these are 67 bytes each), the newest.
            for x in 1...6 { #expect(try await visitor.get(sign.url(z: 16, x: 35_000 + x, y: 20_000, in: area)).status == .ok) }
            let kept = try FileManager.default.subpathsOfDirectory(atPath: app.app.config.dataDirectory + "/tiles").filter { $0.hasSuffix(".png") }
            #expect((3...4).contains(kept.count) && kept.contains("16/35006/20000.png"), "\(kept)")
            #expect(app.app.tileStore.totalBytes <= 300)
            // One visitor gets a burst of fetches, then waits.
            app.app.tileLimiter = TileLimiter(burst: 5, perSecond: 0.001, everyoneBurst: 100, everyonePerSecond: 10)
            var refused = 0
            for x in 10..<20 {
                let status = try await visitor.get(sign.url(z: 16, x: 35_000 + x, y: 20_000, in: area)).status
                #expect(status == .ok || status == .tooManyRequests)
                if status == .tooManyRequests { refused += 1 }
            }
            let fetched = try asked().count
            #expect(refused == 5 && fetched == 12)
            // A tile kept (the last one fetched) is still served to them.
            #expect(try await visitor.get(sign.url(z: 16, x: 35_014, y: 20_000, in: area)).status == .ok)
            #expect(try asked().count == 12)
            // Kept tiles count too, so running out of fetches never tells kept tiles (200) from others (429).
            app.app.tileViewLimiter = TileLimiter(burst: 2, perSecond: 0.001, everyoneBurst: .infinity, everyonePerSecond: 0)
            let keptTile = sign.url(z: 16, x: 35_014, y: 20_000, in: area)
            for _ in 0..<2 { #expect(try await visitor.get(keptTile).status == .ok) }
            #expect(try await visitor.get(keptTile).status == .tooManyRequests)
        }
    }

    @Test func longListsArePaged() async throws {
        try await withApp { app in
            let cast = try await ChallengeCast.make(app)
            for index in 0..<8 {
                #expect(try await cast.ana.sendChallenge(to: ["ben"], caption: "Challenge number \(index)").status == .seeOther)
            }
            let inbox = try await cast.ben.get("/challenges")
            // Six per section on the inbox, newest first, and a link to the whole list.
            #expect(inbox.contains("Challenge number 7") && inbox.contains("Challenge number 2") && !inbox.contains("Challenge number 1<"))
            #expect(inbox.contains(#"href="/challenges?list=todo""#))
            let all = try await cast.ben.get("/challenges?list=todo")
            #expect(all.contains("Challenge number 0") && all.contains("Challenge number 7"))
            #expect(try await cast.ana.get("/challenges?list=sent").contains("0 of 1 completed"))
        }
    }
}
