import FieldhouseKit
import Leaf
import Vapor

/// `#t("Joined {date}", profile.joined)`: a template's text in the page's language, from the
/// catalogue (`Resources/Locales`). The first parameter is the English text, the rest fill its
/// `{placeholders}` in the order they first appear. The result is escaped (`Self.escape`).
struct TranslateTag: UnsafeUnescapedLeafTag {
    func render(_ ctx: LeafContext) throws -> LeafData {
        guard let english = ctx.parameters.first?.string else { throw URLTag.Failure(description: "#t needs an English text") }
        let values = ctx.parameters.dropFirst().map { $0.string ?? "" }
        return .string(Self.escape(Language.$current.withValue(ctx.language) { Catalogue.translate(english, values) }))
    }

    /// Escapes `&`, `<`, `>` and `"`, which is all that text and double-quoted attributes need
    /// (templates never quote attributes with `'`: `LanguageTests` checks). An apostrophe stays
    /// one, so "That's everything" reads in the page source as it did before it was translated.
    static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// `#tn("{count} member", "{count} members", team.memberCount)`: the form for the count.
struct TranslatePluralTag: UnsafeUnescapedLeafTag {
    func render(_ ctx: LeafContext) throws -> LeafData {
        guard ctx.parameters.count >= 3, let one = ctx.parameters[0].string, let other = ctx.parameters[1].string,
            let count = ctx.parameters[2].int
        else { throw URLTag.Failure(description: "#tn needs the singular, the plural and a whole number") }
        let values = ctx.parameters.dropFirst(3).map { $0.string ?? "" }
        return .string(TranslateTag.escape(Language.$current.withValue(ctx.language) { Catalogue.translatePlural(one, other, count, values) }))
    }
}

extension LeafContext {
    /// A page's language comes from its request; a template rendered for no request (an e-mail)
    /// carries `language` in its context.
    var language: Language {
        if let request { return request.language }
        return data["language"]?.string.flatMap(Language.init(rawValue:)) ?? .en
    }
}
