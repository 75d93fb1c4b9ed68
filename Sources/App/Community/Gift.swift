import Fluent
import Foundation

/// A sticker with a note, sent to congratulate someone on a workout or a badge.
final class Gift: Model, @unchecked Sendable {
    static let schema = "gifts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "sender_id") var sender: User
    @Parent(key: "recipient_id") var recipient: User
    /// What it congratulates: "workout:<id>" or "badge:<id>".
    @Field(key: "subject") var subject: String
    @Enum(key: "sticker") var sticker: Sticker
    @Field(key: "note") var note: String
    /// Set from the request's clock, which the daily limit is counted on.
    @OptionalField(key: "created_at") var createdAt: Date?

    init() {}

    enum Sticker: String, Codable, CaseIterable, Sendable {
        case medal, flame, highFive = "high_five", star, rocket

        var symbol: String {
            switch self {
            case .medal: "🏅"
            case .flame: "🔥"
            case .highFive: "🙌"
            case .star: "⭐"
            case .rocket: "🚀"
            }
        }

        var label: String {
            switch self {
            case .medal: t("Medal")
            case .flame: t("On fire")
            case .highFive: t("High five")
            case .star: t("Star")
            case .rocket: t("Rocket")
            }
        }
    }

    static let maxNote = 140
    /// Gifts one person may send in a day: enough to cheer friends on, too few to spam anyone.
    static let perDay = 5
    /// What gifts congratulate.
    static let subjectKinds: Set<String> = ["workout", "badge"]
}

extension Gift {
    /// Stores a gift and tells its recipient.
    static func give(
        _ sticker: Gift.Sticker, note: String, for subject: FeedSubject, from sender: User, now: Date, today: CalendarDate, on db: any Database
    ) async throws {
        let gift = Gift()
        gift.createdAt = now
        gift.$sender.id = try sender.requireID()
        gift.$recipient.id = try subject.owner.requireID()
        gift.subject = subject.key
        gift.sticker = sticker
        gift.note = note
        try await gift.create(on: db)
        try await Notification.send(
            to: [gift.$recipient.id], by: sender, kind: .gift, today: today,
            text: { name in
                note.isEmpty
                    ? t("{name} sent you {sticker} for {title}", name, sticker.symbol, subject.title)
                    : t("{name} sent you {sticker} for {title}: “{note}”", name, sticker.symbol, subject.title, Format.excerpt(note))
            },
            link: SiteURL.badges.path, on: db)
    }
}
