import FieldhouseKit
import Testing

@Suite("Encoded polylines")
struct PolylineCodeTests {
    /// The worked example of the format's public description: three points of a line in the US.
    @Test func encodesThePublishedExample() {
        let rows = [[3_850_000, -12_020_000], [4_070_000, -12_095_000], [4_325_200, -12_645_300]]
        #expect(PolylineCode.encode(rows) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(PolylineCode.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", columns: 2) == rows)
    }

    /// Any rows come back as they went, single columns too (a workout's seconds), large jumps included.
    @Test func roundTrips() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let columns = Int.random(in: 1...3, using: &generator)
            let rows = (0..<Int.random(in: 0...50, using: &generator)).map { _ in
                (0..<columns).map { _ in Int.random(in: -18_000_000...18_000_000, using: &generator) }
            }
            #expect(PolylineCode.decode(PolylineCode.encode(rows), columns: columns) == rows)
        }
    }

    /// Text that is not an encoding (outside the alphabet, cut mid-number, endless groups) is refused, not trapped on.
    @Test func refusesWhatIsNotAnEncoding() {
        #expect(PolylineCode.decode("_p~iF ~ps|U", columns: 2) == nil)
        #expect(PolylineCode.decode("_p~iF~ps|", columns: 2) == nil)
        #expect(PolylineCode.decode("_p~iF", columns: 2) == nil)
        #expect(PolylineCode.decode(String(repeating: "~", count: 40), columns: 1) == nil)
        #expect(PolylineCode.decode("??", columns: 0) == nil)
    }
}
