/// Every minute: a place offered from a waitlist and not taken in time passes to the next person.
enum OfferExpiryJob {
    static let kind = JobKind("games.offers", every: 60) { run in
        try await GameRoster.expireOffers(now: run.now, on: run.db)
    }
}
