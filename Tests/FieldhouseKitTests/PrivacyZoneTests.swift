import FieldhouseKit
import Foundation
import Testing

@Suite struct PrivacyZoneTests {
    /// A line along the equator from 0° to 0.05° east (about 5.6 km), a point every ~11 m.
    static let line = (0...500).map { Coordinate(latitude: 0, longitude: Double($0) * 0.0001) }

    @Test func pointsInsideAreDroppedAndThePathStartsAtTheEdge() {
        let home = PrivacyZone(centre: Coordinate(latitude: 0, longitude: 0), radius: 500)
        let pieces = PrivacyTrim.visible(Self.line, zones: [home])
        #expect(pieces.count == 1)
        let visible = pieces[0]
        #expect(visible.allSatisfy { !home.contains($0) })
        // The first point is on the circle: 500 m from home (within a metre).
        #expect(abs(Geo.distance(home.centre, visible[0]) - 500) < 1)
        #expect(visible.last == Self.line.last)
    }

    @Test func aZoneInTheMiddleSplitsThePath() {
        let school = PrivacyZone(centre: Coordinate(latitude: 0, longitude: 0.025), radius: 300)
        let pieces = PrivacyTrim.visible(Self.line, zones: [school])
        #expect(pieces.count == 2)
        #expect(pieces.joined().allSatisfy { !school.contains($0) })
        #expect(abs(Geo.distance(school.centre, pieces[0].last!) - 300) < 1)
        #expect(abs(Geo.distance(school.centre, pieces[1].first!) - 300) < 1)
    }

    /// A workout's map links chart readings to points by their seconds: each visible point keeps
    /// its own, an edge point takes its visible neighbour's, and no hidden point comes back.
    @Test func timedPiecesKeepEachPointsSeconds() throws {
        let school = PrivacyZone(centre: Coordinate(latitude: 0, longitude: 0.025), radius: 300)
        let seconds = Self.line.indices.map { Double($0) * 4 }
        let pieces = PrivacyTrim.visible(Self.line, seconds: seconds, zones: [school])
        #expect(pieces.map { $0.map(\.point) } == PrivacyTrim.visible(Self.line, zones: [school]))
        #expect(pieces.count == 2 && pieces.joined().allSatisfy { !school.contains($0.point) })
        for piece in pieces {
            for item in piece.dropFirst().dropLast() {
                let index = try #require(Self.line.firstIndex(of: item.point))
                #expect(item.seconds == seconds[index])
            }
            #expect(zip(piece, piece.dropFirst()).allSatisfy { $0.seconds <= $1.seconds })
        }
        #expect(pieces[0].last!.seconds < pieces[1].first!.seconds)
    }

    @Test func noZonesNothingHidden() {
        #expect(PrivacyTrim.visible(Self.line, zones: []) == [Self.line])
        let everywhere = PrivacyZone(centre: Coordinate(latitude: 0, longitude: 0.025), radius: 2000)
        let far = PrivacyZone(centre: Coordinate(latitude: 0, longitude: 0.025), radius: 200_000)
        #expect(PrivacyTrim.visible(Self.line, zones: [far]).isEmpty)
        #expect(PrivacyTrim.visible(Self.line, zones: [everywhere]).count == 2)
    }
}

