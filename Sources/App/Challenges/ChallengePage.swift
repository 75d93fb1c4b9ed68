import FieldhouseKit
import Fluent
import Vapor

/// What `challenges/show` needs: the challenge, the replies this viewer may see, the map, and the
/// actions open to the viewer.
struct ChallengePage: Encodable {
    struct PhotoView: Encodable {
        /// The 1,280 px copy once made, else the full copy.
        let url: String
        /// The full copy, for "open full size".
        let fullURL: String
        let orientation: Int
        let width: Int?
        let height: Int?

        init(_ photo: Photo) {
            let id = photo.id!
            url = Photo.url(id, size: photo.sizes == .ready ? .large : nil)
            fullURL = Photo.url(id)
            orientation = photo.orientation
            // A quarter turn swaps the sides the browser lays out.
            let turned = photo.orientation >= 5
            var width = turned ? photo.height : photo.width
            var height = turned ? photo.width : photo.height
            // The large copy is at most 1,280 px a side; the page reserves its shape, not its size.
            if let w = width, let h = height, max(w, h) > Photo.Size.large.box {
                let scale = Double(Photo.Size.large.box) / Double(max(w, h))
                width = max(1, Int((Double(w) * scale).rounded()))
                height = max(1, Int((Double(h) * scale).rounded()))
            }
            self.width = width
            self.height = height
        }
    }

    struct Reply: Encodable {
        let id: String
        let number: Int?
        let name: String
        let profileURL: String?
        let isMine: Bool
        let photo: PhotoView
        let note: String
        let status: String
        let statusLabel: String
        let stars: Int?
        let starText: String?
        let reason: String?
        let place: String?
        let mapURL: String?
        let distance: String?
        let flags: [String]
        let sentAt: String
        let canJudge: Bool
    }

    struct Person: Encodable {
        let name: String
        let url: String
        let status: String
    }

    let layout: Layout
    /// Where the person came from (the challenges, the public ones, the sender's profile, home).
    let back: BackLink
    let id: String
    let caption: String
    let photo: PhotoView
    let senderName: String
    let senderURL: String?
    let sentAt: String
    let deadline: String?
    let closed: Bool
    let isPublic: Bool
    let isSender: Bool
    let progress: String
    let recipients: [Person]
    let place: String?
    let placeSource: String?
    let mapURL: String?
    let mapSVG: String?
    let replies: [Reply]
    let canReply: Bool
    let replyBlockedReason: String?
    /// The reply form, as typed, and its mistakes.
    let form: ChallengeForm
    let errors: FieldErrors
    let maxMB: Int
    let starChoices = [1, 2, 3, 4, 5]

