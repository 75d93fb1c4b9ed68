import Fluent
import SQLKit

/// A saved workout may have a new window, new breaks or new samples: its stored series
/// (`WorkoutSeries`) is dropped and drawn again from the time line on the next view.
struct WorkoutSeriesMiddleware: AsyncModelMiddleware {
    func update(model: Workout, on db: any Database, next: any AnyAsyncModelResponder) async throws {
        try await next.update(model, on: db)
        try await db.sql.raw("UPDATE workouts SET series = NULL, series_version = series_version + 1 WHERE id = \(bind: model.requireID())")
            .run()
    }
}
