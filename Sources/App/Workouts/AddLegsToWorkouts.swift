import Fluent

/// The legs of a multisport recording (swim, transition, bike, transition, run): each leg's sport,
/// start, time and distance as the device wrote them (`Workout.legList`), so the page can show them
/// and each leg's positions are checked against its own sport's speed.
struct AddLegsToWorkouts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Workout.schema).field("legs", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Workout.schema).deleteField("legs").update()
    }
}
