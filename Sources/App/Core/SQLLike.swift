import SQLKit

/// `LIKE` over what a person typed: `%` and `_` in it match themselves, not anything, and the
/// comparison ignores case on SQLite and PostgreSQL alike.
enum SQLLike {
    static func escape(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }

    /// `LOWER(column) LIKE pattern ESCAPE '\'`, with `pattern` made by `escape` and wildcards.
    static func matching(_ column: String, _ pattern: String) -> any SQLExpression {
        SQLList(
            [SQLBinaryExpression(SQLFunction("LOWER", args: SQLColumn(column)), .like, SQLBind(pattern)), SQLRaw("ESCAPE '\\'")], separator: SQLRaw(" "))
    }

    static func startsWith(_ column: String, _ text: String) -> any SQLExpression { matching(column, escape(text) + "%") }
}