    static func build(_ req: Request, access: ChallengeAccess, replyForm: ChallengeForm, replyErrors: FieldErrors) async throws -> ChallengePage {
        let viewer = try req.requireUser()
        let challenge = access.challenge
        let challengeID = try challenge.requireID()
        let format = Format(viewer)
        let imperial = viewer.units == .imperial
        guard let photo = try await Photo.find(challenge.$photo.id, on: req.db),
            let sender = try await User.find(challenge.$sender.id, on: req.db)
        else { throw Abort(.notFound) }

        let all = try await ChallengeResponse.query(on: req.db).filter(\.$challenge.$id == challengeID)
            .sort(\.$createdAt, .ascending).with(\.$user).with(\.$photo).all()
        let visible = all.filter(access.canSee)
        // Names and places as this viewer may know them (`ChallengeAccess.participant`).
        let people = [sender] + visible.map(\.user)
        let ids = people.compactMap(\.id)
        let relations = try await Relations.load(viewer: viewer, people: ids, today: req.clock.today, on: req.db)
        let zones = try await SavedPrivacyZone.zones(of: ids, on: req.db)
        func participant(_ person: User) -> ChallengeAccess.Participant {
            access.participant(person, relations.relation(to: person), zones: person.id.flatMap { zones[$0] } ?? [])
        }
        let shownSender = participant(sender)
        let challengePlace = shownSender.place(challenge.coordinate)

        var markers: [SVGMap.Marker] = []
        if let point = challengePlace {
            markers.append(.init(coordinate: point, symbol: "★", title: t("The challenge photo"), primary: true))
        }
        var replies: [Reply] = []
        for response in visible {
            let replier = participant(response.user)
            let point = replier.place(response.coordinate)
            var number: Int?
            if let point {
                number = markers.count + (challengePlace == nil ? 1 : 0)
                markers.append(.init(coordinate: point, symbol: String(number!), title: t("Reply by {name}", replier.name), primary: false))
            }
            var flags: [String] = []
            if access.isSender || response.$user.id == access.viewerID {
                if let metres = response.distanceMetres, metres > req.application.config.challengeFlagMetres {
                    // How far, only to a viewer who may see the challenge's place: a replier typing
                    // places could otherwise find a hidden one by its distances.
                    flags.append(
                        challengePlace == nil
                            ? t("Taken far from the challenge location")
                            : t("Taken {distance} away from the challenge location", Format.proximity(metres, imperial: imperial)))
                }
                if response.takenBefore { flags.append(t("Photo taken before the challenge was sent")) }
            }
            let place = point.map { PlaceView(name: nil, coordinate: $0, exact: true, hiddenNote: "") }
            replies.append(
                Reply(
                    id: try response.requireID().uuidString.lowercased(), number: number,
                    name: replier.name, profileURL: replier.profileURL,
                    isMine: response.$user.id == access.viewerID, photo: PhotoView(response.photo), note: response.note,
                    status: response.status.rawValue, statusLabel: Self.label(response.status),
                    stars: response.stars, starText: response.stars.map { String(repeating: "★", count: $0) + String(repeating: "☆", count: 5 - $0) },
                    reason: response.reason, place: place?.text, mapURL: place?.mapURL,
                    // How far from the challenge's place draws a ring round the reply's: only with the place.
                    distance: point == nil || challengePlace == nil
                        ? nil : response.distanceMetres.map { t("{distance} from the challenge", Format.proximity($0, imperial: imperial)) },
                    flags: flags, sentAt: format.shortWhen(response.createdAt ?? req.now),
                    canJudge: access.isSender && response.status == .pending
                ))
        }

        var recipients: [Person] = []
        if access.isSender {
            let rows = try await ChallengeRecipient.query(on: req.db).filter(\.$challenge.$id == challengeID).with(\.$user).all()
            let latest = Dictionary(all.map { ($0.$user.id, $0.status) }, uniquingKeysWith: { _, b in b })
            recipients = rows.map { row in
                let status = row.completedAt != nil ? t("Completed") : latest[row.$user.id].map(Self.label) ?? t("Not yet replied")
                return Person(name: row.user.displayName, url: SiteURL.person(username: row.user.username).path, status: status)
            }.sorted { $0.name < $1.name }
        }

        let mine = all.filter { $0.$user.id == access.viewerID }
        var blocked: String?
        if access.canTakePart {
            if mine.contains(where: { $0.status == .accepted }) {
                blocked = t("You completed this challenge.")
            } else if mine.contains(where: { $0.status == .pending }) {
                blocked = t("Your reply is waiting for {name}'s judgement.", shownSender.name)
            } else if challenge.isClosed(at: req.now) {
                blocked = t("This challenge closed {date}.", format.shortWhen(challenge.deadline!))
            }
        }
        let place = challengePlace.map { PlaceView(name: nil, coordinate: $0, exact: true, hiddenNote: "") }
        let map = markers.isEmpty ? nil : SVGMap(markers: markers, tiles: req.application.mapTiles).svg

        let leadsHere =
            [
                BackLink(.challenges, t("Challenges")), BackLink(.publicChallenges, t("Public challenges")),
                BackLink(.scoreboard, t("Challenge scoreboard")),
                BackLink(.home, t("Home")),
            ] + (shownSender.profileURL == nil ? [] : [BackLink(.person(username: sender.username), sender.displayName)])
        return ChallengePage(
            layout: req.layout(title: t("Challenge from {name}", shownSender.name), section: .challenges),
            back: BackLink.back(on: req, to: leadsHere[0], from: leadsHere),
            id: challengeID.uuidString.lowercased(), caption: challenge.caption, photo: PhotoView(photo),
            senderName: shownSender.name, senderURL: shownSender.profileURL,
            sentAt: format.shortWhen(challenge.createdAt ?? req.now),
            deadline: challenge.deadline.map(format.shortWhen), closed: challenge.isClosed(at: req.now),
            isPublic: challenge.isPublic, isSender: access.isSender,
            progress: Self.progress(recipients: challenge.recipientCount, completed: challenge.completedCount, isPublic: challenge.isPublic),
            recipients: recipients, place: place?.text, placeSource: challengePlace == nil ? nil : challenge.locationSource.map(Self.sourceLabel),
            mapURL: place?.mapURL, mapSVG: map, replies: replies,
            canReply: access.canTakePart && blocked == nil, replyBlockedReason: blocked,
            form: replyForm, errors: replyErrors,
            maxMB: req.application.config.maxUploadBytes / (1024 * 1024)
        )
    }

    static func label(_ status: ChallengeResponse.Status) -> String {
        switch status {
        case .pending: t("Waiting for judgement")
        case .accepted: t("Accepted")
        case .rejected: t("Not accepted")
        }
    }

    static func sourceLabel(_ source: String) -> String {
        switch source {
        case "photo": t("from the photo GPS")
        case "device": t("from the phone's location")
        default: t("typed in")
        }
    }

    /// "2 of 3 completed"; a public challenge may be completed by more people than it was sent to.
    static func progress(recipients: Int, completed: Int, isPublic: Bool) -> String {
        if recipients == 0 || isPublic && completed > recipients { return tn("{count} completed", "{count} completed", completed) }
        return tn("{count} of {total} completed", "{count} of {total} completed", min(completed, recipients), recipients)
    }
}
