import FieldhouseKit
import Fluent
import SQLKit
import Vapor

/// Checking in at a place for its reward, from the browser or a device: the one rule both follow.
enum CheckIn {
    enum Outcome {
        case rewarded(RewardCode)
        /// `code` names the reason for the API; `reason` says it to a person.
        case refused(status: HTTPStatus, code: String, reason: String)
    }

    static func attempt(
        _ user: User, at place: Place, position: Coordinate, now: Date, rules: CyclingEligibility.Rules, on db: any Database
    ) async throws -> Outcome {
        if let refusal = try await refusal(user, at: place, position: position, now: now, rules: rules, on: db) { return refusal }
        let day = LocalTime.day(of: now, zone: place.timeZone)
        guard let reward = place.reward(on: day) else {
            return .refused(status: .conflict, code: "no_reward", reason: t("{place} offers no reward today.", place.name))
        }
        return try await db.inTransaction { db in
            try await issue(reward, at: place, to: try user.requireID(), day: day, now: now, on: db)
        }
    }

    /// Why `user` may not check in at `place` from `position` now, or nil when a check-in would earn
    /// the reward but for the counts the code's insert decides (`issue`). The recorder's offer
    /// (`CheckinAPIController.offer`) asks it too, so it offers only what a check-in would give.
    static func refusal(
        _ user: User, at place: Place, position: Coordinate, now: Date, rules: CyclingEligibility.Rules, on db: any Database
    ) async throws -> Outcome? {
        let userID = try user.requireID()
        let placeID = try place.requireID()
        let day = LocalTime.day(of: now, zone: place.timeZone)
        guard place.reward(on: day) != nil else {
            return .refused(status: .conflict, code: "no_reward", reason: t("{place} offers no reward today.", place.name))
        }
        let metres = Geo.distance(position, place.coordinate)
        guard metres <= place.radius else {
            return .refused(
                status: .unprocessableEntity, code: "outside",
                reason: t(
                    "You're {distance} from {place}; check in within {radius} m of it.", Format.proximity(metres, imperial: user.units == .imperial),
                    place.name, Int(place.radius)))
        }
        guard let status = try await CyclingTracker.advance(userID, timeZone: user.timeZone, events: [], now: now, rules: rules, on: db) else {
            return .refused(
                status: .unprocessableEntity, code: "rewards_off",
                reason: t("Rewards are off for you: turn them on under Rewards, then ride here with your phone sending its readings."))
        }
        if status.state == .vehicular {
            return .refused(
                status: .unprocessableEntity, code: "vehicle",
                reason: t("Your phone's readings show you in a car or a bus, not on a bike. See Rewards for your state."))
        }
        guard status.state.isEligible else {
            return .refused(
                status: .unprocessableEntity, code: "not_eligible",
                reason: t(
                    "Your phone hasn't shown you cycling for {minutes} today, so there is no reward yet. See Rewards for your state.",
                    CyclingTracker.minutesText(rules.cyclingSeconds))
            )
        }
        // A fresh account could drain a place's daily cap: codes go to accounts a day old, or with
        // an address their owner confirmed.
        if user.emailConfirmedAt == nil, user.createdAt.map({ now.timeIntervalSince($0) < 86_400 }) ?? true {
            return .refused(
                status: .unprocessableEntity, code: "new_account",
                reason: t("Rewards start once your account is a day old or your e-mail address is confirmed."))
        }
        if let refusal = try await rideRefusal(userID, at: place, now: now, rules: rules, format: Format(user), on: db) {
            return refusal
        }
        if try await RewardCode.query(on: db).filter(\.$place.$id == placeID).filter(\.$user.$id == userID).filter(\.$day == day.description).first() != nil {
            return .refused(status: .conflict, code: "already_rewarded", reason: t("You already have today's reward from {place}.", place.name))
        }
        return nil
    }

    /// The person's codes of the last 24 hours reached the limit: the refusal, else nil.
    static func dailyLimit(_ userID: UUID, now: Date, on db: any Database) async throws -> Outcome? {
        let recent = try await RewardCode.query(on: db).filter(\.$user.$id == userID).filter(\.$issuedAt >= now.addingTimeInterval(-86_400)).count()
        guard recent >= RewardCode.perPersonPerDay else { return nil }
        return .refused(
            status: .conflict, code: "daily_limit",
            reason: tn(
                "That's {count} reward in the last 24 hours: the next one tomorrow.", "That's {count} rewards in the last 24 hours: the next one tomorrow.",
                RewardCode.perPersonPerDay))
    }

