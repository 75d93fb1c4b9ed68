import FieldhouseKit
import Fluent
import Vapor

/// `fieldhouse user create|promote|reset-password`, for administrators at the server's console.
struct UserCommands: AsyncCommandGroup {
    var help: String { "Manage accounts: create, promote, reset-password." }

    var commands: [String: any AnyAsyncCommand] {
        ["create": Create(), "promote": Promote(), "reset-password": ResetPassword()]
    }

    struct Create: AsyncCommand {
        struct Signature: CommandSignature {
            @Argument(name: "username") var username: String
            @Argument(name: "email") var email: String
            @Option(name: "name", help: "Display name (defaults to the username)") var name: String?
            @Option(name: "birth-date", help: "YYYY-MM-DD") var birthDate: String?
            @Option(name: "role", help: "member, editor or admin (default member)") var role: String?
            @Option(name: "password", help: "Password; asked for when omitted") var password: String?
        }

        var help: String { "Creates an account." }

        func run(using context: CommandContext, signature: Signature) async throws {
            let app = context.application
            let username = AccountRules.username(signature.username)
            let email = AccountRules.email(signature.email)
            if let error = username.error ?? email.error { throw CommandError(error) }
            guard let role = User.Role(rawValue: signature.role ?? "member") else {
                throw CommandError("The role must be member, editor or admin")
            }
            var birth: CalendarDate?
            if let raw = signature.birthDate {
                let parsed = AccountRules.birthDate(raw, today: app.clock.today)
                if let error = parsed.error { throw CommandError(error) }
                birth = parsed.value
            }
            let password = try signature.password ?? askPassword(context)
            if let error = AccountRules.password(password) { throw CommandError(error) }
            if try await User.query(on: app.db).group(.or, { $0.filter(\.$username == username.value).filter(\.$email == email.value) }).first() != nil {
                throw CommandError("An account with that username or email already exists")
            }
            let user = User(
                username: username.value, email: email.value, passwordHash: try app.password.hash(password),
                displayName: signature.name ?? username.value, birthDate: birth?.description, role: role
            )
            user.visibility = AccountRules.defaultVisibility(birthDate: birth, today: app.clock.today)
            try await user.create(on: app.db)
            context.console.print("Created \(user.username) (\(role.rawValue)).")
        }
    }

    struct Promote: AsyncCommand {
        struct Signature: CommandSignature {
            @Argument(name: "username") var username: String
            @Option(name: "role", help: "editor or admin (default admin); member demotes") var role: String?
        }

        var help: String { "Gives an account the admin (or editor) role." }

        func run(using context: CommandContext, signature: Signature) async throws {
            let user = try await findUser(signature.username, context)
            guard let role = User.Role(rawValue: signature.role ?? "admin") else {
                throw CommandError("The role must be member, editor or admin")
            }
            user.role = role
            try await user.update(on: context.application.db)
            context.console.print("\(user.username) is now \(role.rawValue).")
        }
    }

    struct ResetPassword: AsyncCommand {
        struct Signature: CommandSignature {
            @Argument(name: "username") var username: String
            @Option(name: "password", help: "New password; asked for when omitted") var password: String?
        }

        var help: String { "Sets a new password and signs the account out everywhere." }

        func run(using context: CommandContext, signature: Signature) async throws {
            let app = context.application
            let user = try await findUser(signature.username, context)
            let password = try signature.password ?? askPassword(context)
            if let error = AccountRules.password(password) { throw CommandError(error) }
            user.passwordHash = try app.password.hash(password)
            try await app.db.inTransaction { db in
                try await user.update(on: db)
                try await UserSession.query(on: db).filter(\.$user.$id == user.requireID()).delete()
                try await PasswordReset.query(on: db).filter(\.$user.$id == user.requireID()).delete()
            }
            // Servers on PostgreSQL hear it at once; on SQLite a server's kept sessions last out
            // `PersonCache.lifetime`.
            try await app.personChanges.changed(user.requireID(), bus: app.liveBus, on: app.db)
            context.console.print("Password for \(user.username) reset; all their sessions are signed out.")
        }
    }

    struct CommandError: Error, CustomStringConvertible {
        let description: String
        init(_ message: String) { description = message }
    }

    static func askPassword(_ context: CommandContext) throws -> String {
        let first = context.console.ask("Password (at least 10 characters):", isSecure: true)
        let second = context.console.ask("Repeat the password:", isSecure: true)
        guard first == second else { throw CommandError("The two passwords do not match") }
        return first
    }
}

private func askPassword(_ context: CommandContext) throws -> String { try UserCommands.askPassword(context) }

private func findUser(_ name: String, _ context: CommandContext) async throws -> User {
    guard let user = try await User.query(on: context.application.db).filter(\.$username == name.lowercased()).first() else {
        throw UserCommands.CommandError("No account is called \(name)")
    }
    return user
}
