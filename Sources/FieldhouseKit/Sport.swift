/// The sports Fieldhouse knows, shared by profiles, teams and games.
public enum Sport: String, CaseIterable, Sendable, Codable {
    case soccer, futsal, basketball, volleyball, softball, baseball
    case americanFootball = "american_football"
    case ultimate, hockey, tennis, badminton, running, cycling, other

    public var label: String {
        switch self {
        case .americanFootball: "American football"
        default: rawValue.prefix(1).uppercased() + rawValue.dropFirst()
        }
    }
}

/// How well someone plays a sport. Teams and games add "any" on top of these.
public enum Skill: String, CaseIterable, Sendable, Codable {
    case beginner, intermediate, advanced, expert

    public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
