import FieldhouseKit
import Fluent
import Vapor
import SQLKit

/// A dozen places around the demo city (Copenhagen), two of them partners with a reward for
/// arriving by bike (Jonas runs the café's counter), and Maya's public loop around the lakes.
enum DemoPlaces {
    struct Entry {
        let name: String
        let kind: Place.Kind
        let lat: Double
        let lon: Double
        let radius: Double
        let sports: [Sport]
        let hours: String
        let about: String
        var reward: String = ""
    }

    static let entries: [Entry] = [
        Entry(
            name: "Fælledparken", kind: .park, lat: 55.6997, lon: 12.5705, radius: 500, sports: [.soccer, .running, .ultimate], hours: "Always open",
            about: "The city's big common: football pitches, a skate park and a 2 km running loop under the trees."),
        Entry(
            name: "Kongens Have", kind: .park, lat: 55.6856, lon: 12.5786, radius: 250, sports: [.running], hours: "07:00–22:00",
            about: "The royal garden: gravel paths for an easy run and lawns for stretching."),
        Entry(
            name: "Superkilen", kind: .park, lat: 55.6999, lon: 12.5425, radius: 300, sports: [.basketball, .running],
            hours: "Always open", about: "A long, colourful park with a basketball court and room to play."),
        Entry(
            name: "Amager Beach Courts", kind: .court, lat: 55.6545, lon: 12.6490, radius: 150, sports: [.volleyball], hours: "Always open, lit until 22:00",
            about: "Four beach volleyball courts by the lagoon; bring your own ball."),
        Entry(
            name: "Riverside Sports Hall", kind: .court, lat: 55.6810, lon: 12.5710, radius: 80, sports: [.futsal, .basketball, .badminton, .volleyball],
            hours: "Mon–Fri 07:00–23:00, weekends 08:00–20:00", about: "Two halls that take futsal, basketball and badminton. Indoor shoes only."),
        Entry(
            name: "Østerbro Stadium track", kind: .track, lat: 55.7036, lon: 12.5725, radius: 200, sports: [.running],
            hours: "Mon–Fri 06:00–21:00, weekends 08:00–18:00", about: "A 400 m track open to the public outside club sessions."),
        Entry(
            name: "Enghave Park pitch", kind: .pitch, lat: 55.6670, lon: 12.5460, radius: 150, sports: [.soccer, .ultimate], hours: "Always open",
            about: "An artificial pitch with goals of two sizes."),
        Entry(
            name: "Islands Brygge Harbour Bath", kind: .pool, lat: 55.6645, lon: 12.5750, radius: 150, sports: [.other],
            hours: "June–August 07:00–19:00", about: "Open-air pools in the harbour with lifeguards in summer."),
        Entry(
            name: "Nørrebro Community Gym", kind: .gym, lat: 55.6920, lon: 12.5500, radius: 60, sports: [.other], hours: "06:00–22:00",
            about: "A small gym run by volunteers; a day pass at the desk."),
        Entry(
            name: "Kaffe & Kæde", kind: .cafe, lat: 55.6760, lon: 12.5690, radius: 60, sports: [.cycling], hours: "08:00–18:00",
            about: "A café with a bike stand, a pump and a tool wall for riders.", reward: "10 % off your coffee when you arrive by bike"),
        Entry(
            name: "Cykelsmeden", kind: .shop, lat: 55.6890, lon: 12.5530, radius: 50, sports: [.cycling], hours: "Mon–Fri 10:00–18:00, Sat 10:00–14:00",
            about: "A neighbourhood bike shop: repairs while you wait.", reward: "A free tyre and brake check when you ride in"),
        Entry(
            name: "Sortedams Lake path", kind: .park, lat: 55.6905, lon: 12.5700, radius: 400, sports: [.running, .cycling], hours: "Always open",
            about: "The lakes' shore path: about 6.5 km around all three lakes."),
    ]

