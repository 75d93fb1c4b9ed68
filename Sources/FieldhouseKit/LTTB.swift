/// Largest-Triangle-Three-Buckets downsampling (Steinarsson 2013): keeps the first and last points
/// and, from each of `threshold − 2` buckets in between, the point forming the largest triangle with
/// the point kept before it and the mean of the next bucket. Peaks survive where averaging would
/// flatten them, so a chart of 100 points still shows the sprint.
public enum LTTB {
    /// Indexes of the points to keep, ascending. `x` must be ascending.
    public static func indexes(x: [Double], y: [Double], threshold: Int) -> [Int] {
        let count = min(x.count, y.count)
        guard threshold >= 3, count > threshold else { return Array(0..<count) }
        var kept = [0]
        kept.reserveCapacity(threshold)
        let bucketSize = Double(count - 2) / Double(threshold - 2)
        var a = 0
        for bucket in 0..<(threshold - 2) {
            let start = Int(Double(bucket) * bucketSize) + 1
            let end = min(Int(Double(bucket + 1) * bucketSize) + 1, count - 1)
            // The mean of the next bucket (the last point for the last bucket).
            let nextStart = end
            let nextEnd = min(Int(Double(bucket + 2) * bucketSize) + 1, count)
            var meanX = 0.0, meanY = 0.0
            for i in nextStart..<max(nextEnd, nextStart + 1) {
                meanX += x[i]
                meanY += y[i]
            }
            let n = Double(max(nextEnd, nextStart + 1) - nextStart)
            meanX /= n
            meanY /= n
            var best = start
            var largest = -1.0
            for i in start..<max(end, start + 1) {
                let area = abs((x[a] - meanX) * (y[i] - y[a]) - (x[a] - x[i]) * (meanY - y[a]))
                if area > largest {
                    largest = area
                    best = i
                }
            }
            kept.append(best)
            a = best
        }
        kept.append(count - 1)
        return kept
    }
}
