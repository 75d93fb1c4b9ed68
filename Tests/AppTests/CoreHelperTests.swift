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

@Suite("Memory cache")
struct MemoryCacheTests {
    @Test func keepsTheRecentlyUsedHalfWhenFull() {
        let cache = MemoryCache<Int>(capacity: 4)
        for index in 0..<4 { cache.set("k\(index)", index) }
        // k0 is read, so it counts as recent; adding a fifth drops the least recently used half.
        #expect(cache.get("k0") == 0)
        cache.set("k4", 4)
        #expect(cache.get("k0") == 0 && cache.get("k4") == 4)
        #expect(cache.get("k1") == nil && cache.get("k2") == nil)
        #expect(cache.get("missing") == nil)
    }
}

@Suite("Request log")
struct RequestLogTests {
    @Test func secretsInPathsAreMasked() {
        #expect(RequestLogMiddleware.masked("/calendar/Xk3_abcdefghijklmnopqrstuvwxyz0123456789ab.ics") == "/calendar/….ics")
        #expect(RequestLogMiddleware.masked("/join/Xk3_abcdefghijklmnopqrstuvwxyz") == "/join/…")
        #expect(RequestLogMiddleware.masked("/teams/river%20side") == "/teams/river side")
        #expect(RequestLogMiddleware.masked("//calendar/Xk3_secret.ics") == "//calendar/….ics")
        #expect(RequestLogMiddleware.masked("/%63alendar/Xk3_secret.ics") == "/calendar/….ics")
        #expect(RequestLogMiddleware.masked("/x%0Aforged line") == "/x forged line")
    }
}
