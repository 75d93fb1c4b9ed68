import FieldhouseKit
import Fluent

extension Team {
    /// A slug for a new team called `name` that no team has yet. "new" would collide with
    /// `/teams/new`.
    static func unusedSlug(for name: String, on db: any Database) async throws -> String {
        try await Slug.unused(for: name, \Team.$slug, reserved: ["new"], on: db)
    }
}

extension League {
    /// A slug for a new league called `name` that no league has yet. "new" would collide with
    /// `/leagues/new`.
    static func unusedSlug(for name: String, on db: any Database) async throws -> String {
        try await Slug.unused(for: name, \League.$slug, reserved: ["new"], on: db)
    }
}

extension Slug {
    /// `name` as a slug, numbered when the plain one is taken by a row of `M` or reserved:
    /// "riverside-futsal", then "riverside-futsal-2", … One query, for the slug and its numbered forms.
    fileprivate static func unused<M: Model>(
        for name: String, _ field: KeyPath<M, FieldProperty<M, String>>, reserved: Set<String>, on db: any Database
    ) async throws -> String {
        let base = Slug.make(name)
        let taken = try await M.query(on: db).group(.or) { $0.filter(field == base).filter(field =~ (base + "-")) }.all()
            .map { $0[keyPath: field].value ?? "" }
        return Slug.unique(base, taken: Set(taken), reserved: reserved)
    }
}
