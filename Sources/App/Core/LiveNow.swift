/// A recording someone may watch now, as a page lists it ("Maya Athlete · Running").
struct LiveNowCard: Encodable, Sendable {
    let name: String
    let sport: String
    let url: String
}
