/// One choice of a `<select>` or a group of radio buttons: the value the form sends, the words
/// people read, and whether it is the one chosen. Every page's choices are of this one type, so a
/// template reads `value`, `label` and `selected` the same everywhere; a template that marks the
/// chosen one by comparing `value` with its form leaves `selected` false.
struct SelectOption: Encodable, Sendable {
    let value: String
    let label: String
    let selected: Bool

    init(value: String, label: String, selected: Bool = false) {
        self.value = value
        self.label = label
        self.selected = selected
    }
}
