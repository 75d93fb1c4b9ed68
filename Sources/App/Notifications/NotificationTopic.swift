/// What a person chooses to hear about: each kind of notification belongs to one topic, and the
/// notification settings have one switch per topic.
enum NotificationTopic: String, CaseIterable, Codable, Sendable {
    case teams, games, gamesNearby = "games_nearby", gameReminders = "game_reminders", challenges, goals, workoutReminders = "workout_reminders", coaching,
        kudos, community, nudges, rewards, live, messages

    var label: String {
        switch self {
        case .teams: t("Your teams")
        case .games: t("Games")
        case .gamesNearby: t("Games near you")
        case .gameReminders: t("Game reminders")
        case .challenges: t("Challenges")
        case .goals: t("Goals")
        case .workoutReminders: t("Workout reminders")
        case .coaching: t("Coaching")
        case .kudos: t("Kudos")
        case .community: t("Plans, comments, badges and gifts")
        case .nudges: t("Weekly nudge")
        case .rewards: t("Rewards for arriving by bike")
        case .live: t("Live workouts")
        case .messages: t("Messages")
        }
    }

    /// Whether e-mail is on for a person who never chose: everything a person asked for or takes
    /// part in, but not the daily news of games nearby nor every kudos.
    var emailByDefault: Bool { ![.gamesNearby, .kudos, .community, .nudges, .rewards, .live].contains(self) }

    /// Whether the topic's news appears under the bell. Messages have their own count beside
    /// "Messages" instead, so their only choices are e-mail and browsers.
    var hasBell: Bool { self != .messages }

    var hint: String {
        switch self {
        case .teams: t("Join requests, invitations, new roles, league invitations, a team closing")
        case .games: t("New games for your teams, invitations to games, requests to join your games, substitutes found, changes to games you're not playing in")
        case .gamesNearby:
            t(
                "A new public pick-up game in a sport you play, at your level, within 10 km of your home; at most one a day, from 16 (your home and sports are in your profile settings)"
            )
        case .gameReminders: t("A day and two hours before a game you're going to, and a manager's nudge to answer")
        case .challenges: t("Challenges sent to you, replies to yours, and how yours were judged")
        case .goals: t("A goal reached")
        case .workoutReminders: t("The reminders you set, at their time")
        case .coaching: t("Coaching requests, planned sessions, comments on workouts, new zones")
        case .kudos: t("Kudos on your workouts, gathered into one note per workout until you read it")
        case .community: t("Plans your friends post, friends who are in for yours, comments on your workouts and plans, badges you earn, gifts you get")
        case .nudges: t("On Mondays, when last week was a quiet one: a short note with an idea for moving more")
        case .rewards: t("When your phone's readings show you've been cycling long enough to earn partner places' rewards today")
        case .live: t("Someone you follow or coach starts recording a workout they share with you live")
        case .messages:
            t(
                "New messages in your conversations: one e-mail with what you have not read, at most every six hours, and each message as it comes on the browsers you choose"
            )
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
        case .newGame, .gameChanged, .gameCancelled, .gameJoinRequest, .subsFilled, .gameInvite: .games
        case .gameReminder: .gameReminders
        case .gameNearby: .gamesNearby
        case .challengeReceived, .challengeReply, .challengeJudged: .challenges
        case .goalReached: .goals
        case .workoutReminder: .workoutReminders
        case .coachRequest, .coachAccepted, .sessionPlanned, .workoutComment, .zonesChanged: .coaching
        case .kudos: .kudos
        case .planJoined, .planPosted, .comment, .badge, .gift: .community
        case .nudge: .nudges
        case .rewardEligible, .placeManager: .rewards
        case .liveWorkout: .live
        }
    }
}
