@testable import App
import Testing

@Suite("SVG numbers")
struct TenthsTests {
    @Test func oneDecimalRoundedLikePrintf() {
        #expect(12.34.tenths == "12.3")
        #expect(12.35.tenths == "12.4")
        #expect(0.0.tenths == "0.0")
        #expect((-0.46).tenths == "-0.5")
        #expect((-0.04).tenths == "0.0")
        #expect(599.96.tenths == "600.0")
        #expect(Double.nan.tenths == "0.0")
    }
}
