import FieldhouseKit
import Fluent
import Vapor

/// The charts, map and splits of a workout page, drawn from the workout's series. They depend
/// only on the workout (its `updated_at` moves whenever its samples or summary change), the
/// viewer's units, the privacy zones hidden from them and the tile server, so they are kept in a
/// cache under those; without them, the page reads the workout's stored series, not its samples.
struct WorkoutDrawings: Encodable, Sendable {
    struct Split: Encodable, Sendable {
        /// "3" for the third whole kilometre (or mile); the last, partial split shows its length instead ("970 m").
        let number: String
        let time: String
        let pace: String
        let heartRate: String
        /// The last split, shorter than a whole kilometre (or mile).
        let partial: Bool
    }

    let heartRateChart: String
    let speedChart: String
    /// Minutes per kilometre (or mile) for the sports people read by pace (`readsAsPace`), beside speed.
    let paceChart: String
    let elevationChart: String
    let zoneChart: String
    let map: String
    let osmURL: String?
    let splitUnit: String
    let splits: [Split]
    /// For anyone but the owner of a track through privacy zones: the visible part
    /// (`Workout.visiblePart`), whose numbers the page shows instead of the whole workout's.
    var part: Workout?
    /// Heart-rate variability from the strap's RR intervals, when the viewer sees the heart-rate chart.
    var variability: HeartRateVariability.Drawing?
    /// The time charts' text alternative: their values at round times, a column per chart drawn.
    let values: ValueTable?

    /// The values of the time charts (heart rate, speed, pace, elevation) every 1, 2, 5, 10… minutes,
    /// about 20–30 rows, for reading without the drawing or the script. Built from the very arrays the
    /// charts are drawn from, and only for the charts drawn, so it shows nothing the charts do not.
    struct ValueTable: Encodable, Sendable {
        struct Row: Encodable, Sendable {
            let time: String
            let cells: [String]
        }
        let caption: String
        let columns: [String]
        let rows: [Row]

        /// A chart's points in the chart's own units, and how a value of it is written.
        struct Column {
            let heading: String
            let seconds: [Double]
            let values: [Double?]
            let write: (Double) -> String
        }

        static let stepMinutes = [1, 2, 5, 10, 15, 30, 60, 120]
        static let maxRows = 30

        init?(_ columns: [Column]) {
            let end = columns.compactMap(\.seconds.last).max() ?? 0
            guard !columns.isEmpty, end >= 60 else { return nil }
            let minutes = Self.stepMinutes.first { Int(end) / ($0 * 60) + 1 <= Self.maxRows } ?? Self.stepMinutes.last!
            let step = Double(minutes * 60)
            // A point farther than this from a row's time is in a pause: the row reads "–" there, as the line breaks.
            let reach = min(step / 2, 60)
            caption = t("Values of the charts every {interval}, from the start", Format.hoursAndMinutes(minutes))
            self.columns = [t("Time from the start")] + columns.map(\.heading)
            rows = stride(from: 0.0, through: end, by: step).map { time in
                Row(
                    time: Format.duration(time),
                    cells: columns.map { column in
                        guard let index = Self.nearest(time, in: column.seconds), abs(column.seconds[index] - time) <= reach,
                            let value = column.values[index]
                        else { return "–" }
                        return column.write(value)
                    })
            }
        }

        /// The index of the time in `seconds` (ascending) nearest `time`.
        static func nearest(_ time: Double, in seconds: [Double]) -> Int? {
            guard !seconds.isEmpty else { return nil }
            var low = 0, high = seconds.count - 1
            while low < high {
                let middle = (low + high) / 2
                if seconds[middle] < time { low = middle + 1 } else { high = middle }
            }
            return low > 0 && time - seconds[low - 1] <= seconds[low] - time ? low - 1 : low
        }
    }

    private enum CodingKeys: String, CodingKey {
        case heartRateChart, speedChart, paceChart, elevationChart, zoneChart, map, osmURL, splitUnit, splits, variability, values
    }

    static let zoneColours = ["#dbeafe", "#dcfce7", "#fef9c3", "#ffedd5", "#fee2e2"]
    static let zoneBarColours = ["#60a5fa", "#4ade80", "#facc15", "#fb923c", "#ef4444"]

    /// The cache key: the series' version (it moves when the samples or the workout change) and
    /// everything else that changes what is drawn. The drawings hold translated labels, so the
    /// language is part of the key: any one translated label tells it.
    static func key(_ workout: Workout, version: Int, format: Format, hiddenZones: [PrivacyZone], tiles: MapTiles?, ownerView: Bool) -> String {
        let zones = hiddenZones.map { "\($0.centre.latitude),\($0.centre.longitude),\($0.radius)" }.joined(separator: ";")
        let language = Language.current.rawValue
        return
            "\(workout.id?.uuidString ?? "")|\(version)|\(workout.updatedAt?.timeIntervalSince1970 ?? 0)|\(format.imperial)|\(zones)|\(tiles != nil)|\(ownerView)|\(language)"
    }

