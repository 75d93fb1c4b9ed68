import FieldhouseKit
import Foundation
import Testing

/// Archives checked by another implementation: Python's zipfile, which verifies every CRC.
@Suite struct ZipWriterTests {
    /// Names, sizes and contents as Python reads them back.
    static func readBack(_ archive: [UInt8]) throws -> [String: String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zip-\(UUID().uuidString).zip").path
        try Data(archive).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                print(json.dumps({i.filename: z.read(i).decode("utf-8") for i in z.infolist()}))
            """, path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONDecoder().decode([String: String].self, from: data)
    }

    @Test func writesAnArchiveOthersCanRead() throws {
        var archive: [UInt8] = []
        let zip = try ZipWriter { archive += $0 }
        try zip.add("profile.json", Array(#"{"name": "Zoë"}"#.utf8))
        // A large entry written in pieces, as sample tables are.
        try zip.begin("samples/heart_rate.csv")
        var expected = "time,bpm\n"
        try zip.write(Array(expected.utf8))
        for second in 0..<50_000 {
            let line = "\(1_700_000_000_000 + second * 1000),\(60 + second % 90)\n"
            expected += line
            try zip.write(Array(line.utf8))
        }
        try zip.end()
        try zip.add("photos/café.txt", [])
        try zip.finish()
        #expect(archive.count < expected.utf8.count / 3, "compressed")

        let entries = try Self.readBack(archive)
        #expect(entries.keys.sorted() == ["photos/café.txt", "profile.json", "samples/heart_rate.csv"])
        #expect(entries["profile.json"] == #"{"name": "Zoë"}"#)
        #expect(entries["samples/heart_rate.csv"] == expected)
        #expect(entries["photos/café.txt"] == "")
    }

    @Test func refusesMisuse() throws {
        let zip = try ZipWriter { _ in }
        #expect(throws: ZipWriter.Failure.self) { try zip.write([1]) }
        try zip.begin("a")
        #expect(throws: ZipWriter.Failure.self) { try zip.begin("b") }
        #expect(throws: ZipWriter.Failure.self) { try zip.finish() }
    }

    /// Two entries of one name: `unzip` and Python keep the last, so the first's content is lost on
    /// extraction (an account export once held `comments.json` twice, the second one empty).
    @Test func refusesADuplicateName() throws {
        var archive: [UInt8] = []
        let zip = try ZipWriter { archive += $0 }
        try zip.add("comments.json", Array(#"[{"body": "Nice run"}]"#.utf8))
        #expect(throws: ZipWriter.Failure.duplicateName("comments.json")) { try zip.add("comments.json", Array("[]".utf8)) }
        #expect(throws: ZipWriter.Failure.duplicateName("comments.json")) { try zip.begin("comments.json") }
        // The same name written another way (é composed, and as e + combining accent) is the same file.
        try zip.add("photos/caf\u{E9}.txt", [])
        #expect(throws: ZipWriter.Failure.duplicateName("photos/cafe\u{301}.txt")) { try zip.add("photos/cafe\u{301}.txt", [0x31]) }
        // A name that differs stays welcome, and the archive holds each entry once.
        try zip.add("comments-2.json", Array("[]".utf8))
        try zip.finish()
        let entries = try Self.readBack(archive)
        #expect(entries.keys.sorted() == ["comments-2.json", "comments.json", "photos/café.txt"])
        #expect(entries["comments.json"] == #"[{"body": "Nice run"}]"#)
    }
}
