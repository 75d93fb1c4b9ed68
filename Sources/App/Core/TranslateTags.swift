import FieldhouseKit
import Leaf
import Vapor

/// `#t("Joined {date}", profile.joined)`: a template's text in the page's language, from the
/// catalogue (`Resources/Locales`), escaped like `#(...)`. The first parameter is the English
/// text, the rest fill its `{placeholders}` in the order they first appear.
struct TranslateTag: LeafTag {
    func render(_ ctx: LeafContext) throws -> LeafData {
        guard let english = ctx.parameters.first?.string else { throw URLTag.Failure(description: "#t needs an English text") }
        let values = ctx.parameters.dropFirst().map { $0.string ?? "" }
        return .string(Language.$current.withValue(ctx.language) { Catalogue.translate(english, values) })
    }
}

/// `#tn("{count} member", "{count} members", team.memberCount)`: the form for the count.
struct TranslatePluralTag: LeafTag {
    func render(_ ctx: LeafContext) throws -> LeafData {
        guard ctx.parameters.count >= 3, let one = ctx.parameters[0].string, let other = ctx.parameters[1].string,
            let count = ctx.parameters[2].int
        else { throw URLTag.Failure(description: "#tn needs the singular, the plural and a whole number") }
        let values = ctx.parameters.dropFirst(3).map { $0.string ?? "" }
        return .string(Language.$current.withValue(ctx.language) { Catalogue.translatePlural(one, other, count, values) })
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
