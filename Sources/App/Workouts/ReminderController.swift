import FieldhouseKit
import Fluent
import Vapor

/// `/reminders`: weekly reminders (title, time, days, alert, on/off) that the personal calendar
/// feed carries as repeating events with an alarm, so the phone's calendar does the reminding.
struct ReminderController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(WorkoutPath.reminders, use: page)
        routes.post(WorkoutPath.reminders, use: save)
        routes.get(WorkoutPath.editReminder, use: editPage)
        routes.post(WorkoutPath.editReminder, use: save)
        routes.post(WorkoutPath.toggleReminder, use: toggle)
        routes.get(WorkoutPath.deleteReminder, use: confirmDelete)
        routes.post(WorkoutPath.deleteReminder, use: delete)
    }

    /// Computed: the names are in the language of the request.
    static var dayNames: [String] { (0..<7).map(Format.weekdayName) }
    static var shortDayNames: [String] { (0..<7).map(Format.shortWeekdayName) }
    /// Monday first, as weeks are shown.
    static let dayOrder = [1, 2, 3, 4, 5, 6, 0]

    struct Row: Encodable {
        let id: String
        let title: String
        let when: String
        let alert: String
        let enabled: Bool
    }

    struct Day: Encodable {
        let value: Int
        let name: String
        let checked: Bool
    }

    struct Form: Content {
        var title: String?
        var time: String?
        var days: [String]?
        var alert: String?
    }

    struct Page: Encodable {
        let layout: Layout
        let reminders: [Row]
        let editing: String?
        let form: Form
        let days: [Day]
        let alerts: [SelectOption]
        let errors: FieldErrors
        let feed: String
    }

    static func describe(_ reminder: Reminder) -> String {
        let days = reminder.days
        let short = shortDayNames
        let names = days.count == 7 ? t("every day") : dayOrder.filter(days.contains).map { short[$0] }.joined(separator: ", ")
        // Stored as the form took it ("07:00"); written as the reader reads times.
        let parts = reminder.time.split(separator: ":").compactMap { Int($0) }
        let time =
            parts.count == 2 && (0..<24).contains(parts[0]) && (0..<60).contains(parts[1]) ? WallClock.clock(hour: parts[0], minute: parts[1]) : reminder.time
        return "\(time), \(names)"
    }

    private func render(_ req: Request, user: User, form: Form? = nil, editing: Reminder? = nil, errors: FieldErrors = [:]) async throws -> Response {
        let reminders = try await Reminder.query(on: req.db).filter(\.$user.$id == user.requireID()).sort(\.$time).all()
        let form =
            form
            ?? Form(
                title: editing?.title ?? "", time: editing?.time ?? "07:00",
                days: editing.map { $0.days.map(String.init) } ?? ["1", "3", "5"], alert: String(editing?.alertMinutes ?? 10))
        let chosen = Set(form.days ?? [])
        let alert = Int(form.alert ?? "") ?? 10
        let page = Page(
            layout: req.layout(title: t("Reminders"), section: .workouts),
            reminders: try reminders.map {
                Row(
                    id: try $0.requireID().uuidString.lowercased(), title: $0.title, when: Self.describe($0),
                    alert: $0.alertMinutes == 0 ? t("no alert") : t("alert {minutes} min before", $0.alertMinutes), enabled: $0.enabled)
            },
            editing: try editing?.requireID().uuidString.lowercased(), form: form,
            days: Self.dayOrder.map { Day(value: $0, name: Self.dayNames[$0], checked: chosen.contains(String($0))) },
            alerts: Reminder.alertChoices.map {
                SelectOption(
                    value: String($0), label: $0 == 0 ? t("No alert") : tn("{count} minute before", "{count} minutes before", $0), selected: $0 == alert)
            },
            errors: errors, feed: try await CalendarFeed.url(for: user, req: req))
        return try await req.view.render("workouts/reminders", page).encodeResponse(status: errors.isEmpty ? .ok : .unprocessableEntity, for: req)
    }

    func page(req: Request) async throws -> Response {
        try await render(req, user: try req.requireUser())
    }

    private func own(_ req: Request, _ user: User) async throws -> Reminder {
        guard let id = req.parameters.get("id", as: UUID.self),
            let reminder = try await Reminder.query(on: req.db).filter(\.$id == id).filter(\.$user.$id == user.requireID()).first()
        else {
            throw Abort(.notFound)
        }
        return reminder
    }

    func editPage(req: Request) async throws -> Response {
        let user = try req.requireUser()
        return try await render(req, user: user, editing: try await own(req, user))
    }

    /// Adds a reminder, or changes the one in the address.
    func save(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let existing = req.parameters.get("id") == nil ? nil : try await own(req, user)
        let form = try req.content.decode(Form.self)
        var errors: FieldErrors = [:]
        let title = AccountRules.collapseWhitespace(form.title ?? "")
        if title.isEmpty { errors["title"] = t("Say what to be reminded of") } else if title.count > 80 { errors["title"] = t("Keep it to 80 characters") }
        let time = (form.time ?? "").trimmingCharacters(in: .whitespaces)
        if LocalTime.instant(day: "2026-01-05", time: time, zone: "UTC") == nil { errors["time"] = t("Enter a time such as 07:30") }
        let days = Set((form.days ?? []).compactMap(Int.init).filter { (0...6).contains($0) })
        if days.isEmpty { errors["days"] = t("Choose at least one day") }
        let alert = Int(form.alert ?? "")
        if alert.map({ !Reminder.alertChoices.contains($0) }) ?? true { errors["alert"] = t("Choose an alert from the list") }
        if existing == nil, try await Reminder.query(on: req.db).filter(\.$user.$id == user.requireID()).count() >= Reminder.maxPerPerson {
            errors["title"] = tn(
                "You have {count} reminder already; delete one first", "You have {count} reminders already; delete one first", Reminder.maxPerPerson)
        }
        guard errors.isEmpty, let alert else { return try await render(req, user: user, form: form, editing: existing, errors: errors) }
        let reminder = existing ?? Reminder()
        let before = existing.map { ($0.time, $0.weekdays) }
        if existing == nil {
            reminder.$user.id = try user.requireID()
            reminder.enabled = true
        }
        reminder.title = title
        reminder.time = time
        reminder.weekdays = days.sorted().map(String.init).joined(separator: ",")
        reminder.alertMinutes = alert
        // A new time or new days start from now (a reminder added at 07:10 for 07:00 waits for the
        // next one); changing only the words leaves a reminder due this minute alone.
        if before.map({ $0 != (time, reminder.weekdays) }) ?? true { reminder.lastSentAt = req.now }
        try await reminder.save(on: req.db)
        req.flash(.success, existing == nil ? t("Reminder added. It reaches your phone through your calendar feed.") : t("Reminder saved."))
        return req.redirect(to: .reminders)
    }

    func toggle(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let reminder = try await own(req, user)
        reminder.enabled.toggle()
        reminder.lastSentAt = req.now
        try await reminder.save(on: req.db)
        req.flash(.success, reminder.enabled ? t("“{title}” is on.", reminder.title) : t("“{title}” is off.", reminder.title))
        return req.redirect(to: .reminders)
    }

    struct ConfirmPage: Encodable {
        let layout: Layout
        let id: String
        let title: String
        let when: String
    }

    func confirmDelete(req: Request) async throws -> View {
        let user = try req.requireUser()
        let reminder = try await own(req, user)
        return try await req.view.render(
            "workouts/reminder_delete",
            ConfirmPage(
                layout: req.layout(title: t("Delete reminder"), section: .workouts), id: try reminder.requireID().uuidString.lowercased(),
                title: reminder.title, when: Self.describe(reminder)))
    }

    func delete(req: Request) async throws -> Response {
        let user = try req.requireUser()
        let reminder = try await own(req, user)
        try await reminder.delete(on: req.db)
        req.flash(.success, t("Deleted “{name}”.", reminder.title))
        return req.redirect(to: .reminders)
    }
}
