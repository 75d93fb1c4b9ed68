extension Int {
    /// "2,345": digits grouped in thousands, as English writes them.
    var grouped: String {
        let digits = String(self.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
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
