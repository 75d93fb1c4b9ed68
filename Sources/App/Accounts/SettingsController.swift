import FieldhouseKit
import Fluent
import Vapor

/// `/settings/…`: profile, avatar, password and privacy. Everything here needs a signed-in person.
struct SettingsController: RouteCollection {
    let maxUploadBytes: Int

    func boot(routes: any RoutesBuilder) throws {
        routes.get(AccountPath.settings) { req in req.redirect(to: .profileSettings) }
        routes.get(AccountPath.profileSettings, use: profilePage)
        routes.post(AccountPath.profileSettings, use: saveProfile)
        routes.get(AccountPath.avatarSettings, use: avatarPage)
        routes.on(.POST, AccountPath.avatarSettings, body: .collect(maxSize: .init(value: maxUploadBytes)), use: saveAvatar)
        routes.post(AccountPath.removeAvatar, use: removeAvatar)
        routes.get(AccountPath.passwordSettings, use: passwordPage)
        routes.post(AccountPath.passwordSettings, use: savePassword)
        routes.get(AccountPath.privacySettings, use: privacyPage)
        routes.post(AccountPath.privacySettings, use: savePrivacy)
    }

    // MARK: Profile

    struct SportRow: Encodable {
        let key: String
        let label: String
        let selected: String
    }

    struct ProfileSettingsPage: Encodable {
        let layout: Layout
        let form: ProfileForm
        let errors: FieldErrors
        let genders: [SelectOption]
        let units: [SelectOption]
        let clocks: [SelectOption]
        let languages: [SelectOption]
        let skills: [SelectOption]
        let sports: [SportRow]
        let timeZones: [String]
        let today: String
        let age: String?
    }

