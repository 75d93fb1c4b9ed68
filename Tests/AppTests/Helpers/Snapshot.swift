import Foundation
import Testing

/// Whole-page snapshots: the HTML of a page, with what changes from run to run (ids, tokens, secret
/// links, the month someone joined) replaced by placeholders, compared with `Tests/Snapshots/<name>.html`.
/// A template change then shows as a readable diff of the page. When a change is meant, run the
/// test with `FIELDHOUSE_RECORD_SNAPSHOTS=1` and commit the new file after reading it; without it a
/// missing file fails and nothing is written.
enum Snapshot {
    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Snapshots")
    }

    /// What varies between runs, and what stands in for it.
    static func normalized(_ html: String) -> String {
        html.replacing(/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/, with: "<id>")
            .replacing(/\?v=[0-9a-f]{12}"/, with: "?v=<version>\"")
            .replacing(/name="csrf" value="[^"]*"/, with: #"name="csrf" value="<csrf>""#)
            .replacing(/\/calendar\/[A-Za-z0-9_-]+\.ics/, with: "/calendar/<token>.ics")
            .replacing(/\/join\/[A-Za-z0-9_-]+/, with: "/join/<token>")
            .replacing(/(?:January|February|March|April|May|June|July|August|September|October|November|December) 20\d\d/, with: "<month year>")
    }

    static func check(_ html: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = normalized(html)
        let file = folder.appendingPathComponent(name + ".html")
        if ProcessInfo.processInfo.environment["FIELDHOUSE_RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("Recorded the snapshot \(name).html: read it, commit it and run again", sourceLocation: sourceLocation)
            return
        }
        // Never written unasked: a run (CI's) that wrote its own answer would pass the next time.
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("No snapshot \(name).html: run with FIELDHOUSE_RECORD_SNAPSHOTS=1, read it and commit it", sourceLocation: sourceLocation)
            return
        }
        guard actual != expected else { return }
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-" + name + ".html")
        try actual.write(to: fresh, atomically: true, encoding: .utf8)
        Issue.record("\(name).html changed; the page now is in \(fresh.path)\n\(difference(expected, actual))", sourceLocation: sourceLocation)
    }

    /// The first lines that differ, with their line number, enough to see what changed.
    static func difference(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) where lines.count < 12 {
            let was = index < old.count ? String(old[index]) : "(nothing)"
            let now = index < new.count ? String(new[index]) : "(nothing)"
            if was != now { lines += ["line \(index + 1):", "- " + was, "+ " + now] }
        }
        return lines.joined(separator: "\n")
    }
}
