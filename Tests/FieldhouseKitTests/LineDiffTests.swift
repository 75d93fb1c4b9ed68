import FieldhouseKit
import Testing

@Suite struct LineDiffTests {
    @Test func changedLinesAreMarkedAndTheRestIsKept() {
        let old = "one\ntwo\nthree\nfour"
        let new = "one\n2\nthree\nfour\nfive"
        let lines = LineDiff.lines(from: old, to: new)
        #expect(lines.map(\.kind) == [.same, .removed, .added, .same, .same, .added])
        #expect(lines[1] == .init(kind: .removed, text: "two", old: 2, new: nil))
        #expect(lines[2] == .init(kind: .added, text: "2", old: nil, new: 2))
        #expect(lines[5] == .init(kind: .added, text: "five", old: nil, new: 5))
        // Applying the changes to the old text gives the new one.
        #expect(lines.filter { $0.kind != .removed }.map(\.text).joined(separator: "\n") == new)
        #expect(lines.filter { $0.kind != .added }.map(\.text).joined(separator: "\n") == old)
    }

    @Test func unchangedRunsFarFromChangesAreFolded() {
        let old = (1...40).map { "line \($0)" }.joined(separator: "\n")
        var newLines = (1...40).map { "line \($0)" }
        newLines[4] = "line five"
        newLines[34] = "line thirty-five"
        let hunks = LineDiff.hunks(from: old, to: newLines.joined(separator: "\n"), context: 2)
        #expect(hunks.count == 2)
        #expect(hunks[0].lines.first?.old == 3 && hunks[0].lines.last?.old == 7)
        #expect(hunks[1].lines.filter { $0.kind == .added }.map(\.text) == ["line thirty-five"])
        #expect(LineDiff.hunks(from: old, to: old).isEmpty)
    }

    @Test func aHugeRewriteStaysWithinBounds() {
        // 3,000 × 3,000 lines all different would need 9 million cells: shown as removed then added.
        let old = (0..<3000).map { "a\($0)" }.joined(separator: "\n")
        let new = (0..<3000).map { "b\($0)" }.joined(separator: "\n")
        let lines = LineDiff.lines(from: old, to: new)
        #expect(lines.count == 6000)
        #expect(lines.prefix(3000).allSatisfy { $0.kind == .removed })
    }
}