/// The attack the moved circle answers: routes stop where they cross the hidden circle, so fitting a
/// circle through the stopping points of a few workouts gives its centre. That centre must not be home.
@Suite struct PrivacyZoneCentreTests {
    /// A least-squares circle through points (Kåsa's fit), in metres on a local plane around `origin`.
    static func fittedCentre(_ points: [Coordinate], origin: Coordinate) -> Coordinate {
        let metresPerDegree = 111_320.0, cosLat = cos(origin.latitude * .pi / 180)
        let xy = points.map { ((($0.longitude - origin.longitude) * metresPerDegree * cosLat), ($0.latitude - origin.latitude) * metresPerDegree) }
        // Solve [Σx² Σxy Σx; Σxy Σy² Σy; Σx Σy n] · [a b c] = [Σx·z; Σy·z; Σz] with z = x² + y²; centre = (a/2, b/2).
        var m = [[Double]](repeating: [0, 0, 0, 0], count: 3)
        for (x, y) in xy {
            let z = x * x + y * y, row = [x, y, 1.0]
            for i in 0..<3 {
                for j in 0..<3 { m[i][j] += row[i] * row[j] }
                m[i][3] += row[i] * z
            }
        }
        for i in 0..<3 {
            let pivot = m[i][i]
            for j in i..<4 { m[i][j] /= pivot }
            for k in 0..<3 where k != i {
                let factor = m[k][i]
                for j in i..<4 { m[k][j] -= factor * m[i][j] }
            }
        }
        let (cx, cy) = (m[0][3] / 2, m[1][3] / 2)
        return Coordinate(latitude: origin.latitude + cy / metresPerDegree, longitude: origin.longitude + cx / (metresPerDegree * cosLat))
    }

    @Test func theHomeCannotBeFoundFromWhereRoutesStop() {
        var generator = SystemRandomNumberGenerator()
        let home = Coordinate(latitude: 55.6761, longitude: 12.5683)
        for _ in 0..<50 {
            let zone = PrivacyZone.hiding(home, radius: 300, using: &generator)
            // Runs leaving home in eight directions, a point every 10 m for 1.5 km.
            var stops: [Coordinate] = []
            for direction in 0..<8 {
                let bearing = Double(direction) * .pi / 4 + 0.3
                let run = (0...150).map { step in
                    Coordinate(
                        latitude: home.latitude + Double(step) * 10 * cos(bearing) / 111_320,
                        longitude: home.longitude + Double(step) * 10 * sin(bearing) / (111_320 * cos(home.latitude * .pi / 180)))
                }
                let pieces = PrivacyTrim.visible(run, zones: [zone])
                #expect(pieces.joined().allSatisfy { Geo.distance($0, home) >= 300 }, "the place's own circle stays hidden")
                if let first = pieces.first?.first { stops.append(first) }
            }
            let guess = Self.fittedCentre(stops, origin: home)
            #expect(Geo.distance(guess, home) > 150, "the fitted centre is within 150 m of home")
        }
    }
}

@Suite struct VisibleTimelineTests {
    /// A run that starts at home: a minute inside the zone (heart rate all along), then out.
    @Test func everySampleInsideAZoneIsDropped() {
        let home = Coordinate(latitude: 55.68, longitude: 12.57)
        let zone = PrivacyZone(centre: home, radius: 295)
        // 5 m a second north: inside for the first 60 s, outside after.
        let points = (0..<180).map { second in
            TrackPoint(
                time: Int64(second) * 1000, latitude: second % 10 == 0 ? home.latitude + Double(second) * 5 / 111_320 : nil,
                longitude: second % 10 == 0 ? home.longitude : nil, heartRate: 120 + second / 10)
        }
        let visible = VisibleTimeline(points, zones: [zone])
        #expect(visible.isTrimmed)
        #expect(visible.points.first?.time == 60_000, "heart rate inside the zone goes with it")
        #expect(visible.points.allSatisfy { $0.coordinate.map { !zone.contains($0) } ?? true })
        #expect(visible.resumes.isEmpty, "nothing was shown before the hidden part")
        // There and back: out of the zone and home again, then out once more.
        let back =
            points + points.reversed().map { TrackPoint(time: 360_000 - $0.time, latitude: $0.latitude, longitude: $0.longitude) }
            + points.map { TrackPoint(time: 360_000 + $0.time, latitude: $0.latitude, longitude: $0.longitude) }
        let twice = VisibleTimeline(back, zones: [zone])
        #expect(twice.resumes.count == 1 && twice.points.contains { $0.time >= 420_000 })
        #expect(!VisibleTimeline(points, zones: []).isTrimmed && VisibleTimeline(points, zones: []).points.count == 180)
        let far = PrivacyZone(centre: Coordinate(latitude: 40, longitude: 0), radius: 300)
        #expect(!VisibleTimeline(points, zones: [far]).isTrimmed)
    }
}
