import FieldhouseKit

extension WorkoutSport {
    /// Sports people read by pace (minutes per kilometre) rather than speed: the same three the
    /// recorder shows pace for (`RecordedSport.paceSports`, a feature above this one).
    var readsAsPace: Bool { self == .running || self == .walking || self == .hiking }
}
