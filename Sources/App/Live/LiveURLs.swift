import Foundation

extension SiteURL {
    static let record = SiteURL("record")
    static let recordDevice = SiteURL("record", "device")
    static func live(_ workout: UUID) -> SiteURL { SiteURL("live", id(workout)) }
    static func liveEvents(_ workout: UUID) -> SiteURL { SiteURL("live", id(workout), "events") }
}
