import FieldhouseKit
import Foundation

/// The rules for account fields, with the messages people see. Shared by the sign-up form, the
/// settings forms and the administrator commands so they can never disagree.
enum AccountRules {
    static func username(_ raw: String?) -> (value: String, error: String?) {
        let value = (raw ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        if value.isEmpty { return (value, t("Choose a username")) }
        let allowed = value.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        if !allowed || !(3...30).contains(value.count) {
            return (value, t("Use 3 to 30 characters: lower-case letters, digits and _"))
        }
        return (value, nil)
    }

    static func email(_ raw: String?) -> (value: String, error: String?) {
        let value = (raw ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        if value.isEmpty { return (value, t("Enter your email address")) }
        let valid = MailAddress.isValid(value)
        return (value, valid ? nil : t("Enter an email address like name@example.com"))
    }

    static func password(_ raw: String?) -> String? {
        let value = raw ?? ""
        if value.isEmpty { return t("Choose a password") }
        if value.count < 10 { return t("Use at least 10 characters for your password") }
        // bcrypt only looks at the first 72 bytes; refusing more is honest about that.
        if value.utf8.count > 72 { return t("Use at most 72 characters for your password") }
        return nil
    }

    static func displayName(_ raw: String?) -> (value: String, error: String?) {
        let value = collapseWhitespace(raw ?? "")
        if value.isEmpty { return (value, t("Enter your name")) }
        if value.count > 60 { return (value, t("Keep your name to 60 characters or fewer")) }
        return (value, nil)
    }

    static func birthDate(_ raw: String?, today: CalendarDate) -> (value: CalendarDate?, error: String?) {
        let text = (raw ?? "").trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return (nil, t("Enter your date of birth")) }
        guard let date = CalendarDate(iso: text) else { return (nil, t("Enter a real date, for example 2008-04-23")) }
        if date > today { return (nil, t("Your date of birth cannot be in the future")) }
        if date.year < 1900 { return (nil, t("Enter a date of birth after 1900")) }
        return (date, nil)
    }

    /// People under 16 start with a followers-only profile; everyone can change it later.
    static func defaultVisibility(birthDate: CalendarDate?, today: CalendarDate) -> User.Visibility {
        guard let birthDate else { return .followers }
        return birthDate.age(on: today) < 16 ? .followers : .public
    }

    static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
    }
}

extension User {
    /// Under 16, or of unknown age: the people whose data and whereabouts get the strictest defaults.
    func isUnder16(on today: CalendarDate) -> Bool {
        birthDate.flatMap(CalendarDate.init(iso:)).map { $0.age(on: today) < 16 } ?? true
    }

    /// Whether the person may take part in something for `group` today (a team, a game): someone of
    /// unknown age only in what is for any age.
    func fits(_ group: AgeGroup, today: CalendarDate) -> Bool {
        guard group != .any else { return true }
        guard let born = birthDate.flatMap(CalendarDate.init(iso:)) else { return false }
        return group.admits(age: born.age(on: today))
    }

    /// The age group a manager or organiser is shown beside a request ("15–17"), or nil when unknown.
    func ageGroup(on today: CalendarDate) -> AgeGroup? {
        birthDate.flatMap(CalendarDate.init(iso:)).map { AgeGroup.of(age: $0.age(on: today)) }
    }

    /// The latest birth date (as stored, "YYYY-MM-DD") of someone 16 or older today, for queries:
    /// `birth_date <= cutoff` is `!isUnder16()`, NULL included as under 16.
    static func sixteenCutoff(on today: CalendarDate) -> String {
        Format.isoDay(year: today.year - 16, month: today.month, day: today.day)
    }
}
