import FieldhouseKit

/// How the recorder and the live page read a sport: by pace or by speed, and whether it pauses by
/// itself when the person stands still.
enum RecordedSport {
    static let paceSports: Set<WorkoutSport> = [.running, .walking, .hiking]
    static let autoPauseSports: Set<WorkoutSport> = [.running, .walking, .hiking, .cycling, .skating]

    /// "pace" for sports read in minutes per kilometre or mile, "speed" for the others.
    static func measure(_ sport: WorkoutSport) -> String { paceSports.contains(sport) ? "pace" : "speed" }
}
