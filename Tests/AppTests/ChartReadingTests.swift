@testable import App
import FieldhouseKit
import Fluent
import Foundation
import Testing
import Vapor

/// Charts you can read: the data each chart carries for the reading layer (Public/js/charts.js),
/// pace for the sports read by pace, and heart-rate variability from a strap's RR intervals.
@Suite("Chart reading, pace and heart-rate variability")
struct ChartReadingTests {
    /// Every `data-chart` on a page, decoded, by chart name.
    static func chartData(_ body: String) throws -> [String: [String: Any]] {
        var found: [String: [String: Any]] = [:]
        for match in body.matches(of: /data-chart='([^']*)'/) {
            let json = String(match.1).replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            found[try #require(object["n"] as? String)] = object
        }
        return found
    }

    /// The points of a drawing's line, in viewBox units.
    static func linePoints(_ svg: Substring) -> [(Double, Double)] {
        guard let d = svg.firstMatch(of: /<path class="cl" d="([^"]*)"/)?.1 else { return [] }
        return d.matches(of: /[ML](-?[0-9.]+) (-?[0-9.]+)/).map { (Double($0.1)!, Double($0.2)!) }
    }

    @Test func theDataOfAChartIsWhatItDrawsAndComesOncePerChart() async throws {
        try await withApp { app in
            let (ana, id) = try await WorkoutPageTests.anaWithWorkouts(app)
            let page = try await ana.get("/workouts/\(id)")
            let charts = try Self.chartData(page.main)
            // Once per chart, for its two drawings; the zone bars write every value out already and carry none.
            let wrappers = page.main.components(separatedBy: "<div class=\"chart-read\" data-chart=").dropFirst()
            #expect(wrappers.count == 4 && wrappers.count == page.main.components(separatedBy: "data-chart=").count - 1)
            #expect(wrappers.allSatisfy { $0.components(separatedBy: "</div>")[0].components(separatedBy: "<svg").count == 3 })
            let heart = try #require(charts["Heart rate over time, in beats per minute"])
            #expect(heart["link"] as? String == "workout" && heart["u"] as? String == "bpm")
            let xs = try #require(heart["x"] as? [Double]), ys = try #require(heart["y"] as? [Any])
            #expect(xs.count == ys.count && xs.count > 100)
            let x1 = try #require(heart["x1"] as? Double), y0 = try #require(heart["y0"] as? Double), y1 = try #require(heart["y1"] as? Double)
            #expect(x1 == xs.last)
            // The wide drawing's line goes through the carried points, in order (the chart's plot box is 46–590 × 24–194).
            let wide = try #require(page.main.firstMatch(of: /<svg class="chart chart-wide"[^>]*aria-label="Heart rate over time[\s\S]*?<\/svg>/)?.0)
            let drawn = Self.linePoints(wide)
            let carried = zip(xs, ys).compactMap { x, y in (y as? Double).map { (46 + x / x1 * 544, 24 + (1 - ($0 - y0) / (y1 - y0)) * 170) } }
            #expect(drawn.count == carried.count && drawn.count > 100)
            for (a, b) in zip(drawn, carried) { #expect(abs(a.0 - b.0) < 0.11 && abs(a.1 - b.1) < 0.11) }
            // Speed and elevation share the workout's elapsed seconds with heart rate.
            #expect(charts["Speed over time"]?["link"] as? String == "workout")
            #expect(charts["Elevation profile"]?["link"] as? String == "workout")
        }
    }

    /// The table of a workout's chart values: its heading cells and its rows (time, then one cell per column).
    static func valueTable(_ body: String) -> (columns: [String], rows: [(time: String, cells: [String])])? {
        guard let table = body.firstMatch(of: /<details class="panel chart-values">[\s\S]*?<\/details>/)?.0 else { return nil }
        let columns = table.matches(of: /<th scope="col">([^<]*)<\/th>/).map { String($0.1) }
        let rows = table.matches(of: /<tr><th scope="row">([^<]*)<\/th>((?:<td>[^<]*<\/td>)*)<\/tr>/).map { row in
            (String(row.1), row.2.matches(of: /<td>([^<]*)<\/td>/).map { String($0.1) })
        }
        return (columns, rows)
    }

    /// "1:02:03" or "45:12" in seconds.
    static func seconds(_ clock: String) -> Double {
        clock.split(separator: ":").reduce(0) { $0 * 60 + Double($1)! }
    }

    @Test func theWorkoutChartsHaveATableOfTheirValuesAtRoundTimes() async throws {
        try await withApp { app in
            let (ana, id) = try await WorkoutPageTests.anaWithWorkouts(app)
            let page = try await ana.get("/workouts/\(id)")
            let charts = try Self.chartData(page.main)
            let table = try #require(Self.valueTable(page.main))
            #expect(page.main.contains("<summary>Table of values</summary><div class=\"table-scroll\"><table class=\"standings\"><caption>"))
            #expect(table.columns == ["Time from the start", "Heart rate (bpm)", "Speed (km/h)", "Pace (min/km)", "Elevation (m)"])
            // Every two minutes over the run, from the start: 20–30 rows at round times.
            #expect(page.main.contains("<caption>Values of the charts every 2 min, from the start</caption>"))
            #expect((20...30).contains(table.rows.count), "\(table.rows.count) rows")
            #expect(table.rows.enumerated().allSatisfy { Self.seconds($0.element.time) == Double($0.offset * 120) })
            #expect(table.rows.allSatisfy { $0.cells.count == 4 })
            // Each cell is the chart's value at the point nearest its time, as the chart's data carries it.
            let names = ["Heart rate over time, in beats per minute", "Speed over time", "Pace over time, faster higher up", "Elevation profile"]
            var written = 0
            for (column, name) in names.enumerated() {
                let chart = try #require(charts[name])
                let xs = try #require(chart["x"] as? [Double]), ys = try #require(chart["y"] as? [Any])
                for row in table.rows {
                    let time = Self.seconds(row.time)
                    let nearest = xs.indices.min { abs(xs[$0] - time) < abs(xs[$1] - time) }!
                    let cell = row.cells[column]
                    guard let value = ys[nearest] as? Double, abs(xs[nearest] - time) <= 60 else {
                        #expect(cell == "–", "\(name) at \(row.time)")
                        continue
                    }
                    written += 1
                    switch column {
                    case 2: #expect(abs(Self.seconds(cell) + value) <= 1, "\(name) at \(row.time): \(cell) against \(value)")
                    case 1: #expect(abs(Double(cell)! - value) <= 0.1, "\(name) at \(row.time): \(cell) against \(value)")
                    default: #expect(abs(Double(cell)! - value) <= 0.5, "\(name) at \(row.time): \(cell) against \(value)")
                    }
                }
            }
            #expect(written > 80, "the run has values nearly everywhere")
            #expect(table.rows[5].cells.allSatisfy { $0 != "–" }, "ten minutes in, every measure has a value")
        }
    }

    @Test func aViewerWhoDoesNotSeeTheHeartRateGetsNoHeartRateColumn() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let start = 1_700_000_000.0
            let upload = try await ana.uploadFile(
                syntheticGPX(start: Date(timeIntervalSince1970: start), seconds: 900), filename: "run.gpx", token: token)
            let id = try #require((upload.workout["id"] as? String)?.lowercased())
            // A strap's heart rate in the first two minutes only, near Ana's home (the run starts at 55.6761, 12.5683).
            let beats = (5...120).map { #"{"t": \#(Int64(start * 1000) + Int64($0) * 1000), "bpm": 120}"# }
            let sent = try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"heart_rate": [\#(beats.joined(separator: ","))]}"#)
            #expect(sent.status == .created || sent.status == .ok)
            let workout = try #require(try await Workout.find(UUID(uuidString: id), on: app.db))
            workout.visibility = .public
            try await workout.save(on: app.db)
            let added = try await ana.post(
                "/settings/privacy-zones", [("name", "Home"), ("lat", "55.6761"), ("lon", "12.5683"), ("radius", "500")],
                csrfFrom: "/settings/privacy-zones")
            #expect(added.status == .seeOther)

            // Ana sees her heart rate, in the chart and in the table.
            let own = try await ana.get("/workouts/\(id)")
            #expect(own.main.contains("Heart rate over time"))
            #expect(Self.valueTable(own.main)?.columns.contains("Heart rate (bpm)") == true)
            #expect(Self.valueTable(own.main)?.rows[1].cells.first == "120")
            // Ben sees the run from where it leaves her zone: no heart-rate chart, so no heart-rate column either.
            let ben = app.browser()
            try await ben.signUp("ben")
            let other = try await ben.get("/workouts/\(id)")
            #expect(other.status == .ok && other.main.contains("parts near private places are hidden"))
            #expect(!other.main.contains("Heart rate over time"))
            let table = try #require(Self.valueTable(other.main))
            #expect(table.columns == ["Time from the start", "Speed (km/h)", "Pace (min/km)", "Elevation (m)"])
            #expect(!other.main.contains(">120<") && !other.main.contains("bpm"))
        }
    }

    @Test func aRunHasAPaceChartAndARideDoesNot() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            var ids: [String: String] = [:]
            for (sport, start) in [("running", 1_700_000_000.0), ("cycling", 1_700_010_000.0)] {
                let upload = try await ana.uploadFile(
                    syntheticGPX(start: Date(timeIntervalSince1970: start), seconds: 600, sport: sport), filename: "\(sport).gpx", token: token)
                ids[sport] = try #require((upload.workout["id"] as? String)?.lowercased())
            }
            let run = try await ana.get("/workouts/\(ids["running"]!)")
            let pace = try #require(try Self.chartData(run.main)["Pace over time, faster higher up"])
            // 0.00005° of longitude a second at 55.6761° is 3.13 m/s: 5:19 a kilometre, drawn as minus seconds (faster higher up).
            #expect(pace["f"] as? String == "pace" && pace["u"] as? String == "/km" && pace["link"] as? String == "workout")
            let values = try #require(pace["y"] as? [Any]).compactMap { $0 as? Double }
            #expect(!values.isEmpty && values.allSatisfy { (-325 ... -314).contains($0) }, "\(values.prefix(5))")
            #expect(run.main.contains("<h2 id=\"pace-h\">Pace</h2>"))
            // Ticks on the pace axis read as minutes and seconds.
            #expect(run.main.contains(">5:15</text>") || run.main.contains(">5:20</text>"))
            let ride = try await ana.get("/workouts/\(ids["cycling"]!)")
            #expect(ride.main.contains("Speed over time") && !ride.main.contains("Pace over time"))
        }
    }

    /// RR intervals 1000, 1010, 1030, 1000 six times over: 23 successive differences of 10, 20,
    /// −30 and 0 ms, whose squares add to 5 × 1400 + 1400 = 8400, so RMSSD = √(8400 / 23) =
    /// 19.1108 ms, and with their mean 0, SD1 = RMSSD / √2 = 13.5133 ms. Then artefacts that must
    /// change nothing: a beat of 2500 ms (out of range) and a jump of 40 % (1000 → 1400 → 1000),
    /// and a pair four seconds apart (a gap in the recording).
    @Test func rmssdFromAHandComputedSequence() throws {
        var rr: [(t: Int64, ms: Double)] = []
        var t: Int64 = 1_700_000_000_000
        func beat(_ ms: Double) { t += Int64(ms); rr.append((t, ms)) }
        for _ in 0..<6 { [1000.0, 1010, 1030, 1000].forEach(beat) }
        [2500.0, 1000, 1400, 1000].forEach(beat)
        t += 4000
        beat(1000)
        let figures = try #require(HeartRateVariability.figures(rr))
        #expect(figures.pairs.count == 23)
        #expect(abs(figures.rmssd - 19.1108) < 0.001)
        #expect(abs(figures.sd1 - 13.5133) < 0.001)
        #expect(HeartRateVariability.figures(Array(rr.prefix(20))) == nil, "too few pairs to say")
    }

    @Test func heartRateVariabilityIsShownWhereTheHeartRateIs() async throws {
        try await withApp { app in
            let ana = app.browser()
            try await ana.signUp("ana")
            let token = try await ana.deviceToken()
            let start = 1_700_000_000.0
            var ids: [String] = []
            for offset in [0.0, 10_000] {
                let upload = try await ana.uploadFile(
                    syntheticGPX(start: Date(timeIntervalSince1970: start + offset), seconds: 900, heartRate: 130), filename: "run.gpx", token: token)
                ids.append(try #require((upload.workout["id"] as? String)?.lowercased()))
            }
            // A strap's beats in the first two minutes of the first run only (near its start, 55.6761, 12.5683).
            var beats: [String] = []
            var t = Int64(start * 1000) + 5000
            for index in 0..<110 {
                let ms = index % 2 == 0 ? 800 : 840
                t += Int64(ms)
                beats.append(#"{"t": \#(t), "ms": \#(ms)}"#)
            }
            let sent = try await ana.api(.POST, "/api/v1/samples", token: token, json: #"{"rr": [\#(beats.joined(separator: ","))]}"#)
            #expect(sent.status == .created || sent.status == .ok)

            let page = try await ana.get("/workouts/\(ids[0])")
            #expect(page.main.contains("Heart-rate variability") && page.main.contains("RMSSD</dt><dd>40 ms</dd>"), "every difference is 40 ms")
            #expect(page.main.contains("Poincaré plot of 109 successive heartbeat intervals"))
            let without = try await ana.get("/workouts/\(ids[1])")
            #expect(without.main.contains("Heart rate over time") && !without.main.contains("Heart-rate variability"))

            // Ben may see the run but not near Ana's home, where every beat was: no variability for him.
            for id in ids {
                let workout = try #require(try await Workout.find(UUID(uuidString: id), on: app.db))
                workout.visibility = .public
                try await workout.save(on: app.db)
            }
            let ben = app.browser()
            try await ben.signUp("ben")
            let before = try await ben.get("/workouts/\(ids[0])")
            #expect(before.main.contains("Heart-rate variability"), "no privacy zone yet: he sees the heart rate and its beats")
            let added = try await ana.post(
                "/settings/privacy-zones", [("name", "Home"), ("lat", "55.6761"), ("lon", "12.5683"), ("radius", "500")],
                csrfFrom: "/settings/privacy-zones")
            #expect(added.status == .seeOther)
            let after = try await ben.get("/workouts/\(ids[0])")
            #expect(after.main.contains("Heart rate over time") && after.main.contains("parts near private places are hidden"))
            #expect(!after.main.contains("Heart-rate variability") && !after.main.contains("Poincaré"))
            #expect(try await ana.get("/workouts/\(ids[0])").main.contains("Heart-rate variability"), "the owner still sees it")
        }
    }
}
