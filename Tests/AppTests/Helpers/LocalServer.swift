import Foundation

/// A server from `scripts/` on loopback for one test (an SMTP sink, a tile server): started with
/// the test Python, it prints "PORT <n>" once it listens and stops when its standard input closes.
/// `make test` makes the Python environment (`scripts/test-tools.sh`).
struct LocalServer {
    struct Failure: Error, CustomStringConvertible { let description: String }

    let port: Int
    private let process: Process
    private let input: Pipe

    static func start(_ script: String, arguments: [String]) throws -> LocalServer {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let python =
            ProcessInfo.processInfo.environment["FIELDHOUSE_TEST_PYTHON"] ?? root.appendingPathComponent(".build/test-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "No test Python at \(python): run scripts/test-tools.sh (make test does it).")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent("scripts/" + script).path] + arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "\(script) stopped before listening.") }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, words[0] == "PORT", let port = Int(words[1]) else {
            throw Failure(description: "\(script) said: \(String(decoding: line, as: UTF8.self))")
        }
        return LocalServer(port: port, process: process, input: input)
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
