import FieldhouseKit
import Foundation

/// The values typed into the new-challenge and reply forms, as they are shown back when something
/// needs fixing, and their checks.
struct ChallengeForm: Encodable {
    var caption = ""
    var deadline = ""
    var isPublic = false
    var recipients: [String] = []
    var note = ""
    /// "photo" (EXIF), "here" (the fields below) or "none".
    var location = "photo"
    var latitude = ""
    var longitude = ""
    /// Set to "device" by app.js when the browser's geolocation filled the fields.
    var locationSource = ""
    /// One-time key of this form, so a retried submission is recognised.
    var key = ""
    /// The key of the photo kept from the last try (`HeldPhoto`), and its preview's address.
    var heldPhoto = ""
    var heldPhotoURL = ""

    static let captionLimit = 280
    static let noteLimit = 280
    static let maxRecipients = 50

    /// A blank form for `user`: someone under 16 starts with "don't show a place", everyone else with the photo's.
    init(for user: User?, today: CalendarDate) {
        key = RandomToken.make()
        if user?.isUnder16(on: today) ?? false { location = "none" }
    }

    init(_ form: StreamedForm) {
        caption = (form["caption"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        deadline = (form["deadline"] ?? "").trimmingCharacters(in: .whitespaces)
        isPublic = form["public"] == "on" || form["public"] == "true"
        recipients = form.all("to")
        note = (form["note"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        location = form["location"] ?? "photo"
        latitude = (form["lat"] ?? "").trimmingCharacters(in: .whitespaces)
        longitude = (form["lon"] ?? "").trimmingCharacters(in: .whitespaces)
        locationSource = form["location_source"] ?? ""
        key = form["key"] ?? ""
    }

    /// The form shown again after mistakes, with the photo kept for the next try when there is one.
    func shownAgain(keeping receiver: PhotoReceiver, owner: UUID, now: Date) -> ChallengeForm {
        var shown = self
        if shown.key.isEmpty { shown.key = RandomToken.make() }
        shown.heldPhoto = receiver.hold(owner: owner, now: now) ?? ""
        shown.heldPhotoURL = shown.heldPhoto.isEmpty ? "" : SiteURL.heldPhoto(shown.heldPhoto).path
        return shown
    }

    /// A place and where it came from.
    struct Place {
        let coordinate: Coordinate
        let source: String
    }

    /// The place chosen in the form; `photoPlace` is what the photo's EXIF said.
    func place(photoPlace: Coordinate?, errors: inout FieldErrors) -> Place? {
        switch location {
        case "none":
            return nil
        case "here":
            guard case .value(let lat) = NumberInput.read(latitude), case .value(let lon) = NumberInput.read(longitude) else {
                errors["location"] = t("Enter a latitude and longitude (for example 55.6761 and 12.5683), or choose another option.")
                return nil
            }
            let point = Coordinate(latitude: lat, longitude: lon)
            guard point.isValid else {
                errors["location"] = t("Latitude must be between -90 and 90 and longitude between -180 and 180.")
                return nil
            }
            return Place(coordinate: point, source: locationSource == "device" ? "device" : "typed")
        case "photo":
            return photoPlace.map { Place(coordinate: $0, source: "photo") }
        default:
            errors["location"] = t("Choose where the photo was taken.")
            return nil
        }
    }

    /// The challenge fields: caption, deadline (typed in the viewer's zone) and who it goes to.
    func validateChallenge(zone: String, now: Date, errors: inout FieldErrors) -> Date? {
        if caption.isEmpty {
            errors["caption"] = t("Write a caption that tells your friends what to do.")
        } else if caption.count > Self.captionLimit {
            errors["caption"] = t("Keep the caption to {limit} characters (it has {length}).", Self.captionLimit, caption.count)
        }
        if recipients.isEmpty && !isPublic {
            errors["to"] = t("Choose at least one friend, or make the challenge public.")
        } else if recipients.count > Self.maxRecipients {
            errors["to"] = t("Send a challenge to at most {max} friends at once.", Self.maxRecipients)
        }
        guard !deadline.isEmpty else { return nil }
        let parts = deadline.split(separator: "T", maxSplits: 1).map(String.init)
        guard parts.count == 2, let instant = LocalTime.instant(day: parts[0], time: String(parts[1].prefix(5)), zone: zone) else {
            errors["deadline"] = t("Enter the deadline as a date and time.")
            return nil
        }
        if instant < now.addingTimeInterval(15 * 60) {
            errors["deadline"] = t("The deadline must be at least 15 minutes from now.")
        } else if instant > now.addingTimeInterval(366 * 86400) {
            errors["deadline"] = t("The deadline must be within a year.")
        }
        return instant
    }

    func validateNote(errors: inout FieldErrors) {
        if note.count > Self.noteLimit {
            errors["note"] = t("Keep the note to {limit} characters (it has {length}).", Self.noteLimit, note.count)
        }
    }
}