    /// Reads the workout's stored series (`WorkoutSeries`) only when the cache has no drawings for this key.
    static func load(
        _ workout: Workout, format: Format, hiddenZones: [PrivacyZone], tiles: MapTiles?, ownerView: Bool,
        on req: Request
    ) async throws -> WorkoutDrawings {
        let version = try await WorkoutSeries.version(of: workout, on: req.db)
        let key = key(workout, version: version, format: format, hiddenZones: hiddenZones, tiles: tiles, ownerView: ownerView)
        if let cached = req.application.workoutDrawings.get(key) { return cached }
        var drawings: WorkoutDrawings
        if let (part, visible) = try await visiblePart(of: workout, hiddenZones: hiddenZones, ownerView: ownerView, on: req.db) {
            // Drawn from the visible part alone: its charts, splits and zones, nothing of the hidden time.
            drawings = WorkoutDrawings(
                workout: part, series: WorkoutSeries(workout: part, timeline: visible), format: format, hiddenZones: hiddenZones, tiles: tiles)
            drawings.part = part
            if drawings.heartRateChart != "" {
                drawings.variability = try await HeartRateVariability.load(part, ownerView: ownerView, visible: visible, on: req.db)
            }
        } else {
            let series = try await WorkoutSeries.load(workout, version: version, ownerView: ownerView, on: req.db)
            drawings = WorkoutDrawings(workout: workout, series: series, format: format, hiddenZones: hiddenZones, tiles: tiles)
            // Exactly where the heart-rate chart is: whoever sees it may see the beats it is drawn from.
            if drawings.heartRateChart != "" {
                drawings.variability = try await HeartRateVariability.load(workout, ownerView: ownerView, visible: nil, on: req.db)
            }
        }
        // A workout still recording changes with every sample: not worth keeping.
        if workout.endMS != nil { req.application.workoutDrawings.set(key, drawings) }
        return drawings
    }

    /// The visible part and its time line when someone else looks at a finished workout whose track
    /// passes through the owner's privacy zones; nil when they may see it whole.
    static func visiblePart(of workout: Workout, hiddenZones: [PrivacyZone], ownerView: Bool, on db: any Database) async throws -> (
        Workout, WorkoutTimeline
    )? {
        // The time line itself, not the stored stream list: positions sent after the summary count too.
        guard !ownerView, !hiddenZones.isEmpty,
            let timeline = try await WorkoutTimeline.load(workout, ownerView: false, on: db),
            let owner = try await User.find(workout.$user.id, on: db)
        else { return nil }
        let visible = VisibleTimeline(timeline.points, zones: hiddenZones)
        guard visible.isTrimmed else { return nil }
        return (workout.part(visible, for: owner), WorkoutTimeline(points: visible.points, steps: nil))
    }

