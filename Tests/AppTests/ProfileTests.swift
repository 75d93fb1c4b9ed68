@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

@Suite("Profiles, pictures and privacy")
struct ProfileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    @Test func everyProfileMistakeGetsItsOwnMessage() async throws {
        try await withApp { app in
            let browser = app.browser()
            try await browser.signUp("careful")
            let cases: [([String: String], String)] = [
                (["display_name": "  "], "Enter your name"),
                (["height_cm": "300"], "Enter a height between 50 and 260 cm"),
                (["height_cm": "49"], "Enter a height between 50 and 260 cm"),
                (["weight_kg": "10"], "Enter a weight between 20 and 350 kg"),
                (["weight_kg": "400"], "Enter a weight between 20 and 350 kg"),
                (["height_cm": "tall"], "Enter your height as a number"),
                (["birth_date": "2999-01-01"], "Your date of birth cannot be in the future"),
                (["birth_date": "1850-06-01"], "Enter a date of birth after 1900"),
                (["birth_date": "2001-02-30"], "Enter a real date"),
                (["birth_date": ""], "Enter your date of birth"),
                (["time_zone": "Mars/Olympus"], "Choose your time zone from the list"),
                (["units": "furlongs"], "Choose metric or imperial units"),
                (["home_lat": "91", "home_lon": "10"], "Enter a latitude between -90 and 90"),
                (["home_lat": "10", "home_lon": "181"], "Enter a longitude between -180 and 180"),
                (["home_lat": "55.6"], "Enter both latitude and longitude, or neither"),
                (["bio": String(repeating: "x", count: 501)], "Keep your bio to 500 characters or fewer"),
                (["display_name": String(repeating: "n", count: 61)], "Keep your name to 60 characters or fewer"),
                (["sports[soccer]": "legendary"], "Choose a skill level from the list"),
            ]
            for (changes, message) in cases {
                let page = try await browser.saveProfile(changes.merging(["bio": changes["bio"] ?? "unchanged bio"]) { a, _ in a })
                #expect(page.status == .unprocessableEntity, "\(changes) was accepted")
                #expect(page.contains(message), "\(changes): expected “\(message)”")
            }
            let user = try #require(try await User.query(on: app.db).filter(\.$username == "careful").first())
            #expect(user.heightCm == nil, "nothing is saved from an invalid form")
            #expect(user.bio == nil)

            // Height and weight are optional: a teen who only wants a bio is not stopped.
            let teen = app.browser()
            try await teen.signUp("kit", birthDate: "2012-04-02")
            let bioOnly = try await teen.saveProfile(["height_cm": "", "weight_kg": "", "bio": "Keeper, U15"])
            #expect(bioOnly.status == .seeOther, "\(bioOnly.body.prefix(300))")
            let kit = try #require(try await User.query(on: app.db).filter(\.$username == "kit").first())
            #expect(kit.bio == "Keeper, U15" && kit.heightCm == nil && kit.weightKg == nil)
            let form = try await teen.get("/settings/profile")
            #expect(form.contains("Weight (kg, optional)") && form.contains("estimated for a 70 kg person"))
        }
    }

    @Test func aSavedProfileShowsWhatOthersMaySeeAndHidesTheRest() async throws {
        try await withApp { app in
            let owner = app.browser()
            try await owner.signUp("zoe", name: "Zoe Park", birthDate: "1988-07-09")
            let saved = try await owner.saveProfile([
                "display_name": "Zoe Park", "bio": "Left wing <script>alert(1)</script>", "birth_date": "1988-07-09",
                "gender": "female", "height_cm": "171.5", "weight_kg": "63.2", "home_name": "Harbour",
                "home_lat": "55.676098", "home_lon": "12.568337", "sports[futsal]": "advanced", "sports[running]": "beginner",
                "continuous_hr": "on",
            ])
            #expect(saved.status == .seeOther)
            let user = try #require(try await User.query(on: app.db).filter(\.$username == "zoe").first())
            #expect(user.heightCm == 171.5)
            #expect(user.weightKg == 63.2)
            #expect(user.homeLat == 55.68, "home is stored coarsely")
            #expect(user.continuousHeartRate)

            let stranger = app.browser()
            let page = try await stranger.get("/u/zoe")
            #expect(page.status == .ok)
            #expect(page.main.contains("Zoe Park"))
            #expect(page.contains("Futsal"))
            #expect(page.contains("Advanced"))
            #expect(page.contains("Harbour"))
            #expect(page.contains("35+"), "the age group may be shown")
            #expect(page.contains("&lt;script&gt;"), "typed HTML is shown as text")
            #expect(!page.contains("<script>alert"))
            for secret in ["1988", "63.2", "55.6", "12.5", "171.5"] {
                #expect(!page.contains(secret), "profile page leaks \(secret)")
            }
            let own = try await owner.get("/settings/profile")
            #expect(own.contains("value=\"1988-07-09\""))
        }
    }

    /// Issue 42: a home area typed as a town is looked up (as /find does), so "Find a team"
    /// no longer asks for it; a name that is no place is refused and changes nothing.
    @Test func aHomeAreaTypedByNameIsLookedUp() async throws {
        try await withApp { app in
            let owner = app.browser()
            try await owner.signUp("zoe", name: "Zoe Park", birthDate: "1988-07-09")
            let base = ["display_name": "Zoe Park", "birth_date": "1988-07-09", "gender": "female"]
            let unknown = try await owner.saveProfile(base.merging(["home_name": "Qqzzxxq"]) { $1 })
            #expect(unknown.status == .unprocessableEntity && unknown.contains("No place called “Qqzzxxq” was found"))
            #expect(try await User.query(on: app.db).filter(\.$username == "zoe").first()?.homeName == nil)

            let saved = try await owner.saveProfile(base.merging(["home_name": "Lisboa"]) { $1 })
            #expect(saved.status == .seeOther)
            let user = try #require(try await User.query(on: app.db).filter(\.$username == "zoe").first())
            #expect(user.homeName == "Lisboa")
            let (lat, lon) = (try #require(user.homeLat), try #require(user.homeLon))
            #expect(abs(lat - 38.72) < 0.05 && abs(lon + 9.14) < 0.05, "Lisbon, coarsely: \(lat), \(lon)")
            #expect(lat == (lat * 100).rounded() / 100, "kept to about a kilometre")
            #expect(try await owner.get("/settings/profile").contains("Home area: Lisbon, Portugal"), "says what the typed name was found to be")
            let find = try await owner.get("/find?what=teams")
            #expect(find.status == .ok && !find.contains("Add your home area in"))
        }
    }

    @Test func timesOfDayFollowEachReadersClock() async throws {
        try await withApp { app in
            let organiser = app.browser()
            try await organiser.signUp("olga", name: "Olga Organiser")
            let url = try await organiser.createPickup()

            let reader = app.browser()
            try await reader.signUp("rui", name: "Rui Reader")
            #expect(try await reader.get("/settings/profile").contains(#"<option value="24h" selected>24-hour (19:30)</option>"#))
            #expect(try await reader.saveProfile(["time_zone": "UTC", "clock": "12h"]).status == .seeOther)
            #expect(try await reader.get("/settings/profile").contains(#"<option value="12h" selected>12-hour (7:30 pm)</option>"#))

            let seen = try await reader.get(url)
            #expect(seen.contains("7:30 pm"))
            #expect(!seen.contains("19:30"))
            #expect(try await organiser.get(url).contains("19:30"), "the organiser keeps the 24-hour clock")

            // Written for each recipient as they read times: the news of a move, whoever moves it.
            try await reader.post("\(url)/join", [("note", "")], csrfFrom: url)
            var moved = app.pickupFields(days: 4)
            moved.removeAll { $0.0 == "time" }
            moved.append(("time", "20:15"))
            #expect(try await organiser.post("\(url)/edit", moved, csrfFrom: "\(url)/edit").status == .seeOther)
            let news = try await reader.get("/notifications")
            #expect(news.contains("at 8:15 pm"))
            #expect(!news.contains("20:15"))

            // A clock that is not offered is refused beside its field, and nothing changes.
            let refused = try await reader.saveProfile(["time_zone": "UTC", "clock": "36h"])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.contains("Choose the 24-hour or the 12-hour clock"))
            let stored = try #require(try await User.query(on: app.db).filter(\.$username == "rui").first())
            #expect(stored.clock == .twelveHour)
            // A profile form from before the choice keeps it.
            #expect(try await reader.saveProfile(["time_zone": "UTC"]).status == .seeOther)
            #expect(try #require(try await User.query(on: app.db).filter(\.$username == "rui").first()).clock == .twelveHour)
            // A reminder's time too.
            #expect(
                try await reader.post("/reminders", [("title", "Stretch"), ("time", "18:45"), ("days[]", "1"), ("alert", "10")], csrfFrom: "/reminders").status
                    == .seeOther)
            #expect(try await reader.get("/reminders").contains("6:45 pm"))
        }
    }

    @Test func peopleUnder16StartFollowersOnly() async throws {
        try await withApp { app in
            let teen = app.browser()
            let year = Calendar(identifier: .gregorian).component(.year, from: app.clock.now) - 14
            try await teen.signUp("young_one", birthDate: "\(year)-01-15")
            try await app.browser().signUp("grown_up", birthDate: "1980-01-15")
            let young = try #require(try await User.query(on: app.db).filter(\.$username == "young_one").first())
            let adult = try #require(try await User.query(on: app.db).filter(\.$username == "grown_up").first())
            #expect(young.visibility == .followers)
            #expect(adult.visibility == .public)

            // Strangers cannot find a child: not the page, not search, and so they cannot ask to follow.
            let stranger = app.browser(); try await stranger.signUp("stranger_x")
            #expect(try await app.browser().get("/u/young_one").status == .notFound)
            #expect(try await stranger.get("/u/young_one").status == .notFound)
            #expect(try await stranger.get("/people?q=young").contains("young_one") == false)
            #expect(try await stranger.post("/u/young_one/follow", [], csrfFrom: "/people").status == .notFound)
            // Once she follows him he may see who she is, no more, and following her is a request.
            try await teen.post("/u/stranger_x/follow", [], csrfFrom: "/u/stranger_x")
            let page = try await stranger.get("/u/young_one")
            #expect(page.status == .ok)
            #expect(page.contains("shares their profile with followers only"))
            #expect(!page.contains("12–14"))
            try await stranger.post("/u/young_one/follow", [], csrfFrom: "/u/young_one")
            #expect(try await Follow.query(on: app.db).filter(\.$status == .pending).count() == 1)

            // An adult's profile for followers is still found by anyone, in search and in lists.
            let adultBrowser = app.browser(); try await adultBrowser.logIn("grown_up")
            try await adultBrowser.post("/settings/privacy", [("visibility", "followers")], csrfFrom: "/settings/privacy")
            try await adultBrowser.post("/u/stranger_x/follow", [], csrfFrom: "/u/stranger_x")
            #expect(try await stranger.get("/people?q=grown").contains("@grown_up"))
            #expect(try await app.browser().get("/u/stranger_x/followers").contains("@grown_up"))
            #expect(try await app.browser().get("/u/stranger_x/followers").contains("@young_one") == false)
        }
    }

    @Test func aPrivateProfileIsInvisibleToStrangersEverywhere() async throws {
        try await withApp { app in
            let hidden = app.browser()
            try await hidden.signUp("hidden_h", name: "Hidden Hannah")
            try await hidden.post("/settings/privacy", [("visibility", "private")], csrfFrom: "/settings/privacy")
            let friend = app.browser()
            try await friend.signUp("friend_f")
            // Hannah follows Fred, so Fred may see her and ask to follow back.
            try await hidden.post("/u/friend_f/follow", [], csrfFrom: "/u/friend_f")

            let stranger = app.browser()
            try await stranger.signUp("stranger_s")
            #expect(try await stranger.get("/u/hidden_h").status == .notFound)
            #expect(try await stranger.get("/u/hidden_h/followers").status == .notFound)
            #expect(try await stranger.get("/u/hidden_h/avatar").status == .notFound)
            #expect(!(try await stranger.get("/people?q=hannah").contains("hidden_h")))
            #expect(!(try await stranger.get("/people").contains("hidden_h")))
            #expect(!(try await stranger.get("/u/friend_f/following").contains("hidden_h")), "not through someone's list either")
            let follow = try await stranger.post("/u/hidden_h/follow", [], csrfFrom: "/")
            #expect(follow.status == .notFound)
            let anonymous = app.browser()
            #expect(try await anonymous.get("/u/hidden_h").status == .notFound)
            #expect(!(try await anonymous.get("/people?q=hid").contains("hidden_h")))

            // Fred sees her, asks to follow, she accepts, and then he sees everything.
            #expect(try await friend.get("/people?q=hannah").contains("hidden_h"))
            #expect(try await friend.get("/u/hidden_h").status == .ok)
            try await friend.post("/u/hidden_h/follow", [], csrfFrom: "/u/hidden_h")
            try await hidden.post("/friends/requests/friend_f/approve", [], csrfFrom: "/friends")
            let full = try await friend.get("/u/hidden_h")
            #expect(full.contains("followers</a>"))
            #expect(try await app.browser().get("/u/hidden_h").status == .notFound, "still hidden from others")
        }
    }

    @Test func aRealJPEGBecomesTheAvatarAndNonImagesAreRefused() async throws {
        try await withApp { app in
            let browser = app.browser()
            try await browser.signUp("pictured")
            let empty = try await browser.upload(
                "/settings/avatar", field: "avatar", filename: "notjpeg.jpg", contentType: "image/jpeg", data: try Self.fixture("photos/notjpeg.jpg"),
                csrfFrom: "/settings/avatar")
            #expect(empty.status == .unprocessableEntity)
            #expect(empty.contains("the file was empty"))

            let text = try await browser.upload(
                "/settings/avatar", field: "avatar", filename: "me.jpg", contentType: "image/jpeg", data: Array("just some text, honest".utf8),
                csrfFrom: "/settings/avatar")
            #expect(text.status == .unsupportedMediaType)
            #expect(text.contains("not a JPEG, PNG, WebP or HEIC picture"))
            #expect(try await User.query(on: app.db).filter(\.$username == "pictured").first()?.avatarFile == nil)

            let jpeg = try Self.fixture("photos/noexif.jpg")
            let ok = try await browser.upload(
                "/settings/avatar", field: "avatar", filename: "../../etc/passwd", contentType: "application/octet-stream", data: jpeg,
                csrfFrom: "/settings/avatar")
            #expect(ok.status == .seeOther)
            let user = try #require(try await User.query(on: app.db).filter(\.$username == "pictured").first())
            let file = try #require(user.avatarFile)
            #expect(file.hasSuffix(".jpg") && !file.contains("/"))

            let served = try await app.browser().get("/u/pictured/avatar")
            #expect(served.status == .ok)
            #expect(served.headers.first(name: .contentType) == "image/jpeg")
            #expect(served.headers.first(name: .cacheControl)?.hasPrefix("private") == true)
            // Re-encoded, not the upload itself.
            #expect(ImageFormat.sniff(served.bytes) == .jpeg && served.bytes != jpeg)

            // Once the profile is private, the picture is private too.
            try await browser.post("/settings/privacy", [("visibility", "followers")], csrfFrom: "/settings/privacy")
            #expect(try await app.browser().get("/u/pictured/avatar").status == .notFound)
            #expect(try await browser.get("/u/pictured/avatar").status == .ok)
        }
    }

    @Test func anUploadOverTheLimitIsRefusedWith413() async throws {
        try await withApp { app in
            let browser = app.browser()
            try await browser.signUp("bigfile")
            var big = try Self.fixture("photos/noexif.jpg")
            big += [UInt8](repeating: 0, count: app.app.config.maxUploadBytes + 1)
            let page = try await browser.upload(
                "/settings/avatar", field: "avatar", filename: "big.jpg", contentType: "image/jpeg", data: big, csrfFrom: "/settings/avatar")
            #expect(page.status == .payloadTooLarge)
            #expect(try await User.query(on: app.db).filter(\.$username == "bigfile").first()?.avatarFile == nil)
            #expect(try await browser.get("/healthz").status == .ok)
        }
    }

    @Test func changingThePasswordChecksTheOldOneAndSignsOutOtherDevices() async throws {
        try await withApp { app in
            let phone = app.browser()
            try await phone.signUp("switcher")
            let laptop = app.browser()
            try await laptop.logIn("switcher")

            let wrong = try await phone.post(
                "/settings/password",
                [("current_password", "nope nope nope"), ("new_password", "a brand new secret"), ("confirm_password", "a brand new secret")],
                csrfFrom: "/settings/password")
            #expect(wrong.status == .unprocessableEntity)
            #expect(wrong.contains("That is not your current password"))
            let mismatch = try await phone.post(
                "/settings/password",
                [("current_password", Browser.password), ("new_password", "a brand new secret"), ("confirm_password", "a different secret")],
                csrfFrom: "/settings/password")
            #expect(mismatch.contains("The two new passwords do not match"))

            let ok = try await phone.post(
                "/settings/password",
                [("current_password", Browser.password), ("new_password", "a brand new secret"), ("confirm_password", "a brand new secret")],
                csrfFrom: "/settings/password")
            #expect(ok.status == .seeOther)
            #expect(try await phone.get("/friends").status == .ok)
            #expect(try await laptop.get("/friends").status == .seeOther)
            #expect(try await app.browser().logIn("switcher", password: "a brand new secret").status == .seeOther)
        }
    }
}
