/// A league season's rounds by the circle method: every team meets every other once per leg, plays
/// at most once a round, and is at home as often as away, give or take one. Teams are numbered
/// `0..<count`; the caller maps numbers to teams.
public enum RoundRobin {
    public struct Pairing: Equatable, Sendable {
        public let home: Int
        public let away: Int

        public init(home: Int, away: Int) {
            self.home = home
            self.away = away
        }
    }

    public struct Round: Equatable, Sendable {
        public let pairings: [Pairing]
        /// The team without a game this round (an odd number of teams), else nil.
        public let bye: Int?

        public init(pairings: [Pairing], bye: Int?) {
            self.pairings = pairings
            self.bye = bye
        }
    }

    /// The rounds of a single round robin (`count - 1` rounds for an even count, `count` for an odd
    /// one, each with a bye), then, for `double`, the same rounds again with home and away swapped.
    /// Fewer than two teams make no rounds.
    public static func rounds(teams count: Int, double: Bool) -> [Round] {
        guard count >= 2 else { return [] }
        let first = count % 2 == 1 ? oddRounds(count) : evenRounds(count)
        guard double else { return first }
        return first
            + first.map { round in
                Round(pairings: round.pairings.map { Pairing(home: $0.away, away: $0.home) }, bye: round.bye)
            }
    }

    /// An odd count on a circle: in round r team r rests and the teams r ± i meet. Who is at home
    /// alternates with i, so each team is the "+i" side once and the "−i" side once for every i and
    /// ends with exactly as many home games as away ones.
    private static func oddRounds(_ count: Int) -> [Round] {
        (0..<count).map { round in
            let pairings = stride(from: 1, through: (count - 1) / 2, by: 1).map { step -> Pairing in
                let plus = (round + step) % count, minus = (round - step + count) % count
                return step % 2 == 1 ? Pairing(home: plus, away: minus) : Pairing(home: minus, away: plus)
            }
            return Round(pairings: pairings, bye: round)
        }
    }

    /// An even count: the odd schedule of the first `count - 1` teams, with the last team playing
    /// whoever would rest, at home in every other round, so no team is more than one home game off.
    private static func evenRounds(_ count: Int) -> [Round] {
        let last = count - 1
        return oddRounds(last).enumerated().map { index, round in
            let resting = round.bye ?? 0
            let extra = index % 2 == 0 ? Pairing(home: last, away: resting) : Pairing(home: resting, away: last)
            return Round(pairings: [extra] + round.pairings, bye: nil)
        }
    }
}
