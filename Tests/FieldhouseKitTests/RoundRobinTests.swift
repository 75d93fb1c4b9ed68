import FieldhouseKit
import Testing

@Suite struct RoundRobinTests {
    /// Every property a season must have, for every league size a manager is likely to run.
    @Test(arguments: 3...20) func everyPairMeetsOncePerLegWithBalancedHomesAndByes(count: Int) {
        for double in [false, true] {
            let rounds = RoundRobin.rounds(teams: count, double: double)
            let perLeg = count % 2 == 1 ? count : count - 1
            #expect(rounds.count == perLeg * (double ? 2 : 1))
            let legs = double ? [Array(rounds[..<perLeg]), Array(rounds[perLeg...])] : [rounds]
            for leg in legs {
                var met: [Set<Int>: Int] = [:]
                var homes = Array(repeating: 0, count: count), aways = Array(repeating: 0, count: count)
                var byes = Array(repeating: 0, count: count)
                for round in leg {
                    let playing = round.pairings.flatMap { [$0.home, $0.away] }
                    #expect(Set(playing).count == playing.count, "a team plays twice in one round")
                    #expect(playing.allSatisfy { (0..<count).contains($0) })
                    if let bye = round.bye {
                        #expect(!playing.contains(bye), "the team with the bye also plays")
                        byes[bye] += 1
                        #expect(playing.count == count - 1)
                    } else {
                        #expect(count % 2 == 0 && playing.count == count, "an even league rests nobody")
                    }
                    for pairing in round.pairings {
                        met[[pairing.home, pairing.away], default: 0] += 1
                        homes[pairing.home] += 1
                        aways[pairing.away] += 1
                    }
                }
                #expect(met.count == count * (count - 1) / 2 && met.values.allSatisfy { $0 == 1 }, "every pair meets once per leg")
                for team in 0..<count {
                    #expect(abs(homes[team] - aways[team]) <= 1, "team \(team) of \(count): \(homes[team]) home, \(aways[team]) away")
                    #expect(byes[team] == (count % 2 == 1 ? 1 : 0))
                }
            }
            if double {
                // The second leg is the first with home and away swapped: each pair plays once at each ground.
                var grounds: [[Int]: Int] = [:]
                for pairing in rounds.flatMap(\.pairings) { grounds[[pairing.home, pairing.away], default: 0] += 1 }
                #expect(grounds.count == count * (count - 1) && grounds.values.allSatisfy { $0 == 1 })
            }
        }
    }

    @Test func twoTeamsPlayOnceOrHomeAndAway() {
        #expect(RoundRobin.rounds(teams: 2, double: false) == [.init(pairings: [.init(home: 1, away: 0)], bye: nil)])
        #expect(RoundRobin.rounds(teams: 2, double: true).map(\.pairings) == [[.init(home: 1, away: 0)], [.init(home: 0, away: 1)]])
    }

    @Test func fewerThanTwoTeamsMakeNoSeason() {
        #expect(RoundRobin.rounds(teams: 0, double: true).isEmpty)
        #expect(RoundRobin.rounds(teams: 1, double: false).isEmpty)
    }
}
