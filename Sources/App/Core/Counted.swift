import FieldhouseKit
extension Int {
    /// "2,345": digits grouped in thousands, as the current language writes them: a comma in
    /// English; in Portuguese a (no-break) space, and only from five digits on ("2345", "12 345").
    var grouped: String {
        let digits = String(self.magnitude)
        let english = Language.current == .en
        guard english || digits.count > 4 else { return (self < 0 ? "-" : "") + digits }
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += english ? "," : "\u{00A0}" }
            grouped.append(digit)
        }
        return (self < 0 ? "-" : "") + grouped
    }

    /// "1 workout", "2,345 workouts": a count with its noun in the right number (English nouns
    /// that add an "s", which are all the ones the pages count).
    func counted(_ noun: String) -> String {
        grouped + " " + noun + (self == 1 ? "" : "s")
    }
}
