import Foundation

/// Search over the published articles: every word of each title, summary and text with how often
/// it appears. A query word finds the words it begins ("hydrat" finds "hydration"), accents and
/// case aside. Articles holding more of the query's words come first, then by score: a word in
/// the title (or slug) counts 20, in the summary 5, and each time in the text 1, up to 10.
struct LearnIndex: Sendable {
    struct Posting: Sendable {
        let article: Int32
        let count: Int32
        let inTitle: Bool
        let inSummary: Bool
    }

    struct Hit: Sendable {
        let article: Int
        let matched: Int
        let score: Int
    }

    /// Sorted, so the words a prefix begins are one contiguous run.
    private let vocabulary: [String]
    private let postings: [[Posting]]

    init(_ articles: [LearnCatalog.Article]) {
        var table: [String: [Posting]] = [:]
        for (number, article) in articles.enumerated() {
            let title = Set(Self.words(article.title) + Self.words(article.slug))
            let summary = Set(Self.words(article.summary))
            var counts: [String: Int32] = [:]
            for word in Self.words(article.text) { counts[word, default: 0] += 1 }
            for word in title.union(summary).union(counts.keys) {
                table[word, default: []].append(
                    Posting(
                        article: Int32(number), count: counts[word] ?? 0,
                        inTitle: title.contains(word), inSummary: summary.contains(word)))
            }
        }
        vocabulary = table.keys.sorted()
        postings = vocabulary.map { table[$0]! }
    }

    /// Lowercased, accent-free words of letters and digits.
    static func words(_ text: String) -> [String] {
        text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
            .split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// The query's distinct words of two characters or more (at most eight).
    static func queryWords(_ query: String) -> [String] {
        var seen = Set<String>()
        return words(query).filter { $0.count >= 2 && seen.insert($0).inserted }.prefix(8).map { $0 }
    }

    func search(_ words: [String]) -> [Hit] {
        var matched: [Int: Int] = [:], scores: [Int: Int] = [:]
        for word in words {
            var title: Set<Int32> = [], summary: Set<Int32> = [], counts: [Int32: Int32] = [:]
            var position = lowerBound(word)
            while position < vocabulary.count, vocabulary[position].hasPrefix(word) {
                for posting in postings[position] {
                    if posting.inTitle { title.insert(posting.article) }
                    if posting.inSummary { summary.insert(posting.article) }
                    counts[posting.article, default: 0] += posting.count
                }
                position += 1
            }
            for article in title.union(summary).union(counts.keys) {
                var score = Int(min(counts[article] ?? 0, 10))
                if title.contains(article) { score += 20 }
                if summary.contains(article) { score += 5 }
                guard score > 0 else { continue }
                matched[Int(article), default: 0] += 1
                scores[Int(article), default: 0] += score
            }
        }
        return scores.map { Hit(article: $0.key, matched: matched[$0.key] ?? 0, score: $0.value) }
            .sorted(by: Self.ranksBefore)
    }

    private static func ranksBefore(_ a: Hit, _ b: Hit) -> Bool {
        if a.matched != b.matched { return a.matched > b.matched }
        if a.score != b.score { return a.score > b.score }
        return a.article < b.article
    }

    private func lowerBound(_ word: String) -> Int {
        var low = 0, high = vocabulary.count
        while low < high {
            let middle = (low + high) / 2
            if vocabulary[middle] < word { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension LearnIndex {
    /// Where words of `text` begin with `word` (lowercased, as `queryWords` gives them), the way
    /// the index matches. ASCII words are compared byte by byte, which keeps snippets and marks
    /// for a page of results well under a millisecond; others go through Foundation.
    static func wordStarts(of word: String, in text: String, limit: Int = .max) -> [Range<String.Index>] {
        let needle = Array(word.utf8)
        guard !needle.isEmpty else { return [] }
        if needle.contains(where: { $0 >= 0x80 }) {
            var ranges: [Range<String.Index>] = []
            var from = text.startIndex
            while let found = text.range(of: word, options: [.caseInsensitive, .diacriticInsensitive], range: from..<text.endIndex) {
                if found.lowerBound == text.startIndex || !isWordCharacter(text[text.index(before: found.lowerBound)]) { ranges.append(found) }
                if ranges.count >= limit { break }
                from = found.upperBound
            }
            return ranges
        }
        var ranges: [Range<String.Index>] = []
        let utf8 = text.utf8
        var position = utf8.startIndex
        var previous: UInt8 = 0x20
        while position != utf8.endIndex {
            let byte = utf8[position]
            if !isWordByte(previous), lower(byte) == needle[0] {
                var end = utf8.index(after: position)
                var matched = 1
                while matched < needle.count, end != utf8.endIndex, lower(utf8[end]) == needle[matched] {
                    matched += 1
                    end = utf8.index(after: end)
                }
                if matched == needle.count {
                    ranges.append(position..<end)
                    if ranges.count >= limit { break }
                    previous = needle[needle.count - 1]
                    position = end
                    continue
                }
            }
            previous = byte
            position = utf8.index(after: position)
        }
        return ranges
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// Letters, digits, any byte of a non-ASCII character, and `&` (so the "amp" of an escaped
    /// `&amp;` is never a word start).
    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte >= 0x80 || byte == 38
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "&"
    }
}
