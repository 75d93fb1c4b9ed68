/// One line of a day in a coach's calendars (an athlete's weeks, the team's week): a planned
/// session or a workout done, with how well the plan was met.
struct TrainingItem: Encodable {
    let text: String
    let url: String?
    let planID: String?
    let grade: String?
    let gradeLabel: String?
}
