/// What a person chooses to hear about: each kind of notification belongs to one topic, and the
/// notification settings have one switch per topic.
enum NotificationTopic: String, CaseIterable, Codable, Sendable {
    case teams, games, gamesNearby = "games_nearby", gameReminders = "game_reminders", challenges, goals, workoutReminders = "workout_reminders", coaching,
        kudos, community, nudges, rewards

    var label: String {
        switch self {
        case .teams: "Your teams"
        case .games: "Games"
        case .gamesNearby: "Games near you"
        case .gameReminders: "Game reminders"
        case .challenges: "Challenges"
        case .goals: "Goals"
        case .workoutReminders: "Workout reminders"
        case .coaching: "Coaching"
        case .kudos: "Kudos"
        case .community: "Plans, comments, badges and gifts"
        case .nudges: "Weekly nudge"
        case .rewards: "Rewards for arriving by bike"
        }
    }

    /// Whether e-mail is on for a person who never chose: everything a person asked for or takes
    /// part in, but not the daily news of games nearby nor every kudos.
    var emailByDefault: Bool { ![.gamesNearby, .kudos, .community, .nudges, .rewards].contains(self) }

    var hint: String {
        switch self {
        case .teams: "Join requests, invitations, new roles, league invitations, a team closing"
        case .games: "New games for your teams, requests to join your games, substitutes found, changes to games you're not playing in"
        case .gamesNearby:
            "A new public pick-up game in a sport you play, at your level, within 10 km of your home; at most one a day, from 16 (your home and sports are in your profile settings)"
        case .gameReminders: "A day and two hours before a game you're going to, and a manager's nudge to answer"
        case .challenges: "Challenges sent to you, replies to yours, and how yours were judged"
        case .goals: "A goal reached"
        case .workoutReminders: "The reminders you set, at their time"
        case .coaching: "Coaching requests, planned sessions, comments on workouts, new zones"
        case .kudos: "Kudos on your workouts, gathered into one note per workout until you read it"
        case .community: "Friends who are in for your plans, comments on your workouts and plans, badges you earn, gifts you get"
        case .nudges: "On Mondays, when last week was a quiet one: a short note with an idea for moving more"
        case .rewards: "When your phone's readings show you've been cycling long enough to earn partner places' rewards today"
        }
    }
}

extension Notification.Kind {
    /// Nil for news a person cannot turn off: being taken off a game, and a place in one given or
    /// held for them. (A change or cancellation reaches those holding a place through `always`.)
    var topic: NotificationTopic? {
        switch self {
        case .gameRemoved, .gamePlace: nil
        case .joinRequest, .invited, .approved, .roleChanged, .leagueInvite, .teamClosed: .teams
        case .newGame, .gameChanged, .gameCancelled, .gameJoinRequest, .subsFilled: .games
        case .gameReminder: .gameReminders
        case .gameNearby: .gamesNearby
        case .challengeReceived, .challengeReply, .challengeJudged: .challenges
        case .goalReached: .goals
        case .workoutReminder: .workoutReminders
        case .coachRequest, .coachAccepted, .sessionPlanned, .workoutComment, .zonesChanged: .coaching
        case .kudos: .kudos
        case .planJoined, .comment, .badge, .gift: .community
        case .nudge: .nudges
        case .rewardEligible: .rewards
        }
    }
}