    /// The place has given all of the day's rewards.
    static func capReached(_ place: Place, day: CalendarDate, on db: any Database) async throws -> Bool {
        try await RewardCode.query(on: db).filter(\.$place.$id == place.requireID()).filter(\.$day == day.description).count() >= place.rewardDailyCap
    }

    /// Why the phone's positions of the last minutes are not a ride that ends here (`RideCheck`),
    /// or nil when they are. The positions are those the device API received live (`RideFixes`),
    /// not the check-in's.
    private static func rideRefusal(
        _ userID: UUID, at place: Place, now: Date, rules: CyclingEligibility.Rules, format: Format, on db: any Database
    ) async throws -> Outcome? {
        let end = Int64(now.timeIntervalSince1970 * 1000)
        let from = end - Int64((RideCheck.window(rules) + rules.maximumGap) * 1000)
        let readings = try await RideFixes.since(from, for: userID, on: db)
        let minutes = CyclingTracker.minutesText(RideCheck.window(rules))
        switch RideCheck.judge(readings, endingAt: place.coordinate, radius: place.radius, now: end, rules: rules) {
        case .ride:
            return nil
        case .notHere:
            return .refused(
                status: .unprocessableEntity, code: "not_here",
                reason: t("Your phone's last position is not at {place}: check in when it has shown you arriving.", place.name))
        case .tooFewReadings:
            return .refused(
                status: .unprocessableEntity, code: "no_ride",
                reason: t("A reward needs your phone's positions from the last {minutes} of the ride, sent as you ride and ending here.", minutes))
        case .tooSlow:
            return .refused(
                status: .unprocessableEntity, code: "not_a_ride",
                reason: t("Your positions from the last {minutes} do not show a bike ride (slower than {speed}).", minutes, format.speed(RideCheck.slowest)))
        case .tooFast:
            return .refused(
                status: .unprocessableEntity, code: "vehicle",
                reason: t("Your positions from the last {minutes} look like a car or a bus, not a bike.", minutes))
        }
    }

    /// The cap and the once-a-day key are checked in the insert itself. On PostgreSQL the place's
    /// row is locked first, so two check-ins at once cannot both count the last free reward (SQLite
    /// has one writer at a time anyway).
    private static func issue(_ reward: String, at place: Place, to userID: UUID, day: CalendarDate, now: Date, on db: any Database) async throws
        -> Outcome
    {
        let placeID = try place.requireID()
        let sql = db.sql
        // A code a day from each of a few places: a person cannot empty every partner's counter.
        // Counted under a lock on the person's row, so check-ins at several places at once count in turn.
        try await db.lockForCount(User.schema, id: userID)
        if let refusal = try await dailyLimit(userID, now: now, on: db) { return refusal }
        if sql.dialect.name == "postgresql" {
            try await sql.raw("SELECT id FROM places WHERE id = \(bind: placeID) FOR UPDATE").run()
        }
        for _ in 0..<3 {
            let code = RewardCode(place: placeID, user: userID, code: RewardCode.newCode(), day: day.description, rewardText: reward, issuedAt: now)
            let id = UUID()
            let inserted = try await sql.raw(
                """
                INSERT INTO reward_codes (id, place_id, user_id, code, day, reward_text, issued_at)
                SELECT \(bind: id), \(bind: placeID), \(bind: userID), \(bind: code.code), \(bind: code.day), \(bind: reward), \(bind: now)
                WHERE (SELECT COUNT(*) FROM reward_codes WHERE place_id = \(bind: placeID) AND day = \(bind: code.day)) < \(bind: place.rewardDailyCap)
                ON CONFLICT DO NOTHING RETURNING id
                """
            ).all()
            if !inserted.isEmpty {
                code.id = id
                code.$id.exists = true
                return .rewarded(code)
            }
            if try await RewardCode.query(on: db).filter(\.$place.$id == placeID).filter(\.$user.$id == userID).filter(\.$day == day.description).first() != nil
            {
                return .refused(status: .conflict, code: "already_rewarded", reason: t("You already have today's reward from {place}.", place.name))
            }
            if try await capReached(place, day: day, on: db) {
                return .refused(status: .conflict, code: "daily_cap", reason: t("{place} has given all of today's rewards. Try again tomorrow.", place.name))
            }
            // Otherwise the random code met another of the place's: draw again.
        }
        throw Abort(.serviceUnavailable, reason: t("No reward code could be made; try again."))
    }
}
