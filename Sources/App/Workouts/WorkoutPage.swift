import FieldhouseKit
import Vapor

/// Everything `/workouts/{id}` shows: the workout's numbers for this viewer, and its drawings.
struct WorkoutPage: Encodable {
    struct Stat: Encodable {
        let label: String
        let value: String
    }

    /// A leg of a multisport workout (swim, transition, bike, …), or their total.
    struct Leg: Encodable {
        let sport: String
        let time: String
        let distance: String
    }

    let layout: Layout
    let id: String
    /// The track's files, for the owner and their coaches only (`WorkoutAccess.canDownload`).
    let gpxURL: String?
    let csvURL: String?
    let saveRouteAction: String
    let name: String
    let sport: String
    let when: String
    let source: String
    let isOwner: Bool
    let visibility: String
    /// Part of the track passes through the owner's privacy zones: everything shown is the visible part's.
    let partHidden: Bool
    /// Why a workout the owner marked public reaches only followers (the owner is under 16).
    let visibilityNote: String?
    let stats: [Stat]
    let notes: [String]
    /// The legs of a multisport workout and their sum; none when someone sees only a part of it
    /// (the legs would tell how much is hidden).
    let legs: [Leg]
    let legsTotal: Leg?
    /// What the person wrote about it.
    let workoutNotes: String?
    let drawings: WorkoutDrawings
    /// Shown to the athlete and their coaches only.
    /// The one thread under the workout: everyone's comments and, for the athlete and their
    /// coaches, the coaches' ones, oldest first.
    let comments: [WorkoutConversation.Comment]
    let canComment: Bool
    /// The athlete and their coaches may write a comment for the coaches alone.
    let canWriteForCoaches: Bool
    /// The athlete's username when the viewer coaches them, for links to the coaching pages.
    let coachOf: String?
    /// Where the person came from (the list, a coach's athlete page, a profile), else the section.
    let back: BackLink
    /// Kudos, comments and the like from the features built on workouts.
    let responses: [WorkoutResponse]

    init(
        layout: Layout, workout whole: Workout, drawings: WorkoutDrawings, viewer: User?, owner: User, ownerUnder16: Bool, back: BackLink, goals: [Goal] = [],
        conversation: WorkoutConversation? = nil, thread: [WorkoutConversation.Comment] = [], responses: [WorkoutResponse] = [],
        canDownload: Bool = false
    ) throws {
        self.responses = responses
        self.back = back
        // Someone else looking at a track through the owner's privacy zones sees the visible part's numbers only.
        let workout = drawings.part ?? whole
        partHidden = drawings.part != nil
        let format = Format(viewer ?? owner)
        self.layout = layout
        let workoutID = try workout.requireID()
        id = SiteURL.id(workoutID)
        gpxURL = canDownload ? SiteURL.workoutFile(workoutID, format: "gpx").path : nil
        csvURL = canDownload ? SiteURL.workoutFile(workoutID, format: "csv").path : nil
        saveRouteAction = SiteURL.saveWorkoutAsRoute(workoutID).path
        name = workout.name
        sport = (WorkoutSport(rawValue: workout.sport) ?? .other).label
        when = format.when(workout.startMS)
        source =
            switch workout.source {
            case "gpx": t("from GPX file")
            case "tcx": t("from TCX file")
            case "fit": t("from FIT file")
            case "device": t("from a device")
            case "manual": t("from entered by hand")
            default: t("from {source}", workout.source)
            }
        isOwner = viewer?.id == workout.$user.id
        let reach = workout.reach(ownerUnder16: ownerUnder16)
        visibilityNote = reach != workout.visibility ? Workout.childRule : nil
        visibility =
            switch reach {
            case .private: t("private")
            case .followers: t("followers")
            case .public: t("public")
            }

        var stats: [Stat] = [
            .init(label: t("Duration"), value: Format.duration(workout.duration)),
            .init(label: t("Moving time"), value: Format.duration(workout.moving)),
        ]
        if workout.distance != nil {
            stats.append(.init(label: t("Distance"), value: format.distance(workout.distance)))
            stats.append(.init(label: t("Average pace"), value: format.pace(workout.avgSpeed)))
            stats.append(.init(label: t("Average speed"), value: format.speed(workout.avgSpeed)))
            stats.append(.init(label: t("Min / max speed"), value: "\(format.speed(workout.minSpeed)) / \(format.speed(workout.maxSpeed))"))
        }
        if workout.elevationGain != nil { stats.append(.init(label: t("Climbing"), value: format.elevation(workout.elevationGain))) }
        if let avg = workout.avgHeartRate {
            stats.append(.init(label: t("Heart rate min / avg / max"), value: "\(workout.minHeartRate ?? avg) / \(avg) / \(workout.maxHeartRate ?? avg) bpm"))
        }
        if let calories = workout.calories { stats.append(.init(label: t("Calories"), value: "\(Format.whole(calories)) kcal")) }
        if let steps = workout.steps { stats.append(.init(label: t("Steps"), value: "\(steps)")) }
        if let trimp = workout.trimp { stats.append(.init(label: t("Training load (TRIMP)"), value: Format.whole(trimp))) }
        // How much of each of the owner's active goals this workout alone covers.
        if isOwner {
            for goal in goals where goal.enabled && goal.target > 0 {
                let share = Format.percent(GoalProgress.amount(goal.metric, of: [workout]), of: goal.target)
                stats.append(
                    .init(
                        label: goal.goalLabel,
                        value: t("{percent} % of {target}", share, GoalProgress.describe(goal.metric, goal.target, imperial: format.imperial))))
            }
        }
        self.stats = stats
        let legList = drawings.part == nil ? workout.legList : []
        legs = legList.map { leg in
            Leg(
                sport: leg.isTransition ? t("Transition") : leg.sport.label, time: leg.elapsed.map(Format.duration) ?? "–",
                distance: format.distance(leg.distance))
        }
        legsTotal =
            legList.isEmpty
            ? nil
            : Leg(
                sport: t("Total"), time: Format.duration(legList.compactMap(\.elapsed).reduce(0, +)),
                distance: format.distance(legList.compactMap(\.distance).reduce(0, +)))
        workoutNotes = workout.notes
        notes =
            (isOwner ? workout.notesForOwner : [])
            + (workout.trimp == nil
                ? []
                : [
                    t(
                        "Training load (TRIMP, training impulse) is minutes of exercise weighted by how hard the heart worked: an easy hour counts less than a hard one."
                    )
                ])

        self.drawings = drawings
        comments = thread
        canComment = viewer != nil && workout.endMS != nil
        canWriteForCoaches = conversation != nil
        coachOf = conversation?.coachOf
    }
}
