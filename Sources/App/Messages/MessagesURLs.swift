import Foundation

/// Every path Messages serves, spelled once (see `RoutePattern`).
enum MessagesPath: String, RoutePattern {
    case inbox = "/messages"
    case conversation = "/messages/:id"
    case conversationEvents = "/messages/:id/events"
    case muteConversation = "/messages/:id/mute"
    case editMessage = "/messages/:id/m/:message/edit"
    case deleteMessage = "/messages/:id/m/:message/delete"
    case reportMessage = "/messages/:id/m/:message/report"
    case hideMessage = "/messages/:id/m/:message/hide"
    /// Blocks the message's author: someone met in a team's talk may have no profile to block from.
    case blockAuthor = "/messages/:id/m/:message/block"
    case reports = "/admin/reports"
    case dismissReport = "/admin/reports/:id/dismiss"
    case hideReported = "/admin/reports/:id/hide"
}

extension SiteURL {
    static let inbox = SiteURL(MessagesPath.inbox)
    static func conversation(_ conversation: UUID) -> SiteURL { SiteURL(MessagesPath.conversation, id(conversation)) }
    static func conversationEvents(_ conversation: UUID) -> SiteURL { SiteURL(MessagesPath.conversationEvents, id(conversation)) }
    static func muteConversation(_ conversation: UUID) -> SiteURL { SiteURL(MessagesPath.muteConversation, id(conversation)) }
    static func editMessage(_ conversation: UUID, _ message: UUID) -> SiteURL { SiteURL(MessagesPath.editMessage, id(conversation), id(message)) }
    static func deleteMessage(_ conversation: UUID, _ message: UUID) -> SiteURL { SiteURL(MessagesPath.deleteMessage, id(conversation), id(message)) }
    static func reportMessage(_ conversation: UUID, _ message: UUID) -> SiteURL { SiteURL(MessagesPath.reportMessage, id(conversation), id(message)) }
    static func hideMessage(_ conversation: UUID, _ message: UUID) -> SiteURL { SiteURL(MessagesPath.hideMessage, id(conversation), id(message)) }
    static func blockAuthor(_ conversation: UUID, _ message: UUID) -> SiteURL { SiteURL(MessagesPath.blockAuthor, id(conversation), id(message)) }
    static let messageReports = SiteURL(MessagesPath.reports)
    static func dismissReport(_ report: UUID) -> SiteURL { SiteURL(MessagesPath.dismissReport, id(report)) }
    static func hideReported(_ report: UUID) -> SiteURL { SiteURL(MessagesPath.hideReported, id(report)) }
}
