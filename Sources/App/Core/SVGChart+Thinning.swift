import FieldhouseKit

extension SVGChart {
    /// About `target` of the points, by LTTB within each unbroken run (so peaks survive), keeping
    /// one missing value between runs so the line still breaks there.
    static func thinned(_ seconds: [Double], _ values: [Double?], to target: Int) -> ([Double], [Double?]) {
        guard seconds.count == values.count, seconds.count > target else { return (seconds, values) }
        var kept: [Int] = []
        var start: Int? = nil
        func close(_ end: Int) {
            guard let first = start else { return }
            let run = Array(first..<end)
            let share = max(3, run.count * target / seconds.count)
            kept += LTTB.indexes(x: run.map { seconds[$0] }, y: run.map { values[$0] ?? 0 }, threshold: share).map { first + $0 }
            start = nil
        }
        for index in values.indices {
            if values[index] == nil {
                close(index)
                if kept.last.map({ values[$0] != nil }) ?? false { kept.append(index) }
            } else if start == nil {
                start = index
            }
        }
        close(values.count)
        return (kept.map { seconds[$0] }, kept.map { values[$0] })
    }
}
