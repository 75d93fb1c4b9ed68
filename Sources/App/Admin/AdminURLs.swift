import Foundation

/// Every path Admin serves, spelled once (see `RoutePattern`): its controllers register these
/// cases and its links are made from them.
enum AdminPath: String, RoutePattern {
    case adminJobs = "/admin/jobs"
    case retryJob = "/admin/jobs/:id/retry"
}

extension SiteURL {
    static let adminJobs = SiteURL(AdminPath.adminJobs)
    static func retryJob(_ id: UUID) -> SiteURL { SiteURL(AdminPath.retryJob, Self.id(id)) }
}