    /// Returns what it added; nothing once the demo places exist.
    static func seed(app: Application) async throws -> [String] {
        let today = app.clock.today
        return try await app.db.inTransaction { db -> [String] in
            guard try await Place.query(on: db).filter(\.$name == entries[0].name).first() == nil,
                let maya = try await User.query(on: db).filter(\.$username == "maya").first(),
                let jonas = try await User.query(on: db).filter(\.$username == "jonas").first()
            else { return [] }
            for entry in entries {
                let place = Place()
                place.name = entry.name
                place.kind = entry.kind
                place.latitude = entry.lat
                place.longitude = entry.lon
                place.radius = entry.radius
                place.description = entry.about
                place.openingHours = entry.hours
                place.sportsText = Place.sportsText(entry.sports)
                place.timeZone = "Europe/Copenhagen"
                place.rewardText = entry.reward
                place.rewardDailyCap = entry.reward.isEmpty ? 0 : 30
                place.rewardFrom = entry.reward.isEmpty ? nil : today.adding(days: -7).description
                place.rewardUntil = entry.reward.isEmpty ? nil : today.adding(days: 60).description
                place.$creator.id = maya.id
                try await place.create(on: db)
                if entry.kind == .cafe { try await PlaceManager(place: place.requireID(), user: jonas.requireID(), accepted: true).create(on: db) }
            }
            // Maya's loop around the three lakes, shared with everyone.
            // The lakes lie south-west to north-east: an ellipse along them, climbing a few metres to the north end.
            let loop: [(Double, Double, Double)] = (0...36).map { step in
                let angle = Double(step % 36) / 36 * 2 * .pi
                return (55.6872 + 0.0070 * cos(angle) + 0.0012 * sin(angle), 12.5665 + 0.0095 * cos(angle) - 0.0035 * sin(angle), 8 + 3 * cos(angle))
            }
            let shape = RouteShape(points: loop.map { Coordinate(latitude: $0.0, longitude: $0.1) }, elevations: loop.map { $0.2 })
            let route = Route(user: try maya.requireID(), name: "Round the lakes", shape: shape, sha256: "demo:lakes")
            route.visibility = .public
            route.sharedAt = app.clock.now.addingTimeInterval(-2 * 86_400)
            try await route.create(on: db)
            return ["Added \(entries.count) places around Copenhagen, two with rewards for arriving by bike, and Maya's route round the lakes."]
        }
    }
}

/// `make bench` data: many places spread over the country around the bench city, so "near me"
/// is measured where the index must do its work.
enum BenchPlaces {
    static func seed(count: Int, app: Application) async throws -> Bool {
        guard try await Place.query(on: app.db).filter(\.$name == "Bench place 1").first() == nil else { return false }
        var generator = SeededGenerator(seed: 22)
        let kinds = Place.Kind.allCases
        let columns = [
            "id", "name", "kind", "latitude", "longitude", "radius_m", "description", "opening_hours", "sports", "time_zone", "reward_text",
            "reward_daily_cap",
        ]
        var rows: [[any Encodable & Sendable]] = []
        for n in 0..<count {
            rows.append([
                UUID(), "Bench place \(n + 1)", kinds[n % kinds.count].rawValue, 55.68 + Double.random(in: -1.5...1.5, using: &generator),
                12.57 + Double.random(in: -2.5...2.5, using: &generator), 100.0, "", "", n % 3 == 0 ? ",running," : ",soccer,", "Europe/Copenhagen", "", 0,
            ])
        }
        let prepared = rows
        try await app.db.inTransaction { db in
            let sql = db.sql
            var index = 0
            while index < count {
                let batch = min(400, count - index)
                var insert = sql.insert(into: Place.schema).columns(columns)
                for values in prepared[index..<(index + batch)] { insert = insert.values(values.map { SQLBind($0) }) }
                try await insert.run()
                index += batch
            }
        }
        return true
    }
}
