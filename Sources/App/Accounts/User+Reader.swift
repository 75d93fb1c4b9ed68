import FieldhouseKit

extension User {
    /// The clock chosen in the settings, else the 24-hour one.
    var clock: ClockStyle { clockCode.flatMap(ClockStyle.init(rawValue:)) ?? .twentyFourHour }

    /// Whom a notification, e-mail or export for this person is written for: their language (else
    /// English: a job has no browser to ask) and their clock.
    var reader: Reader { Reader(language: language ?? .en, clock: clock) }
}

extension ClockStyle {
    /// The choice as the settings offer it, with a time written that way.
    var label: String {
        switch self {
        case .twentyFourHour: t("24-hour (19:30)")
        case .twelveHour: t("12-hour (7:30 pm)")
        }
    }
}
