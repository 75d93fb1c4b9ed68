import FieldhouseKit
import Foundation
import Vapor

/// The world's towns and cities of 1,000 people or more (GeoNames, CC BY 4.0, credited in
/// `Resources/Gazetteer/README.md`), for finding a place by its name without asking another
/// server. Read once, on the first search of a process (~0.5 s, ~25 MB).
final class Gazetteer: Sendable {
    struct Town: Sendable {
        let name: String
        let country: String
        let coordinate: Coordinate
        let population: Int
    }

    let towns: [Town]
    /// Every name and other name of each town, folded (`fold`), sorted, for prefix search.
    private let keys: [(key: String, town: Int32, primary: Bool)]

    /// Loaded from `<working directory>/Resources/Gazetteer`; empty when the files are missing.
    static let shared = Gazetteer(folder: DirectoryConfiguration.detect().workingDirectory + "Resources/Gazetteer")

    init(folder: String) {
        var countries: [Substring: String] = [:]
        let countryText = (try? String(contentsOfFile: folder + "/countries.tsv", encoding: .utf8)) ?? ""
        for line in countryText.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count == 2 { countries[fields[0]] = String(fields[1]) }
        }
        var towns: [Town] = []
        var keys: [(key: String, town: Int32, primary: Bool)] = []
        if let packed = FileManager.default.contents(atPath: folder + "/cities.tsv.gz"),
            let bytes = try? Gzip.decompress(Array(packed), limit: 64 << 20)
        {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count == 6, let latitude = Double(fields[3]), let longitude = Double(fields[4]), let population = Int(fields[5]),
                    Int32(exactly: towns.count) != nil
                else { continue }
                let index = Int32(towns.count)
                let name = String(fields[0])
                towns.append(
                    Town(
                        name: name, country: countries[fields[2]] ?? String(fields[2]), coordinate: Coordinate(latitude: latitude, longitude: longitude),
                        population: population))
                keys.append((Self.fold(name), index, true))
                for other in fields[1].split(separator: "|") { keys.append((Self.fold(String(other)), index, false)) }
            }
        }
        keys.sort { $0.key < $1.key }
        self.towns = towns
        self.keys = keys
    }

    /// Lower case without accents or punctuation, so "sao joao" finds "São João" and "Lisboa" "LISBOA".
    static func fold(_ text: String) -> String {
        String(
            text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased().unicodeScalars
                .map { CharacterSet.alphanumerics.contains($0) ? Character($0) : " " }
        ).split(separator: " ").joined(separator: " ")
    }

    /// Towns one of whose names starts with `query`: names that are the query first, then towns
    /// whose own name starts with it, then those with another name that does; the largest first
    /// within each. Linear in the matches looked at, which are capped.
    func search(_ query: String, limit: Int) -> [Town] {
        let folded = Self.fold(query)
        guard folded.count >= 2, limit > 0 else { return [] }
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].key < folded { low = middle + 1 } else { high = middle }
        }
        var exact: Set<Int32> = [], named: Set<Int32> = [], other: Set<Int32> = []
        var index = low
        while index < keys.count, index - low < 20_000, keys[index].key.hasPrefix(folded) {
            let key = keys[index]
            if key.key == folded { exact.insert(key.town) } else if key.primary { named.insert(key.town) } else { other.insert(key.town) }
            index += 1
        }
        let byPopulation = { (a: Int32, b: Int32) in self.towns[Int(a)].population > self.towns[Int(b)].population }
        named.subtract(exact)
        other.subtract(exact.union(named))
        let ordered = exact.sorted(by: byPopulation) + named.sorted(by: byPopulation) + other.sorted(by: byPopulation)
        return ordered.prefix(limit).map { towns[Int($0)] }
    }
}
