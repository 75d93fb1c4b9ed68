import Fluent
import SQLKit
import Vapor

/// Registers each feature's routes.
func routes(_ app: Application) throws {
    app.get("healthz") { req async throws -> Response in
        // A real round trip, so a load balancer takes a process whose database is gone out of rotation.
        _ = try await (req.db as! any SQLDatabase).raw("SELECT 1 AS ok").all()
        return Response(status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"], body: .init(string: "ok"))
    }
    try app.register(collection: HomeController())
    try app.register(collection: AccountController())
    try app.register(collection: ProfileController())
    try app.register(collection: SettingsController(maxUploadBytes: app.config.maxUploadBytes))
    try app.register(collection: DeleteAccountController())
    try app.register(collection: FollowController())
    try app.register(collection: TeamController())
    try app.register(collection: MembershipController())
    try app.register(collection: InviteController())
    try app.register(collection: LeagueController())
    try app.register(collection: FindController())
    try app.register(collection: GameController())
    try app.register(collection: GamePlayerController())
    try app.register(collection: MyGamesController())
    try app.register(collection: CalendarController())
    try app.register(collection: NotificationController())
    try app.register(collection: InboxController())
    try app.register(collection: ChallengeController())
    try app.register(collection: ResponseController())
    try app.register(collection: PhotoController())
    try app.register(collection: DeviceController())
    try app.register(collection: SampleController(maxBodyBytes: app.config.maxUploadBytes))
    try app.register(collection: WorkoutAPIController())
    try app.register(collection: ImportController())
    try app.register(collection: WorkoutEditController())
    try app.register(collection: WorkoutController())
    try app.register(collection: PrivacyZoneController())
    try app.register(collection: ResetWorkoutsController())
    try app.register(collection: CoachController())
    try app.register(collection: CoachAthleteController())
    try app.register(collection: CoachWeekController())
    try app.register(collection: CoachSettingsController())
    try app.register(collection: ZonesController())
    try app.register(collection: CommentController())
    try app.register(collection: LearnController())
    try app.register(collection: LearnEditorController())
    try app.register(collection: StatsController())
    try app.register(collection: GoalController())
    try app.register(collection: HeartRateController())
    try app.register(collection: ReminderController())
    try app.register(collection: OpenAPIController(app: app))
    try app.register(collection: UploadController(maxBytes: app.config.maxActivityFileBytes))
}
