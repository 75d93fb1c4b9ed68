import FieldhouseKit
import Fluent
import Vapor

/// Who may see and do what with a challenge. A challenge, its replies and their photos are seen
/// only by its sender, its recipients and, when public, everyone signed in. Everybody else gets
/// 404, so a link passed around does not even confirm that the challenge exists.
struct ChallengeAccess {
    let challenge: Challenge
    let viewerID: UUID
    let isSender: Bool
    let isRecipient: Bool

    var canView: Bool { isSender || isRecipient || challenge.isPublic }
    /// Replying is for recipients, and anyone but the sender when public.
    var canTakePart: Bool { !isSender && (isRecipient || challenge.isPublic) }

    /// The sender sees every reply; the replier their own; others only accepted ones.
    func canSee(_ response: ChallengeResponse) -> Bool {
        isSender || response.$user.id == viewerID || response.status == .accepted
    }

    static func load(_ challenge: Challenge, viewer: User, on db: any Database) async throws -> ChallengeAccess {
        let viewerID = try viewer.requireID()
        let isSender = challenge.$sender.id == viewerID
        let isRecipient =
            isSender
            ? false
            : try await ChallengeRecipient.query(on: db)
                .filter(\.$challenge.$id == challenge.requireID()).filter(\.$user.$id == viewerID).first() != nil
        return ChallengeAccess(challenge: challenge, viewerID: viewerID, isSender: isSender, isRecipient: isRecipient)
    }

    /// The challenge named in the path, or 404 when it does not exist or the viewer may not see it.
    static func load(_ req: Request, parameter: String = "id") async throws -> ChallengeAccess {
        let viewer = try req.requireUser()
        guard let id = req.parameters.get(parameter, as: UUID.self),
            let challenge = try await Challenge.find(id, on: req.db)
        else { throw Abort(.notFound) }
        let access = try await load(challenge, viewer: viewer, on: req.db)
        guard access.canView else { throw Abort(.notFound) }
        return access
    }

    /// How someone who took part (the sender, a replier) is shown to this viewer, and whether their
    /// photo's place may be: their own things in full; otherwise named as `PersonAccess.knownName`
    /// and `listedName` say ("Someone" for an adult the viewer may not know of, "a player under 16"
    /// for a child outside the viewer's teams and follows, the sender excepted when the child is
    /// known to them); a place never for either, a child's only for a sender who knows them (a
    /// follow or a team), and never inside the person's privacy zones.
    func participant(_ person: User, _ relation: PersonAccess.Relation, zones: [PrivacyZone]) -> Participant {
        if person.id == viewerID {
            return Participant(name: person.displayName, profileURL: SiteURL.person(username: person.username).path, mayShowPlace: true, zones: [])
        }
        let child = person.isUnder16(on: relation.today)
        let known = PersonAccess.knownName(of: person, relation)
        guard let name = known, isSender || PersonAccess.listedName(person, relation) != nil else {
            return Participant(name: child ? PersonAccess.childOnAList : t("Someone"), profileURL: nil, mayShowPlace: false, zones: [])
        }
        // A child's place goes to the sender only when they know each other (a follow or a team):
        // anyone can send a public challenge, so "the sender" alone would be any adult.
        let acquainted = relation.sharesTeam || relation.viewerFollows == .accepted || relation.followsViewer == .accepted
        return Participant(
            name: name, profileURL: SiteURL.person(username: person.username).path, mayShowPlace: !child || (isSender && acquainted), zones: zones)
    }

    struct Participant {
        let name: String
        let profileURL: String?
        let mayShowPlace: Bool
        let zones: [PrivacyZone]

        /// The place as this viewer may see it, or nil.
        func place(_ coordinate: Coordinate?) -> Coordinate? {
            guard mayShowPlace, let coordinate, !zones.contains(where: { $0.contains(coordinate) }) else { return nil }
            return coordinate
        }
    }

    func requireSender() throws {
        guard isSender else { throw Abort(.forbidden, reason: t("Only the person who sent this challenge can do that.")) }
    }
}
