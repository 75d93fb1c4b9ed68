import Foundation

extension SiteURL {
    static let deviceSettings = SiteURL("settings", "devices")
    static let apiSamples = SiteURL("api", "v1", "samples")
    static let openAPIDocument = SiteURL("api", "v1", "openapi.json")
    static let developers = SiteURL("developers")
}
