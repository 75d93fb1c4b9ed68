import FieldhouseKit
import Fluent
import Vapor

/// Telling a recording's audience that it started: one notification each, by their settings
/// (topic "Live workouts"), only to people the share lets watch.
enum LiveNews {
    static func tell(
        about workout: Workout, owner: User, audience: LiveShare.Audience, team: UUID?, people: [UUID], today: CalendarDate, on db: any Database
    ) async throws {
        let ownerID = try owner.requireID()
        let under16 = owner.isUnder16(on: today)
        var recipients: [UUID]
        switch audience {
        case .coaches:
            recipients = try await AthleteAccess.coachIDs(of: ownerID, on: db)
        case .people:
            recipients = people
        case .followers:
            recipients =
                under16
                ? [] : try await Follow.query(on: db).filter(\.$followee.$id == ownerID).filter(\.$status == .accepted).all().map(\.$follower.id)
        case .team:
            // The team may watch; only those who follow the owner hear of it (anyone can join a
            // public team, which must not make them a list to announce to).
            guard !under16, let team else { return }
            let members = Set(try await Membership.query(on: db).filter(\.$team.$id == team).all().map(\.$user.id))
            let followers = try await Follow.query(on: db).filter(\.$followee.$id == ownerID).filter(\.$status == .accepted).all()
            recipients = followers.map(\.$follower.id).filter(members.contains)
        }
        recipients.removeAll { $0 == ownerID }
        let sport = WorkoutSport(rawValue: workout.sport)?.label ?? workout.sport
        let link = SiteURL.live(try workout.requireID()).path
        try await Notification.send(
            to: recipients, by: owner, kind: .liveWorkout, today: today,
            text: { name in t("{name} is recording a workout live ({sport}): watch now.", name, sport) }, link: link, on: db)
    }
}
