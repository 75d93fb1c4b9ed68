import Foundation

extension SiteURL {
    static let adminJobs = SiteURL("admin", "jobs")
    static func retryJob(_ id: UUID) -> SiteURL { SiteURL("admin", "jobs", Self.id(id), "retry") }
}
