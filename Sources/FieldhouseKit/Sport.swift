/// The sports Fieldhouse knows, shared by profiles, teams and games.
public enum Sport: String, CaseIterable, Sendable, Codable {
    case soccer, futsal, basketball, volleyball, softball, baseball
    case americanFootball = "american_football"
    case ultimate, hockey, tennis, badminton, running, cycling, other

    public var label: String {
        switch self {
        case .soccer: t("Soccer")
        case .futsal: t("Futsal")
        case .basketball: t("Basketball")
        case .volleyball: t("Volleyball")
        case .softball: t("Softball")
        case .baseball: t("Baseball")
        case .americanFootball: t("American football")
        case .ultimate: t("Ultimate")
        case .hockey: t("Hockey")
        case .tennis: t("Tennis")
        case .badminton: t("Badminton")
        case .running: t("Running")
        case .cycling: t("Cycling")
        case .other: t("Other")
        }
    }
}

/// How well someone plays a sport. Teams and games add "any" on top of these.
public enum Skill: String, CaseIterable, Sendable, Codable {
    case beginner, intermediate, advanced, expert

    public var label: String {
        switch self {
        case .beginner: t("Beginner")
        case .intermediate: t("Intermediate")
        case .advanced: t("Advanced")
        case .expert: t("Expert")
        }
    }
}
