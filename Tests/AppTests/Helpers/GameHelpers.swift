@testable import App
import FieldhouseKit
import Foundation
import Testing
import Vapor

extension TestApp {
    /// A day and time `days` from now on the app's clock, as the game form takes them (UTC venue).
    func gameDay(_ days: Double) -> (day: String, time: String) {
        LocalTime.parts(of: clock.now.addingTimeInterval(days * 86_400), zone: "UTC")
    }

    /// The pick-up game form's fields, for creating a game or editing one.
    func pickupFields(
        sport: String = "volleyball", privacy: String = "public", capacity: Int = 10, minimum: Int = 2,
        days: Double = 3, lat: String = "55.68", lon: String = "12.57", age: String = "any",
        place: String = "Beach courts, net 3"
    ) -> [(String, String)] {
        let when = gameDay(days)
        return [
            ("sport", sport), ("day", when.day), ("time", "19:30"), ("time_zone", "UTC"), ("duration_minutes", "90"),
            ("place_name", place), ("latitude", lat), ("longitude", lon), ("privacy", privacy), ("age_group", age),
            ("gender", "any"), ("skill", "any"), ("capacity", String(capacity)), ("min_players", String(minimum)),
            ("description", "Bring water."),
        ]
    }
}

extension Browser {
    /// Organises a pick-up game through the form and returns its page's path.
    func createPickup(
        sport: String = "volleyball", privacy: String = "public", capacity: Int = 10, minimum: Int = 2,
        days: Double = 3, lat: String = "55.68", lon: String = "12.57", age: String = "any",
        place: String = "Beach courts, net 3"
    ) async throws -> String {
        let page = try await post(
            "/games/new",
            app.pickupFields(
                sport: sport, privacy: privacy, capacity: capacity, minimum: minimum,
                days: days, lat: lat, lon: lon, age: age, place: place), csrfFrom: "/games/new")
        #expect(page.status == .seeOther, "game not created: \(page.body.prefix(600))")
        return try #require(page.location)
    }
    /// Schedules a team game through the form and returns its page's path.
    func createTeamGame(team slug: String, days: Double = 3, opponent: String = "Old Town", extra: [(String, String)] = []) async throws -> String {
        let when = app.gameDay(days)
        let fields = [
            ("day", when.day), ("time", "18:00"), ("time_zone", "UTC"), ("duration_minutes", "60"),
            ("place_name", "Riverside Hall"), ("latitude", "55.68"), ("longitude", "12.57"),
            ("opponent_name", opponent), ("description", "Arrive 20 minutes early."),
        ]
        let page = try await post(
            "/teams/\(slug)/games/new", fields.filter { field in !extra.contains { $0.0 == field.0 } } + extra,
            csrfFrom: "/teams/\(slug)/games/new")
        #expect(page.status == .seeOther, "game not created: \(page.body.prefix(600))")
        return try #require(page.location)
    }
}

/// A strict reader of iCalendar text: fails the test on anything RFC 5545 does not allow that a
/// calendar program would trip over, and returns the events' properties.
enum StrictICS {
    struct Property {
        let name: String
        let parameters: String
        let value: String
    }

    static func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Property]] {
        #expect(text.hasSuffix("\r\n"), sourceLocation: sourceLocation)
        let physical = text.components(separatedBy: "\r\n").dropLast()
        for line in physical {
            #expect(line.utf8.count <= 75, "line longer than 75 octets: \(line)", sourceLocation: sourceLocation)
            #expect(!line.contains("\n") && !line.contains("\r"), "bare line break", sourceLocation: sourceLocation)
        }
        var logical: [String] = []
        for line in physical {
            if line.hasPrefix(" ") || line.hasPrefix("\t"), !logical.isEmpty { logical[logical.count - 1] += line.dropFirst() } else { logical.append(line) }
        }
        var stack: [String] = []
        var events: [[String: Property]] = []
        var current: [String: Property]?
        var calendarProperties = Set<String>()
        for line in logical {
            guard let colon = line.firstIndex(of: ":") else {
                Issue.record("no colon in \(line)", sourceLocation: sourceLocation)
                continue
            }
            let head = line[..<colon], value = String(line[line.index(after: colon)...])
            let name = String(head.split(separator: ";", maxSplits: 1).first ?? "")
            let parameters = head.contains(";") ? String(head.split(separator: ";", maxSplits: 1)[1]) : ""
            #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }, "bad name \(name)", sourceLocation: sourceLocation)
            switch name {
            case "BEGIN":
                stack.append(value)
                if value == "VEVENT" { current = [:] }
            case "END":
                #expect(stack.popLast() == value, "END:\(value) does not match", sourceLocation: sourceLocation)
                if value == "VEVENT", let event = current { events.append(event); current = nil }
            default:
                if current != nil {
                    #expect(current?[name] == nil || name == "CATEGORIES", "repeated \(name)", sourceLocation: sourceLocation)
                    current?[name] = Property(name: name, parameters: parameters, value: value)
                } else {
                    calendarProperties.insert(name)
                }
                if ["SUMMARY", "DESCRIPTION", "LOCATION"].contains(name) {
                    // Commas and semicolons in TEXT must be escaped.
                    var escaped = false
                    for character in value {
                        if escaped {
                            #expect("\\;,nN".contains(character), "bad escape \\\(character)", sourceLocation: sourceLocation); escaped = false
                        } else if character == "\\" {
                            escaped = true
                        } else {
                            #expect(character != "," && character != ";", "unescaped \(character) in \(name)", sourceLocation: sourceLocation)
                        }
                    }
                    #expect(!escaped, "dangling backslash", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(stack.isEmpty, "unclosed \(stack)", sourceLocation: sourceLocation)
        #expect(calendarProperties.isSuperset(of: ["VERSION", "PRODID"]), sourceLocation: sourceLocation)
        let utc = try! Regex(#"^\d{8}T\d{6}Z$"#)
        for event in events {
            for required in ["UID", "DTSTAMP", "DTSTART"] { #expect(event[required] != nil, "VEVENT without \(required)", sourceLocation: sourceLocation) }
            #expect(!(event["DTEND"] != nil && event["DURATION"] != nil), "both DTEND and DURATION", sourceLocation: sourceLocation)
            for key in ["DTSTAMP", "DTSTART"] {
                if let value = event[key]?.value {
                    #expect(value.wholeMatch(of: utc) != nil, "\(key) \(value) is not UTC date-time", sourceLocation: sourceLocation)
                }
            }
            if let duration = event["DURATION"]?.value {
                #expect(duration.wholeMatch(of: try! Regex(#"^PT(\d+H)?(\d+M)?$"#)) != nil, sourceLocation: sourceLocation)
            }
            if let geo = event["GEO"]?.value {
                let parts = geo.split(separator: ";")
                #expect(parts.count == 2 && parts.allSatisfy { Double($0) != nil }, "bad GEO \(geo)", sourceLocation: sourceLocation)
            }
            if let sequence = event["SEQUENCE"]?.value { #expect(Int(sequence) != nil, sourceLocation: sourceLocation) }
        }
        return events
    }

    static func unescape(_ value: String) -> String {
        var out = "", escaped = false
        for character in value {
            if escaped {
                out.append(character == "n" || character == "N" ? "\n" : character); escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}
