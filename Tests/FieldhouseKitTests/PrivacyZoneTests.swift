import FieldhouseKit
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

    @Test func noZonesNothingHidden() {
        #expect(PrivacyTrim.visible(Self.line, zones: []) == [Self.line])
        let everywhere = PrivacyZone(centre: Coordinate(latitude: 0, longitude: 0.025), radius: 2000)
        let far = PrivacyZone(centre: Coordinate(latitude: 0, longitude: 0.025), radius: 200_000)
        #expect(PrivacyTrim.visible(Self.line, zones: [far]).isEmpty)
        #expect(PrivacyTrim.visible(Self.line, zones: [everywhere]).count == 2)
    }
}
