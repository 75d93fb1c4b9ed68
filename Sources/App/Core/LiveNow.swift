/// A recording someone may watch now, as a page lists it ("Maya Athlete · Running · since 10:02").
struct LiveNowCard: Encodable, Sendable {
    let name: String
    let sport: String
    let since: String
    let url: String
}
