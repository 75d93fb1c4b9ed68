import FieldhouseKit
extension Double {
    /// The value to one decimal place ("12.3", "-0.5", "7.0"), as SVG coordinates are written:
    /// a chart or map writes thousands of them, and `String(format:)` costs ten times as much.
    var tenths: String {
        guard let scaled = Int(exactly: (self * 10).rounded()) else { return "0.0" }
        let magnitude = Swift.abs(scaled)
        return (scaled < 0 ? "-" : "") + String(magnitude / 10) + "." + String(magnitude % 10)
    }
}
