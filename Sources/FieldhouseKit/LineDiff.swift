/// What changed between two texts, line by line: the longest common subsequence of lines, with
/// the unchanged runs far from any change folded away. Used to compare two revisions of an
/// article.
public enum LineDiff {
    public enum Kind: String, Sendable, Equatable {
        case same, added, removed
    }

    public struct Line: Sendable, Equatable {
        public let kind: Kind
        public let text: String
        /// Line numbers in the old and the new text (1-based), where the line exists there.
        public let old: Int?
        public let new: Int?

        public init(kind: Kind, text: String, old: Int?, new: Int?) {
            self.kind = kind
            self.text = text
            self.old = old
            self.new = new
        }
    }

    /// A run of lines to show; unchanged lines more than `context` away from a change are left
    /// out between hunks.
    public struct Hunk: Sendable, Equatable {
        public let lines: [Line]
    }

    /// Above this many cells the middle is shown as removed-then-added rather than matched line
    /// by line, which keeps the table within a few megabytes for any input.
    static let maxCells = 4_000_000

    public static func lines(from old: String, to new: String) -> [Line] {
        let a = split(old), b = split(new)
        // Common head and tail first: most edits touch a few lines in the middle.
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        let midA = Array(a[head..<(a.count - tail)]), midB = Array(b[head..<(b.count - tail)])

        var result: [Line] = (0..<head).map { Line(kind: .same, text: a[$0], old: $0 + 1, new: $0 + 1) }
        var i = 0, j = 0
        let n = midA.count, m = midB.count
        if n > 0, m > 0, (n + 1) * (m + 1) <= maxCells {
            // lengths[i][j]: longest common subsequence of midA[i...] and midB[j...].
            var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
            for x in stride(from: n - 1, through: 0, by: -1) {
                for y in stride(from: m - 1, through: 0, by: -1) {
                    lengths[x * (m + 1) + y] =
                        midA[x] == midB[y]
                        ? lengths[(x + 1) * (m + 1) + y + 1] + 1
                        : max(lengths[(x + 1) * (m + 1) + y], lengths[x * (m + 1) + y + 1])
                }
            }
            while i < n, j < m {
                if midA[i] == midB[j] {
                    result.append(Line(kind: .same, text: midA[i], old: head + i + 1, new: head + j + 1))
                    i += 1; j += 1
                } else if lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] {
                    result.append(Line(kind: .removed, text: midA[i], old: head + i + 1, new: nil))
                    i += 1
                } else {
                    result.append(Line(kind: .added, text: midB[j], old: nil, new: head + j + 1))
                    j += 1
                }
            }
        }
        while i < n { result.append(Line(kind: .removed, text: midA[i], old: head + i + 1, new: nil)); i += 1 }
        while j < m { result.append(Line(kind: .added, text: midB[j], old: nil, new: head + j + 1)); j += 1 }
        for k in 0..<tail {
            result.append(Line(kind: .same, text: a[a.count - tail + k], old: a.count - tail + k + 1, new: b.count - tail + k + 1))
        }
        return result
    }

    /// The changes with `context` unchanged lines around each; empty when the texts are equal.
    public static func hunks(from old: String, to new: String, context: Int = 3) -> [Hunk] {
        let all = lines(from: old, to: new)
        let changed = all.indices.filter { all[$0].kind != .same }
        guard !changed.isEmpty else { return [] }
        var hunks: [Hunk] = []
        var start = max(0, changed[0] - context), end = min(all.count - 1, changed[0] + context)
        for index in changed.dropFirst() {
            if index - context <= end + 1 {
                end = min(all.count - 1, index + context)
            } else {
                hunks.append(Hunk(lines: Array(all[start...end])))
                start = max(0, index - context)
                end = min(all.count - 1, index + context)
            }
        }
        hunks.append(Hunk(lines: Array(all[start...end])))
        return hunks
    }

    private static func split(_ text: String) -> [String] {
        text.isEmpty ? [] : text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
