import Foundation

/// Positions that would mean moving faster than the sport allows (half as fast again as
/// `Plausible.topSpeed`, as a walk may hold a jog and a ride a descent): a GPS receiver that jumped (a reflection between buildings, a first fix from a phone mast, a phone
/// that lent its position to another app). They are left out of the distance, speeds, map and
/// splits, and the summary says how many (`note`); the samples themselves stay stored, so a
/// workout whose sport is changed later is cleaned for its new sport.
///
/// One pass, in time order, linear in the points: positions are kept in a run while each is
/// reachable from the last one kept. A position out of reach starts a chain of positions that
/// agree with each other; when that chain outgrows the run it contradicts, the run was the jump (a
/// bad first fix) and the chain is kept instead. A chain that lasts `settle` positions is where the
/// person really is now: when it is in reach of a position a little before the last one kept, the
/// few kept after that one were the jump (a stale fix after a gap) and go; otherwise (a receiver
/// that found itself far away) the chain is kept as a new piece, and the jump to it counts no
/// distance. So is a far move across a pause in the recording (more than
/// `WorkoutSummary.pauseGap`): both sides are kept, nothing is counted across.
public enum SpeedSpikes {
    /// How far two fixes may lie apart beyond what the speed explains: their own error (a phone's
    /// reported accuracy, else about ten metres each).
    public static let slack = 25.0
    /// How many positions that agree with each other, away from the run kept, make a new piece.
    public static let settle = 10
    /// How many of the last positions kept a settled chain may show to be the jump.
    public static let lookBack = 3
    /// How much faster than the sport's top speed a move must be to be a jump: the top speed is
    /// what a person keeps up, not what a GPS track between two fixes shows.
    public static let margin = 1.5

    public struct Cleaned: Sendable {
        /// The points, with the left-out positions (and device speeds too fast for the sport) removed;
        /// heart rate, cadence and times stay.
        public var points: [TrackPoint]
        /// The segment starts given, and where the recording resumed far away after a pause.
        public var segmentStarts: Set<Int>
        /// Positions and device speeds left out.
        public var leftOut: Int

        /// The points with a position, and where among them a segment begins (a segment that began
        /// on a point without one, heart rate alone, begins at the next position).
        public var located: (points: [TrackPoint], segmentStarts: Set<Int>) {
            var kept: [TrackPoint] = []
            var starts: Set<Int> = []
            var pending = false
            for (index, point) in points.enumerated() {
                if segmentStarts.contains(index) { pending = true }
                guard point.coordinate != nil else { continue }
                if pending && !kept.isEmpty { starts.insert(kept.count) }
                pending = false
                kept.append(point)
            }
            return (kept, starts)
        }

        /// What the summary tells the person, in English as stored (`WorkoutNotes` translates it).
        public var note: String? {
            switch leftOut {
            case 0: nil
            case 1: "One position or speed reading too fast for the sport (a GPS jump) was left out."
            default: "\(leftOut) positions or speed readings too fast for the sport (GPS jumps) were left out."
            }
        }
    }

    /// `points` in time order; `legs` give each leg of a multisport recording its own sport from its
    /// start on (a transition is allowed the fastest sport's speed).
    public static func clean(
        _ points: [TrackPoint], segmentStarts: Set<Int> = [], sport: WorkoutSport, legs: [ActivityLeg] = []
    ) -> Cleaned {
        var cleaned = Cleaned(points: points, segmentStarts: segmentStarts, leftOut: 0)
        guard !points.isEmpty else { return cleaned }
        let limits = topSpeeds(points, sport: sport, legs: legs).map { min($0 * margin, Plausible.speed.upperBound) }
        for index in points.indices {
            if let speed = points[index].speed, speed > limits[index] {
                cleaned.points[index].speed = nil
                cleaned.leftOut += 1
            }
        }

        func reachable(_ from: Int, _ to: Int) -> Bool {
            guard let a = points[from].coordinate, let b = points[to].coordinate else { return false }
            let seconds = Double(points[to].time - points[from].time) / 1000
            let allowance = max(slack, (points[from].accuracy ?? 0) + (points[to].accuracy ?? 0))
            return Geo.distance(a, b) <= max(limits[from], limits[to]) * max(seconds, 0) + allowance
        }

        var left = [Bool](repeating: false, count: points.count)
        var run: [Int] = [] // kept, since the run began
        var chain: [Int] = [] // left out, each reachable from the one before
        var runAfterGap = false // the run began after a pause, far from where the one before ended
        var lastKept: Int? // the last position of the run before
        var previous: Int? // the last usable position looked at
        func closeRun() {
            if runAfterGap, let first = run.first, let lastKept, !reachable(lastKept, first) { cleaned.segmentStarts.insert(first) }
            if let last = run.last { lastKept = last }
            run.removeAll()
            chain.removeAll()
            runAfterGap = false
        }
        for index in points.indices {
            if segmentStarts.contains(index) {
                closeRun()
                lastKept = nil
            }
            // Fixes too inaccurate to count already add no distance (`WorkoutSummary.cumulativeDistance`).
            guard points[index].coordinate != nil, (points[index].accuracy ?? 0) <= WorkoutSummary.worstAccuracy else { continue }
            defer { previous = index }
            guard let anchor = run.last else {
                run.append(index)
                continue
            }
            if reachable(anchor, index) {
                run.append(index)
                chain.removeAll()
                continue
            }
            if let previous, points[index].time - points[previous].time > WorkoutSummary.pauseGap {
                closeRun()
                runAfterGap = true
                run.append(index)
                continue
            }
            left[index] = true
            if let last = chain.last, reachable(last, index) { chain.append(index) } else { chain = [index] }
            if chain.count > run.count {
                for kept in run { left[kept] = true }
                for taken in chain { left[taken] = false }
                run = chain
                chain.removeAll()
            } else if chain.count >= settle {
                for taken in chain { left[taken] = false }
                if let back = (1..<min(lookBack + 1, run.count)).first(where: { reachable(run[run.count - 1 - $0], chain[0]) }) {
                    for jumped in run.suffix(back) { left[jumped] = true }
                    run.removeLast(back)
                    run += chain
                } else {
                    cleaned.segmentStarts.insert(chain[0])
                    lastKept = run.last
                    run = chain
                    runAfterGap = false
                }
                chain.removeAll()
            }
        }
        closeRun()
        for index in points.indices where left[index] {
            cleaned.points[index].latitude = nil
            cleaned.points[index].longitude = nil
            cleaned.leftOut += 1
        }
        return cleaned
    }

    /// The top speed at each point: the workout's sport, or the sport of the leg the point falls in.
    static func topSpeeds(_ points: [TrackPoint], sport: WorkoutSport, legs: [ActivityLeg]) -> [Double] {
        let whole = Plausible.topSpeed(sport)
        let placed = legs.compactMap { leg in leg.start.map { ($0, leg.topSpeed) } }.sorted { $0.0 < $1.0 }
        guard !placed.isEmpty else { return [Double](repeating: whole, count: points.count) }
        var limits: [Double] = []
        limits.reserveCapacity(points.count)
        // Points before the first leg's start belong to the first leg.
        var leg = 0
        for point in points {
            while leg + 1 < placed.count && placed[leg + 1].0 <= point.time { leg += 1 }
            limits.append(placed[leg].1)
        }
        return limits
    }
}
