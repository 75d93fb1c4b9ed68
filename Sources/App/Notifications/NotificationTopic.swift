/// What a person chooses to hear about: each kind of notification belongs to one topic, and the
/// notification settings have one switch per topic.
enum NotificationTopic: String, CaseIterable, Codable, Sendable {
    case teams, games, gameReminders = "game_reminders", challenges, goals, workoutReminders = "workout_reminders", coaching

    var label: String {
        switch self {
        case .teams: "Your teams"
        case .games: "Games"
        case .gameReminders: "Game reminders"
        case .challenges: "Challenges"
        case .goals: "Goals"
        case .workoutReminders: "Workout reminders"
        case .coaching: "Coaching"
        }
    }

    var hint: String {
        switch self {
        case .teams: "Join requests, invitations, new roles, league invitations, a team closing"
        case .games: "New games, changes, cancellations, places opening up, substitutes"
        case .gameReminders: "A day and two hours before a game you're going to, and a manager's nudge to answer"
        case .challenges: "Challenges sent to you, replies to yours, and how yours were judged"
        case .goals: "A goal reached"
        case .workoutReminders: "The reminders you set, at their time"
        case .coaching: "Coaching requests, planned sessions, comments on workouts, new zones"
        }
    }
}

extension Notification.Kind {
    var topic: NotificationTopic {
        switch self {
        case .joinRequest, .invited, .approved, .roleChanged, .leagueInvite, .teamClosed: .teams
        case .newGame, .gameChanged, .gameCancelled, .gameJoinRequest, .gamePlace, .gameRemoved, .subsFilled: .games
        case .gameReminder: .gameReminders
        case .challengeReceived, .challengeReply, .challengeJudged: .challenges
        case .goalReached: .goals
        case .workoutReminder: .workoutReminders
        case .coachRequest, .coachAccepted, .sessionPlanned, .workoutComment, .zonesChanged: .coaching
        }
    }
}