    /// `hiddenZones`: the owner's privacy zones when someone else looks (the map stops at their edges).
    init(workout: Workout, series: WorkoutSeries?, format: Format, hiddenZones: [PrivacyZone], tiles: MapTiles?) {
        // Zones: "limits;seconds".
        var zoneLimits: [Int] = []
        var zoneSeconds: [Double] = []
        if let zones = workout.zones {
            let parts = zones.split(separator: ";")
            if parts.count == 2 {
                zoneLimits = parts[0].split(separator: ",").compactMap { Int($0) }
                zoneSeconds = parts[1].split(separator: ",").compactMap { Double($0) }
            }
        }
        if zoneLimits.count == 5, zoneSeconds.count == 5, zoneSeconds.reduce(0, +) > 0 {
            let total = zoneSeconds.reduce(0, +)
            zoneChart = SVGChart.bars(
                (0..<5).map { index in
                    let upper = index < 4 ? "–\(zoneLimits[index + 1] - 1)" : "+"
                    return (
                        label: t("Zone {number} ({range})", index + 1, "\(zoneLimits[index])\(upper)"), value: zoneSeconds[index],
                        text: "\(Format.duration(zoneSeconds[index])) · \(Format.whole(zoneSeconds[index] / total * 100)) %",
                        fill: Self.zoneBarColours[index]
                    )
                }, label: t("Time in each heart-rate zone"))
        } else {
            zoneChart = ""
        }

        // Charts from the series, thinned to about 600 points (more than the chart's pixels).
        var heartRateChart = "", speedChart = "", paceChart = "", elevationChart = "", map = ""
        var osmURL: String?
        var splits: [Split] = []
        var columns: [ValueTable.Column] = []
        if let series {
            if series.hasHeartRate {
                let bands =
                    zoneLimits.count == 5
                    ? (0..<5).map { index in
                        SVGChart.Band(
                            from: Double(zoneLimits[index]), to: index < 4 ? Double(zoneLimits[index + 1]) : 250,
                            label: t("Zone {number}", index + 1), fill: Self.zoneColours[index])
                    } : []
                heartRateChart = SVGChart.line(
                    seconds: series.heartSeconds, values: series.heartRates,
                    label: t("Heart rate over time, in beats per minute"), unit: "bpm", colour: "#b3261e", bands: bands,
                    link: SVGChart.workoutLink)
                if heartRateChart != "" {
                    columns.append(
                        .init(
                            heading: t("{measure} ({unit})", t("Heart rate"), "bpm"), seconds: series.heartSeconds, values: series.heartRates,
                            write: Format.whole))
                }
            }
            if series.hasLocations {
                let factor = format.imperial ? 2.236936 : 3.6
                let speeds = series.speeds.map { $0.map { $0 * factor } }
                let speedUnit = format.imperial ? "mph" : "km/h"
                speedChart = SVGChart.line(
                    seconds: series.speedSeconds, values: speeds,
                    label: t("Speed over time"), unit: speedUnit, colour: "#0b6e4f", reading: .number(decimals: 1),
                    link: SVGChart.workoutLink)
                if speedChart != "" {
                    columns.append(
                        .init(
                            heading: t("{measure} ({unit})", t("Speed"), speedUnit), seconds: series.speedSeconds, values: speeds,
                            write: { Format.number($0, decimals: 1) }))
                }
                if WorkoutSport(rawValue: workout.sport)?.readsAsPace == true {
                    let paces = series.speeds.map { $0.flatMap { format.paceSeconds($0).map { -$0 } } }
                    paceChart = SVGChart.line(
                        seconds: series.speedSeconds, values: paces,
                        label: t("Pace over time, faster higher up"), unit: format.imperial ? "/mi" : "/km", colour: "#0b6e4f", reading: .pace,
                        link: SVGChart.workoutLink)
                    if paceChart != "" {
                        columns.append(
                            .init(
                                heading: t("{measure} ({unit})", t("Pace"), format.imperial ? "min/mi" : "min/km"), seconds: series.speedSeconds,
                                values: paces, write: { Format.duration(-$0) }))
                    }
                }
                if series.hasElevation {
                    let elevations = series.elevations.map { $0.map { format.imperial ? $0 * 3.28084 : $0 } }
                    let elevationUnit = format.imperial ? "ft" : "m"
                    elevationChart = SVGChart.line(
                        seconds: series.speedSeconds, values: elevations,
                        label: t("Elevation profile"), unit: elevationUnit, colour: "#6b4f2a", fill: true,
                        link: SVGChart.workoutLink)
                    if elevationChart != "" {
                        columns.append(
                            .init(
                                heading: t("{measure} ({unit})", t("Elevation"), elevationUnit), seconds: series.speedSeconds,
                                values: elevations, write: Format.whole))
                    }
                }
                let timed = PrivacyTrim.visible(series.path, seconds: series.pathSeconds, zones: hiddenZones)
                let pieces = timed.map { $0.map(\.point) }
                if let first = pieces.first?.first, let last = pieces.last?.last {
                    let label =
                        hiddenZones.isEmpty
                        ? t("Map of the route from S (start) to F (finish)")
                        : t("Map of the route from S (start) to F (finish) (parts near private places are hidden)")
                    map =
                        SVGMap(
                            markers: [
                                .init(coordinate: first, symbol: String(t("Start").prefix(1)), title: t("Start"), primary: false),
                                .init(coordinate: last, symbol: String(t("Finish").prefix(1)), title: t("Finish"), primary: true),
                            ],
                            tiles: tiles, paths: pieces, times: timed.map { $0.map(\.seconds) }, label: label
                        ).svg
                    let lats = pieces.joined().map(\.latitude), lons = pieces.joined().map(\.longitude)
                    osmURL = "https://www.openstreetmap.org/?minlat=\(lats.min()!)&minlon=\(lons.min()!)&maxlat=\(lats.max()!)&maxlon=\(lons.max()!)"
                }
                // Splits per kilometre (or mile); a last, shorter one reads as its own length.
                for split in format.imperial ? series.mileSplits : series.kilometreSplits {
                    splits.append(
                        Split(
                            number: split.partial.map { format.partialSplit($0) } ?? "\(splits.count + 1)", time: Format.duration(split.seconds),
                            pace: format.pace((split.partial ?? format.splitLength) / max(split.seconds, 1)),
                            heartRate: split.heartRate.map(String.init) ?? "–", partial: split.partial != nil))
                }
            }
        }
        self.heartRateChart = heartRateChart
        self.speedChart = speedChart
        self.paceChart = paceChart
        self.elevationChart = elevationChart
        self.map = map
        self.osmURL = osmURL
        splitUnit = format.splitUnit
        self.splits = splits
        values = ValueTable(columns)
    }

    /// Indexes to draw: LTTB over the series, so peaks survive the thinning.
    static func thin(seconds: [Double], values: [Double], target: Int) -> [Int] {
        LTTB.indexes(x: seconds, y: values, threshold: target)
    }
}
