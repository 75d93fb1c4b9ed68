import Fluent
import SQLKit

/// Before e-mail, a settings row meant "off under the bell" and its `email` column was always true.
/// Someone who turned a topic off did not want to hear of it: by e-mail neither.
struct AddEmailChoiceToNotificationSettings: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.sql.update(NotificationSetting.schema).set("email", to: false).where("in_app", .equal, false).run()
    }

    func revert(on database: any Database) async throws {}
}
