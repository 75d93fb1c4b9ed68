import Foundation

/// The notes FieldhouseKit stores with a workout (what an import left out, what a summary had to
/// assume) are in English, as stored; pages show them in the reader's language. English stays
/// exactly as stored; other languages get the catalogue's words for the notes known here, and the
/// stored English for any other.
enum WorkoutNotes {
    /// One stored note (import or summary, English) as the page shows it.
    static func display(_ note: String) -> String {
        switch note {
        case "One point with a time before 2000 or in the future (a device clock that reset) was left out.":
            return tn(
                "One point with a time before 2000 or in the future (a device clock that reset) was left out.",
                "{count} points with a time before 2000 or in the future (a device clock that reset) were left out.", 1)
        case "One reading outside what a body or a device can produce (an elevation above 9,000 m, a heart rate of 0, a speed over 150 km/h …) was left out.":
            return tn(
                "One reading outside what a body or a device can produce (an elevation above 9,000 m, a heart rate of 0, a speed over 150 km/h …) was left out.",
                "{count} readings outside what a body or a device can produce (an elevation above 9,000 m, a heart rate of 0, a speed over 150 km/h …) were left out.",
                1)
        case "Heart-rate zones assume a maximum of 190 bpm: add your birth date (or a measured maximum) to your profile.":
            return t("Heart-rate zones assume a maximum of 190 bpm: add your birth date (or a measured maximum) to your profile.")
        case "Training load (TRIMP) assumes a resting heart rate of 60 bpm.":
            return t("Training load (TRIMP) assumes a resting heart rate of 60 bpm.")
        case "One position or speed reading too fast for the sport (a GPS jump) was left out.":
            return speedSpikes(1)
        case "One point whose time goes back (out of time order) was left out.":
            return outOfOrder(1)
        default:
            break
        }
        if let count = leadingCount(note, before: " positions or speed readings too fast for the sport (GPS jumps) were left out.") {
            return speedSpikes(count)
        }
        if let count = leadingCount(note, before: " points whose times go back (out of time order) were left out.") {
            return outOfOrder(count)
        }
        if let count = leadingCount(note, before: " points with a time before 2000 or in the future (a device clock that reset) were left out.") {
            return tn(
                "One point with a time before 2000 or in the future (a device clock that reset) was left out.",
                "{count} points with a time before 2000 or in the future (a device clock that reset) were left out.", count)
        }
        if let count = leadingCount(
            note,
            before:
                " readings outside what a body or a device can produce (an elevation above 9,000 m, a heart rate of 0, a speed over 150 km/h …) were left out.")
        {
            return tn(
                "One reading outside what a body or a device can produce (an elevation above 9,000 m, a heart rate of 0, a speed over 150 km/h …) was left out.",
                "{count} readings outside what a body or a device can produce (an elevation above 9,000 m, a heart rate of 0, a speed over 150 km/h …) were left out.",
                count)
        }
        let untimed = " track points had no time and were left out."
        if note.hasSuffix(untimed) {
            let numbers = note.dropLast(untimed.count).components(separatedBy: " of the ")
            if numbers.count == 2, let missing = Int(numbers[0]), let total = Int(numbers[1]) {
                return t("{missing} of the {total} track points had no time and were left out.", missing, total)
            }
        }
        return calories(note) ?? note
    }

    /// Positions a GPS jump put out of reach (`SpeedSpikes`), left out of the summary.
    private static func speedSpikes(_ count: Int) -> String {
        tn(
            "One position or speed reading too fast for the sport (a GPS jump) was left out.",
            "{count} positions or speed readings too fast for the sport (GPS jumps) were left out.", count)
    }

    /// Points of a file whose time went back (`ActivityRecording.normalise`).
    private static func outOfOrder(_ count: Int) -> String {
        tn(
            "One point whose time goes back (out of time order) was left out.",
            "{count} points whose times go back (out of time order) were left out.", count)
    }

    /// "12 points with …": the count in front of a known text.
    private static func leadingCount(_ note: String, before rest: String) -> Int? {
        guard note.hasSuffix(rest) else { return nil }
        return Int(note.dropLast(rest.count))
    }

    /// The note on calories estimated by MET (`WorkoutSummary`), in its four forms.
    private static func calories(_ note: String) -> String? {
        let base = "Calories are estimated from the sport's typical effort (MET × weight × time)"
        guard note.hasPrefix(base) else { return nil }
        var rest = String(note.dropFirst(base.count))
        switch rest {
        case ".": return t("Calories are estimated from the sport's typical effort (MET × weight × time).")
        case ", as there is no heart rate.":
            return t("Calories are estimated from the sport's typical effort (MET × weight × time), as there is no heart rate.")
        default: break
        }
        let assumed = rest.hasPrefix(" for a 70 kg person")
        if assumed { rest = String(rest.dropFirst(" for a 70 kg person".count)) }
        let head = ": add your ", tail = " to your profile for a better figure."
        guard rest.hasPrefix(head), rest.hasSuffix(tail), rest.count > head.count + tail.count else { return nil }
        let missing = rest.dropFirst(head.count).dropLast(tail.count).components(separatedBy: ", ")
        var words: [String] = []
        for item in missing {
            switch item {
            case "birth date": words.append(t("birth date"))
            case "sex": words.append(t("sex"))
            case "weight": words.append(t("weight"))
            default: return nil
            }
        }
        let list = words.joined(separator: ", ")
        return assumed
            ? t(
                "Calories are estimated from the sport's typical effort (MET × weight × time) for a 70 kg person: add your {missing} to your profile for a better figure.",
                list)
            : t("Calories are estimated from the sport's typical effort (MET × weight × time): add your {missing} to your profile for a better figure.", list)
    }
}
