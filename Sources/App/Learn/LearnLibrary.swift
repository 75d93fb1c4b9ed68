import FieldhouseKit
import Fluent
import Vapor

/// Loads `Resources/Learn/*.md` into the database: new articles are added and published, changed
/// ones updated with a new revision, unchanged ones left alone. Used by `fieldhouse seed` and
/// `fieldhouse learn import`.
enum LearnLibrary {
    struct Outcome {
        var added = 0
        var updated = 0
        var unchanged = 0
        /// Edited or unpublished in the browser since it was imported: the file does not overwrite an editor's work.
        var keptEdited = 0
        /// Translations added or changed.
        var translated = 0
    }

    static let categories = [
        "Getting active", "Training", "Warm-up and mobility", "Nutrition and hydration",
        "Recovery and sleep", "Heart rate", "Safety", "For coaches and parents",
    ]

    /// A category as readers see it. The English name is what articles store, compare and link
    /// by; only the words shown are translated. A category not in the list shows as written.
    static func label(_ category: String) -> String {
        switch category {
        case "Getting active": t("Getting active")
        case "Training": t("Training")
        case "Warm-up and mobility": t("Warm-up and mobility")
        case "Nutrition and hydration": t("Nutrition and hydration")
        case "Recovery and sleep": t("Recovery and sleep")
        case "Heart rate": t("Heart rate")
        case "Safety": t("Safety")
        case "For coaches and parents": t("For coaches and parents")
        default: category
        }
    }

    /// The audience as readers see it: the default "everyone" (stored in English, and compared by
    /// the weekly nudge) in the reader's language; anything an editor wrote as written.
    static func audienceLabel(_ audience: String) -> String {
        audience == "everyone" ? t("everyone") : audience
    }

    static func importFiles(app: Application) async throws -> Outcome {
        let folder = URL(fileURLWithPath: app.directory.workingDirectory + "Resources/Learn")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        var outcome = Outcome()
        var translations: [(Language, LearnDocument, String)] = []
        for file in files {
            let document: LearnDocument
            let language: Language
            do {
                let text = try String(contentsOf: file, encoding: .utf8)
                language = try LearnTranslation.language(ofFile: file.lastPathComponent, text: text)
                document = try LearnDocument(parsing: text)
            } catch let error as UserCommands.CommandError {
                throw error
            } catch {
                throw UserCommands.CommandError("\(file.lastPathComponent): \(error)")
            }
            // Translations go on their articles once every English article is in.
            guard language == .en else {
                translations.append((language, document, file.lastPathComponent))
                continue
            }
            let existing = try await LearnArticle.query(on: app.db).filter(\.$slug == document.slug).first()
            if let existing {
                // An editor's work wins over the file: edited or unpublished in the browser, it stays.
                let edited =
                    try await LearnRevision.query(on: app.db).filter(\.$article.$id == existing.requireID())
                    .filter(\.$authorID != nil).count() > 0
                if edited || !existing.published { outcome.keptEdited += 1; continue }
            }
            let article = existing ?? LearnArticle()
            guard article.apply(document) else { outcome.unchanged += 1; continue }
            try await app.db.inTransaction { db in try await article.publish(document, author: nil, at: app.clock.now, on: db) }
            if existing == nil { outcome.added += 1 } else { outcome.updated += 1 }
        }
        for (language, document, name) in translations {
            guard let article = try await LearnArticle.query(on: app.db).filter(\.$slug == document.slug).first() else {
                throw UserCommands.CommandError("\(name): there is no English article \(document.slug) to translate")
            }
            let articleID = try article.requireID()
            let existing = try await LearnTranslation.query(on: app.db).filter(\.$article.$id == articleID)
                .filter(\.$language == language.rawValue).first()
            // An editor's translation wins over the file, as for the English.
            if existing?.authorID != nil { continue }
            let translation = existing ?? LearnTranslation(article: articleID, language: language)
            guard translation.apply(document) else { continue }
            try await translation.save(on: app.db)
            // The library's version is the articles' newest save: touch the article so every
            // process reloads it.
            article.updatedAt = app.clock.now
            try await article.save(on: app.db)
            outcome.translated += 1
        }
        app.learnCaches.library.changed()
        return outcome
    }
}

/// `fieldhouse learn import`.
struct LearnCommands: AsyncCommandGroup {
    var help: String { "Manage the Learn library." }
    var commands: [String: any AnyAsyncCommand] { ["import": Import()] }

    struct Import: AsyncCommand {
        struct Signature: CommandSignature {}
        var help: String { "Adds new and updates changed articles from Resources/Learn/*.md (each change keeps a revision)." }

        func run(using context: CommandContext, signature: Signature) async throws {
            try await context.application.autoMigrate()
            let outcome = try await LearnLibrary.importFiles(app: context.application)
            context.console.print(
                "Learn: \(outcome.added) added, \(outcome.updated) updated, \(outcome.unchanged) unchanged"
                    + (outcome.keptEdited > 0 ? ", \(outcome.keptEdited) left alone because editors changed or unpublished them in the browser." : "."))
        }
    }
}
