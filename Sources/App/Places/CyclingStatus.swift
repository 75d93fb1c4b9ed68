import FieldhouseKit
import Fluent
import Foundation

/// Where a person's cycling eligibility stands (`CyclingEligibility.Status`, kept as JSON: only this
/// feature reads it, always whole). Private to the person.
final class CyclingStatus: Model, @unchecked Sendable {
    static let schema = "cycling_statuses"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "status") var statusJSON: String
    @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

    init() {}

    init(user: UUID) {
        self.$user.id = user
        self.statusJSON = "{}"
        self.status = CyclingEligibility.Status()
    }

    var status: CyclingEligibility.Status {
        get { (try? JSONDecoder().decode(CyclingEligibility.Status.self, from: Data(statusJSON.utf8))) ?? CyclingEligibility.Status() }
        set { statusJSON = String(decoding: (try? JSONEncoder().encode(newValue)) ?? Data("{}".utf8), as: UTF8.self) }
    }
}

/// One step of the machine, with its time and cause, for the person's history on `/rewards`.
final class CyclingTransition: Model, @unchecked Sendable {
    static let schema = "cycling_transitions"

    @ID(key: .id) var id: UUID?
    @Parent(key: "user_id") var user: User
    /// Milliseconds since 1970, as samples are timed.
    @Field(key: "at_ms") var atMS: Int64
    @Field(key: "from_state") var from: String
    @Field(key: "to_state") var to: String
    @Field(key: "cause") var cause: String

    init() {}

    init(user: UUID, transition: CyclingEligibility.Transition) {
        self.$user.id = user
        self.atMS = transition.time
        self.from = transition.from.rawValue
        self.to = transition.to.rawValue
        self.cause = transition.cause
    }
}
