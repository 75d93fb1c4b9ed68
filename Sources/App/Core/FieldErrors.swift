/// What is wrong with a submitted form, one message per field, keyed by the field's `name`.
///
/// Every form page carries one as `errors`, and every template reads it the same way: the field
/// gets `has-error`, its input `aria-invalid="true"` and `aria-describedby="<name>-error"`, and
/// the message sits in `<p class="error" id="<name>-error">`. A message for the whole form (not
/// one field) is a page's `error` alert instead.
struct FieldErrors: Encodable, Sendable, ExpressibleByDictionaryLiteral {
    private(set) var messages: [String: String]

    init(dictionaryLiteral elements: (String, String)...) {
        messages = Dictionary(elements, uniquingKeysWith: { first, _ in first })
    }

    init(_ messages: [String: String]) { self.messages = messages }

    subscript(field: String) -> String? {
        get { messages[field] }
        set { messages[field] = newValue }
    }

    var isEmpty: Bool { messages.isEmpty }

    /// Templates read `errors.name`, as from a dictionary.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(messages)
    }
}
