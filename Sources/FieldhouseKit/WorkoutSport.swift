/// What a workout was. Wider than the team sports in `Sport`: people also walk, hike and swim.
public enum WorkoutSport: String, CaseIterable, Sendable, Codable {
    case running, cycling, walking, hiking, swimming, rowing, skiing, skating, strength, yoga
    case soccer, basketball, volleyball, tennis, other

    /// The sport's name for people (in English, the capitalised raw value).
    public var label: String {
        switch self {
        case .running: t("Running")
        case .cycling: t("Cycling")
        case .walking: t("Walking")
        case .hiking: t("Hiking")
        case .swimming: t("Swimming")
        case .rowing: t("Rowing")
        case .skiing: t("Skiing")
        case .skating: t("Skating")
        case .strength: t("Strength")
        case .yoga: t("Yoga")
        case .soccer: t("Soccer")
        case .basketball: t("Basketball")
        case .volleyball: t("Volleyball")
        case .tennis: t("Tennis")
        case .other: t("Other")
        }
    }

    /// Typical metabolic equivalent (MET) of the activity at a moderate effort, after the 2011
    /// Compendium of Physical Activities (Ainsworth et al.): used for calories when there is no heart rate.
    public var met: Double {
        switch self {
        case .running: 9.8
        case .cycling: 7.5
        case .walking: 3.5
        case .hiking: 6.0
        case .swimming: 5.8
        case .rowing: 7.0
        case .skiing: 7.0
        case .skating: 7.0
        case .strength: 5.0
        case .yoga: 2.5
        case .soccer: 7.0
        case .basketball: 6.5
        case .volleyball: 4.0
        case .tennis: 7.3
        case .other: 5.0
        }
    }

    /// A sport as GPX `<type>` or TCX `Sport="…"` writes it ("Running", "Biking", "ride", "hike" …).
    public init?(fileValue: String) {
        let value = fileValue.lowercased()
        let words: [(String, WorkoutSport)] = [
            ("run", .running), ("jog", .running), ("bik", .cycling), ("cycl", .cycling), ("ride", .cycling),
            ("walk", .walking), ("hik", .hiking), ("swim", .swimming), ("row", .rowing), ("ski", .skiing),
            ("skat", .skating), ("strength", .strength), ("yoga", .yoga), ("soccer", .soccer), ("football", .soccer),
            ("basketball", .basketball), ("volleyball", .volleyball), ("tennis", .tennis),
        ]
        guard let match = words.first(where: { value.contains($0.0) }) else {
            if value == "other" { self = .other; return }
            return nil
        }
        self = match.1
    }

    /// A FIT `sport` enumeration value; generic and unknown ones give nil.
    public init?(fitSport: Int) {
        switch fitSport {
        case 1: self = .running
        case 2: self = .cycling
        case 5: self = .swimming
        case 6: self = .basketball
        case 7: self = .soccer
        case 8: self = .tennis
        case 11: self = .walking
        case 12, 13: self = .skiing
        case 15: self = .rowing
        case 17: self = .hiking
        default: return nil
        }
    }
}