    func profilePage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        try await user.$sports.load(on: req.db)
        return try await renderProfile(req, form: ProfileForm(user: user), errors: [:], status: .ok)
    }

    func saveProfile(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(ProfileForm.self)
        var (valid, errors) = form.validate(today: req.clock.today)
        // A home area typed by name is looked up like /find does, so "near me" works without
        // coordinates; one that names nothing is refused rather than kept as a label that finds nothing.
        // Looked up whatever else is wrong, so every mistake is marked at once.
        var found: PlaceMatch?
        let name = AccountRules.collapseWhitespace(form.home_name ?? "")
        let coordinatesGiven = !((form.home_lat ?? "") + (form.home_lon ?? "")).trimmingCharacters(in: .whitespaces).isEmpty
        if !name.isEmpty, name.count <= 80, !coordinatesGiven {
            if let place = try await PlaceFinder.resolve(name, home: nil, from: req.application.features, on: req.db) {
                // The name stays as the person wrote it ("Lisboa"); the page says what it was taken to mean.
                found = place
                valid?.homeLat = ProfileForm.coarse(place.latitude)
                valid?.homeLon = ProfileForm.coarse(place.longitude)
            } else {
                errors["home_name"] = t("No place called “{place}” was found. Type a town's name and pick a suggestion, or enter the coordinates.", name)
                valid = nil
            }
        }
        guard let valid else {
            return try await renderProfile(req, form: form, errors: errors, status: .unprocessableEntity)
        }
        let userID = try user.requireID()
        try await req.db.inTransaction { db in
            user.setDisplayName(valid.displayName)
            user.bio = valid.bio
            user.birthDate = valid.birthDate.description
            user.gender = valid.gender
            user.heightCm = valid.heightCm
            user.weightKg = valid.weightKg
            user.homeName = valid.homeName
            user.homeLat = valid.homeLat
            user.homeLon = valid.homeLon
            user.timeZone = valid.timeZone
            user.units = valid.units
            if let clock = valid.clock { user.clockCode = clock == .twentyFourHour ? nil : clock.rawValue }
            user.languageCode = valid.language?.rawValue
            user.continuousHeartRate = valid.continuousHeartRate
            try await user.update(on: db)
            try await UserSport.query(on: db).filter(\.$user.$id == userID).delete()
            for (sport, skill) in valid.sports {
                try await UserSport(userID: userID, sport: sport, skill: skill).create(on: db)
            }
        }
        // Forgotten again once committed: the model's own signal came before the commit.
        try await req.personChanged(userID)
        if let found {
            req.flash(.success, t("Your profile is saved. Home area: {place}, used to find games and teams near you.", found.label))
        } else {
            req.flash(.success, t("Your profile is saved."))
        }
        return req.redirect(to: .profileSettings)
    }

    private func renderProfile(_ req: Request, form: ProfileForm, errors: FieldErrors, status: HTTPStatus) async throws -> Response {
        let age = form.birth_date.flatMap(CalendarDate.init(iso:)).map { tn("{count} years old", "{count} years old", $0.age(on: req.clock.today)) }
        let page = ProfileSettingsPage(
            layout: req.layout(title: t("Your profile"), section: .settings),
            form: form, errors: errors,
            genders: User.Gender.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
            units: User.Units.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
            clocks: ClockStyle.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
            languages: [SelectOption(value: "", label: t("As my browser asks"))] + Language.allCases.map { SelectOption(value: $0.rawValue, label: $0.name) },
            skills: Skill.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) },
            sports: Sport.allCases.map { SportRow(key: $0.rawValue, label: $0.label, selected: form.sports?[$0.rawValue] ?? "") },
            timeZones: Format.timeZoneIdentifiers,
            today: req.clock.today.description,
            age: age
        )
        return try await req.view.render("accounts/settings_profile", page).encodeResponse(status: status, for: req)
    }

    // MARK: Avatar

    struct AvatarPage: Encodable {
        let layout: Layout
        let avatarURL: String?
        let error: String?
        let maxMB: Int
    }

    struct AvatarUpload: Content {
        var avatar: File?
    }

    func avatarPage(req: Request) async throws -> View {
        let user = try req.requireUser()
        return try await renderAvatar(req, user: user, error: nil)
    }

    private func renderAvatar(_ req: Request, user: User, error: String?) async throws -> View {
        let page = AvatarPage(
            layout: req.layout(title: t("Your picture"), section: .settings),
            avatarURL: user.avatarFile.map { SiteURL.avatar(username: user.username).with([("v", String($0.prefix(8)))]) },
            error: error, maxMB: req.application.config.maxUploadBytes / 1024 / 1024
        )
        return try await req.view.render("accounts/settings_avatar", page)
    }

    func saveAvatar(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let upload: AvatarUpload
        do {
            upload = try req.content.decode(AvatarUpload.self)
        } catch {
            throw Abort(.unprocessableEntity, reason: t("Choose a picture to upload."))
        }
        guard let file = upload.avatar, file.data.readableBytes > 0 else {
            return try await renderAvatar(req, user: user, error: t("Choose a picture to upload; the file was empty."))
                .encodeResponse(status: .unprocessableEntity, for: req)
        }
        let name: String
        do {
            name = try await AvatarStore.save(file.data, on: req)
        } catch let abort as Abort where abort.status == .unsupportedMediaType || abort.status == .unprocessableEntity {
            return try await renderAvatar(req, user: user, error: abort.reason).encodeResponse(status: abort.status, for: req)
        }
        let previous = user.avatarFile
        user.avatarFile = name
        try await user.update(on: req.db)
        AvatarStore.remove(previous, config: req.application.config)
        req.flash(.success, t("Your picture is updated."))
        return req.redirect(to: .avatarSettings)
    }

    func removeAvatar(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let previous = user.avatarFile
        user.avatarFile = nil
        try await user.update(on: req.db)
        AvatarStore.remove(previous, config: req.application.config)
        req.flash(.info, t("Your picture is removed."))
        return req.redirect(to: .avatarSettings)
    }

    // MARK: Password

    struct PasswordForm: Content {
        var current_password: String?
        var new_password: String?
        var confirm_password: String?
    }

    struct PasswordPage: Encodable {
        let layout: Layout
        let errors: FieldErrors
    }

    func passwordPage(req: Request) async throws -> View {
        _ = try req.requireUser()
        return try await req.view.render(
            "accounts/settings_password", PasswordPage(layout: req.layout(title: t("Change password"), section: .settings), errors: [:]))
    }

    func savePassword(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(PasswordForm.self)
        var errors: FieldErrors = [:]
        var status = HTTPStatus.unprocessableEntity
        if (form.current_password ?? "").isEmpty {
            errors["current_password"] = t("Enter your current password")
        } else {
            switch try await req.recheckPassword(of: user, form.current_password ?? "") {
            case .right: break
            case .wrong: errors["current_password"] = t("That is not your current password")
            case .locked(let message): errors["current_password"] = message; status = .tooManyRequests
            }
        }
        errors["new_password"] = AccountRules.password(form.new_password)
        if errors["new_password"] == nil, form.new_password != form.confirm_password {
            errors["confirm_password"] = t("The two new passwords do not match")
        }
        guard errors.isEmpty, let password = form.new_password else {
            let page = PasswordPage(layout: req.layout(title: t("Change password"), section: .settings), errors: errors)
            return try await req.view.render("accounts/settings_password", page).encodeResponse(status: status, for: req)
        }
        user.passwordHash = try await req.password.async.hash(password)
        try await user.update(on: req.db)
        // Anyone signed in elsewhere with the old password is signed out.
        if let current = req.storage[CurrentSessionKey.self]?.id {
            try await UserSession.query(on: req.db).filter(\.$user.$id == user.requireID()).filter(\.$id != current).delete()
        }
        try await req.personChanged(user.requireID())
        // A "forgot password" link asked for before the change must not undo it.
        try await PasswordReset.query(on: req.db).filter(\.$user.$id == user.requireID()).delete()
        req.flash(.success, t("Your password is changed. Other devices have been signed out."))
        return req.redirect(to: .passwordSettings)
    }

    // MARK: Privacy

    struct PrivacyPage: Encodable {
        let layout: Layout
        let current: String
        let options: [SelectOption]
    }

    struct PrivacyForm: Content {
        var visibility: String?
    }

    func privacyPage(req: Request) async throws -> View {
        let user = try req.requireUser()
        let page = PrivacyPage(
            layout: req.layout(title: t("Privacy"), section: .settings),
            current: user.visibility.rawValue,
            options: User.Visibility.allCases.map { SelectOption(value: $0.rawValue, label: $0.label) }
        )
        return try await req.view.render("accounts/settings_privacy", page)
    }

    func savePrivacy(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let form = try req.content.decode(PrivacyForm.self)
        guard let visibility = User.Visibility(rawValue: form.visibility ?? "") else {
            throw Abort(.unprocessableEntity, reason: t("Choose who can see your profile."))
        }
        try await req.db.inTransaction { db in
            user.visibility = visibility
            try await user.update(on: db)
            if PersonAccess.followStatus(for: user, today: req.clock.today) == .accepted {
                // A public profile needs no approval (unless its owner is under 16), so waiting requests are let in.
                try await Follow.query(on: db).filter(\.$followee.$id == user.requireID())
                    .filter(\.$status == .pending).set(\.$status, to: .accepted).update()
            }
        }
        // Forgotten again once committed: the model's own signal came before the commit.
        try await req.personChanged(user.requireID())
        req.flash(.success, t("Your privacy setting is saved."))
        return req.redirect(to: .privacySettings)
    }
}
