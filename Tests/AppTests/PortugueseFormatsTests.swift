@testable import App
import FieldhouseKit
import Foundation
import Testing

/// Numbers, days and months a Portuguese reader sees where `Format` now writes them (issue 45):
/// each checked in the page's own `<main>`, against what Foundation or the calendar say
/// independently of the app's formatter, and beside the English reader, whose page is unchanged.
@Suite struct PortugueseFormatsTests {
    /// The page's own content, without the header and footer every page shares.
    static func main(_ page: Browser.Page) throws -> String {
        let body = page.body
        let open = try #require(body.range(of: "<main"), "no <main> in \(body.prefix(300))")
        let close = try #require(body.range(of: "</main>", range: open.upperBound..<body.endIndex))
        return String(body[open.upperBound..<close.lowerBound])
    }

    /// A search radius typed as "2,5" is read back in the reader's numbers: "Até 2,5 km".
    @Test func aSearchRadiusIsWrittenWithADecimalComma() async throws {
        try await withApp { app in
            app.browserLanguage = "pt-PT,pt;q=0.9"
            let ines = app.browser()
            try await ines.signUp("ines_r", name: "Inês Rocha")
            let portuguese = try Self.main(try await ines.get("/find?what=games&radius_km=2%2C5&lat=55.68&lon=12.57"))
            #expect(portuguese.contains("Até 2,5 km"), "\(PortuguesePagesTests.readableText(portuguese).prefix(1500))")
            #expect(!portuguese.contains("2.5 km"))

            app.browserLanguage = "en"
            let maya = app.browser()
            try await maya.signUp("maya_r", name: "Maya Reed")
            let english = try Self.main(try await maya.get("/find?what=games&radius_km=2.5&lat=55.68&lon=12.57"))
            #expect(english.contains("Within 2.5 km"), "\(PortuguesePagesTests.readableText(english).prefix(1500))")
        }
    }

    /// A game's page heads it with its day in full, as Foundation writes it in each language
    /// ("domingo, 29 de novembro de 2026"); the app now writes it from WallClock's names.
    @Test func aGamesDayInFullReadsAsFoundationWritesIt() async throws {
        try await withApp { app in
            app.browserLanguage = "pt-PT,pt;q=0.9"
            let oda = app.browser()
            try await oda.signUp("oda_l", name: "Oda Lima")
            let url = try await oda.createPickup(days: 3)
            let day = app.gameDay(3).day
            let parser = DateFormatter()
            parser.dateFormat = "yyyy-MM-dd HH:mm"
            parser.timeZone = TimeZone(identifier: "UTC")
            let start = try #require(parser.date(from: day + " 19:30"))
            func full(_ locale: String) -> String {
                start.formatted(
                    Date.FormatStyle(locale: Locale(identifier: locale), timeZone: TimeZone(identifier: "UTC")!).weekday(.wide).day().month(.wide).year())
            }
            let portuguese = try Self.main(try await oda.get(url))
            #expect(portuguese.contains("<strong>\(full("pt_PT"))</strong>"), "\(PortuguesePagesTests.readableText(portuguese).prefix(1500))")

            app.browserLanguage = "en"
            let maya = app.browser()
            try await maya.signUp("maya_l", name: "Maya Lund")
            let english = try Self.main(try await maya.get(url))
            #expect(english.contains("<strong>\(full("en_GB"))</strong>"), "\(PortuguesePagesTests.readableText(english).prefix(1500))")
        }
    }

    /// "Membro desde novembro de 2026" on a profile, and the reminder form's weekdays as labels
    /// ("Domingo"): month and weekday names come from one place.
    @Test func aProfilesMonthAndTheReminderDaysAreNamedInPortuguese() async throws {
        try await withApp { app in
            app.browserLanguage = "pt-PT,pt;q=0.9"
            let ines = app.browser()
            try await ines.signUp("ines_m", name: "Inês Matos")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let today = calendar.dateComponents([.year, .month], from: app.clock.now)
            let months = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"]
            let since = "\(months[try #require(today.month) - 1]) de \(try #require(today.year))"
            let profile = try Self.main(try await ines.get("/u/ines_m"))
            #expect(profile.contains("<dd>\(since)</dd>"), "\(PortuguesePagesTests.readableText(profile).prefix(1500))")

            let reminders = try Self.main(try await ines.get("/reminders"))
            for name in ["Segunda-feira", "Quarta-feira", "Sábado", "Domingo"] {
                #expect(reminders.contains(">\(name)</label>"), "\(name): \(PortuguesePagesTests.readableText(reminders).prefix(1500))")
            }
        }
    }
}
