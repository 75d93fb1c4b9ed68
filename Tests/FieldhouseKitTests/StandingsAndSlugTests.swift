import FieldhouseKit
import Testing

@Suite struct StandingsTests {
    @Test func threePointsForAWinOneForADraw() {
        let table = Standings.table(
            teams: ["A", "B", "C", "D"],
            results: [
                .init(home: "A", away: "B", homeScore: 2, awayScore: 1),
                .init(home: "C", away: "A", homeScore: 0, awayScore: 0),
                .init(home: "B", away: "C", homeScore: 3, awayScore: 0),
            ])
        #expect(table.map(\.team) == ["A", "B", "C", "D"])
        let a = table[0]
        #expect((a.played, a.won, a.drawn, a.lost) == (2, 1, 1, 0))
        #expect((a.pointsFor, a.pointsAgainst, a.points) == (2, 1, 4))
        let b = table[1]
        #expect((b.played, b.won, b.lost, b.points, b.difference) == (2, 1, 1, 3, 2))
        #expect(table[3].played == 0, "a team without games is still listed")
    }

    @Test func resultsWithUnknownTeamsAreIgnored() {
        let table = Standings.table(teams: ["A"], results: [.init(home: "A", away: "X", homeScore: 5, awayScore: 0)])
        #expect(table.first?.played == 0)
    }
}

@Suite struct SlugTests {
    @Test func slugsAreReadableASCII() {
        #expect(Slug.make("Riverside Futsal Club") == "riverside-futsal-club")
        #expect(Slug.make("  Sørensen & Søns  Ü18!! ") == "sorensen-and-sons-u18")
        #expect(Slug.make("!!!???") == "")
        #expect(Slug.make("<script>alert(1)</script>") == "script-alert-1-script")
        #expect(Slug.make(String(repeating: "ab ", count: 50)).count <= 60)
        #expect(!Slug.make(String(repeating: "ab ", count: 50)).hasSuffix("-"))
    }
}

@Suite struct UniqueSlugTests {
    @Test func numbersFollowTheFirstFreeSlot() {
        #expect(Slug.unique("fc", taken: []) == "fc")
        #expect(Slug.unique("fc", taken: ["fc"]) == "fc-2")
        #expect(Slug.unique("fc", taken: ["fc", "fc-2", "fc-3"]) == "fc-4")
        #expect(Slug.unique("new", taken: [], reserved: ["new"]) == "new-2")
    }
}
